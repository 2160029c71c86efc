package search

import (
	"context"
	"strings"
	"testing"

	"wuzi/eval"
)

// Every parameter reads back as String prints it, and Set refuses
// unknown names, non-numbers and unusable values without changing p.
func TestParamsSetString(t *testing.T) {
	p := DefaultParams()
	for _, f := range p.paramFields() {
		*f.v++ // every value changed, each still usable
	}
	q := DefaultParams()
	for _, kv := range strings.Fields(p.String()) {
		if err := q.Set(kv); err != nil {
			t.Fatalf("Set(%q): %v", kv, err)
		}
	}
	if q != p {
		t.Fatalf("round trip: got %v, want %v", q, p)
	}
	if err := q.Set("Futility = 170"); err != nil || q.FutilityMargin != 170 {
		t.Fatalf("Set(Futility = 170): %v, got %d", err, q.FutilityMargin)
	}
	for _, bad := range []string{"futility", "nosuch=3", "razor=x", "blockext=10", "blockext=-1", "lmpbase=0", "aspiration=0", "lmrscale=-5", "evdefend=401", "poldefend=-1", "att3o=401", "def1=-1", "norootvct=2"} {
		before := q
		if err := q.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
		if q != before {
			t.Errorf("Set(%q) changed the parameters", bad)
		}
	}
}

// The parameters reach the search: with default values a search is the
// same as before they existed (the bench signature pins that), and a
// searcher given other values searches a different tree, in helpers too.
func TestParamsChangeTheSearch(t *testing.T) {
	b, err := eval.NewBoard(15, 15, eval.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range [][2]int{{7, 7}, {8, 8}, {8, 6}, {6, 9}} {
		b.Play(b.Pos(m[0], m[1]))
	}
	nodes := func(p Params) uint64 {
		s := New(16)
		s.Options.Params = p
		c := new(eval.Board)
		*c = *b
		return s.Search(context.Background(), c, Limits{MaxDepth: 9}, nil).Nodes
	}
	def := nodes(DefaultParams())
	if again := nodes(DefaultParams()); again != def {
		t.Fatalf("default parameters: %d then %d nodes", def, again)
	}
	p := DefaultParams()
	p.LMRScale, p.FutilityMargin, p.LMPBase, p.AspWindow = 150, 40, 1, 10
	if other := nodes(p); other == def {
		t.Fatalf("other parameters searched the same %d nodes", def)
	}
}

// norootvct=1 turns the root's threat searches off: on the tactical
// suite's VCT positions the default search wins by its root VCT
// (reason "vct") where that one never does, and it still answers with a
// move from the iterations.
func TestParamsNoRootThreats(t *testing.T) {
	byVCT := 0
	for i, tc := range loadTactics(t) {
		if tc.kind != "vct" || tc.rule != eval.Freestyle {
			continue
		}
		if byVCT >= 3 || i > 400 {
			break
		}
		run := func(off int) Result {
			s := New(16)
			s.Options.Params.NoRootThreats = off
			return s.Search(context.Background(), tc.replay(t), Limits{MaxNodes: 100000}, nil)
		}
		def := run(0)
		if def.Reason != "vct" {
			continue
		}
		byVCT++
		if off := run(1); off.Reason == "vct" || off.Move == eval.NoPos {
			t.Errorf("%d: with norootvct=1 the search answered %v by %q", i, off.Move, off.Reason)
		}
	}
	if byVCT == 0 {
		t.Fatal("no suite position won by the root VCT: the test checks nothing")
	}
}
