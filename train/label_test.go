package train

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/match/engine"
	"wuzi/search"
	"wuzi/selfplay"
)

// TestParseEval: the evaluations Wuzi and Rapfi print are read, the last
// one wins, mates in either engine's words become proven scores and lines
// without one are skipped.
func TestParseEval(t *testing.T) {
	cases := []struct {
		msgs         []string
		score, depth int
		ok           bool
	}{
		{[]string{"depth 7 ev 575 n 68 tm 0 pv h10"}, 575, 7, true},
		{[]string{"Depth 12-18 | Eval -232 | Node 30K | Time 30ms", "Speed 1000K | Depth 12-18 | Eval -240 | Node 30K"}, -240, 12, true},
		{[]string{"Depth 9-10 | Eval +M15 | Time 3ms"}, search.Win - 15, 9, true},
		{[]string{"Depth 9-10 | Eval -M8 | Time 3ms"}, -(search.Win - 8), 9, true},
		{[]string{"depth 1 win in 1 n 0 tm 0 pv g8"}, search.Win - 1, 1, true},
		{[]string{"depth 6-21 lose in 14 n 12k n/s 900k tm 13 pv h8 i9"}, -(search.Win - 14), 6, true},
		{[]string{"depth 5 ev 40 n 3k", "[2] depth 7 win in 9 n 80k"}, search.Win - 9, 7, true},
		{[]string{"Load config from config.toml", "Depth 0-0 | Eval VAL_NONE | Node 4"}, 0, 0, false},
		{[]string{"depth 3 ev 12", "Speed 900K | Depth 0-0 | Eval VAL_NONE"}, 12, 3, true},
		{nil, 0, 0, false},
	}
	for _, c := range cases {
		s, d, ok := parseEval(c.msgs)
		if ok != c.ok || (ok && (s != c.score || d != c.depth)) {
			t.Errorf("parseEval(%q) = %d, %d, %v; want %d, %d, %v", c.msgs, s, d, ok, c.score, c.depth, c.ok)
		}
	}
	if !search.IsMate(search.Win - 15) {
		t.Fatal("a mate in 15 is not a proven score")
	}
}

// TestLabelWithWuzi labels self-play positions with the real engine over
// the protocol: a position gets the engine's score and a best move on an
// empty cell, across a change of board size and rule; at most a fifth of
// them are decided moves the engine answers without an evaluation.
func TestLabelWithWuzi(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	bin := filepath.Join(t.TempDir(), "pbrain-wuzi")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/pbrain-wuzi").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var buf bytes.Buffer
	cfg := selfplay.Config{Games: 4, Seed: 3, Nodes: 200, HashMB: 1, Jobs: 1, Rules: []eval.Rule{eval.Freestyle, eval.Renju}, Sizes: []int{15, 20},
		RandomPlies: selfplay.DefaultRandomPlies, RandomBest: selfplay.DefaultRandomBest, RandomMargin: selfplay.DefaultRandomMargin}
	if _, err := selfplay.Run(context.Background(), cfg, &buf); err != nil {
		t.Fatal(err)
	}
	l := NewLabeler(engine.Spec{Command: bin, Options: []engine.Option{{Key: "max_node", Value: "3000"}}}, 2*time.Second)
	defer l.Close()
	n, unlabelled, sizes := 0, 0, map[int]bool{}
	for i, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if i%5 != 0 {
			continue
		}
		pos, err := selfplay.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := l.Label(context.Background(), pos)
		if err != nil {
			t.Fatalf("%s: error %v", line, err)
		}
		if !ok {
			// The engine answered without an evaluation, as Wuzi does
			// for a decided move (its only move, or the only defence
			// against a VCF): Label reports it, the caller skips it.
			unlabelled++
			t.Logf("%s: no evaluation", line)
			continue
		}
		if _, err := got.Replay(); err != nil {
			t.Fatalf("%s: labelled position does not replay (best move %v): %v", line, got.Best, err)
		}
		if got.Depth < 1 {
			t.Fatalf("%s: depth %d", line, got.Depth)
		}
		n++
		sizes[pos.Size] = true
	}
	if n < 5 || len(sizes) < 2 || unlabelled > n/4 {
		t.Fatalf("labelled %d positions on sizes %v, %d without an evaluation", n, sizes, unlabelled)
	}
}

// TestLabelEngineFails: an engine that dies is reported, not waited for.
func TestLabelEngineFails(t *testing.T) {
	pos, err := selfplay.ParseLine("freestyle 15 0 3 w -110 1 j5 -1 j6i6j9")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLabeler(engine.Spec{Command: "false"}, time.Second)
	defer l.Close()
	start := time.Now()
	if _, ok, err := l.Label(context.Background(), pos); err == nil || ok {
		t.Fatalf("labelled %v with a dead engine, error %v", ok, err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("took %v to notice a dead engine", time.Since(start))
	}
}
