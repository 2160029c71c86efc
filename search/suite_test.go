package search

import (
	"context"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"wuzi/eval"
)

var suiteTime = flag.Duration("suite", 0, "run the tactical suite with this much time a position (e.g. -suite=1s)")

// suiteEntry is one tactical position: the attacker to move has a forced
// win (kind "vcf" or "vct"), or the side to move must find a move that
// refutes the opponent's VCF (kind "defence", with the refutations).
type suiteEntry struct {
	kind    string
	rule    eval.Rule
	size    int
	moves   []eval.Pos
	refutes []eval.Pos
	plies   int // length of the win found when the suite was made
}

// makeSuite builds the suite from random positions with fixed seeds under
// freestyle, standard and renju on 15×15 and 20×20: each kind is found
// and proven by the solvers, so a position in the suite has a known answer.
func makeSuite(t *testing.T, perKind int) []suiteEntry {
	var out []suiteEntry
	rules := []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju}
	count := map[string]int{}
	for g := 0; g < 4000 && (count["vcf"] < perKind || count["vct"] < perKind || count["defence"] < perKind); g++ {
		r := rules[g%len(rules)]
		size := 15
		if g%2 == 1 {
			size = 20
		}
		rng := rand.New(rand.NewPCG(uint64(g), 4242))
		b := setup(t, r, size)
		c := size / 2
		for b.Ply() < 12+rng.IntN(26) {
			p := b.Pos(c+rng.IntN(9)-4, c+rng.IntN(9)-4)
			if !b.IsEmpty(p) || b.WinsAt(p, b.SideToMove()) || (b.SideToMove() == eval.Black && b.IsForbidden(p)) {
				continue
			}
			b.Play(p)
		}
		if hasFivePoint(b, eval.Black) || hasFivePoint(b, eval.White) {
			continue
		}
		moves := movesOf(b)
		s := New(4)
		s.b = b
		s.resetArea()
		if seq, ok := s.vcfRoot(0); ok {
			if len(seq) >= 5 && count["vcf"] < perKind {
				count["vcf"]++
				out = append(out, suiteEntry{kind: "vcf", rule: r, size: size, moves: moves, plies: len(seq)})
			}
			continue
		}
		if count["vct"] < perKind {
			if _, ok := s.vctRoot(vctPlies, vctNodes); ok {
				count["vct"]++
				out = append(out, suiteEntry{kind: "vct", rule: r, size: size, moves: moves})
				continue
			}
		}
		if count["defence"] < perKind {
			legal := s.rootMoves()
			keep := s.refuteOpponentVCF(legal)
			if len(keep) < len(legal) && len(keep) <= 3 {
				count["defence"]++
				out = append(out, suiteEntry{kind: "defence", rule: r, size: size, moves: moves, refutes: keep})
			}
		}
	}
	return out
}

// TestTacticalSuite plays the suite at the engine's normal settings with
// -suite=DURATION a position and reports how many it solves and the median
// time: a win is solved when the engine's move, played out against its own
// depth-6 defence, makes five; a defence when the move is one of the
// refutations. Without -suite it only checks that the suite can be built.
func TestTacticalSuite(t *testing.T) {
	per := 4
	if *suiteTime > 0 {
		per = 20
	}
	suite := makeSuite(t, per)
	if len(suite) < 3*per/2 {
		t.Fatalf("suite has %d positions, want about %d", len(suite), 3*per)
	}
	if *suiteTime == 0 {
		t.Logf("%d positions; run with -suite=1s to play them", len(suite))
		return
	}
	solved := map[string]int{}
	total := map[string]int{}
	var times []time.Duration
	for i, e := range suite {
		b := setup(t, e.rule, e.size)
		for _, p := range e.moves {
			b.Play(p)
		}
		att := b.SideToMove()
		s := New(16)
		start := time.Now()
		res := s.Search(context.Background(), b, Limits{Soft: start.Add(*suiteTime / 2), Hard: start.Add(*suiteTime)}, nil)
		el := time.Since(start)
		times = append(times, el)
		total[e.kind]++
		ok := false
		switch e.kind {
		case "defence":
			ok = slices.Contains(e.refutes, res.Move)
		default:
			ok = playsOut(b, res.Move, att)
		}
		if ok {
			solved[e.kind]++
		} else {
			t.Logf("unsolved %d: %s %v %dx%d, played %v (%s) in %v", i, e.kind, e.rule, e.size, e.size, xy(b, res.Move), res.Reason, el)
		}
	}
	slices.Sort(times)
	for _, k := range []string{"vcf", "vct", "defence"} {
		t.Logf("%-8s solved %d of %d", k, solved[k], total[k])
	}
	t.Logf("median time %v, worst %v, %v a position", times[len(times)/2], times[len(times)-1], *suiteTime)
	if solved["vcf"] < total["vcf"] {
		t.Errorf("a VCF win was missed")
	}
}

// playsOut plays first for att, then both sides with depth-6 searches, and
// reports whether att makes five within 40 plies.
func playsOut(b *eval.Board, first eval.Pos, att eval.Color) bool {
	return playOut(b, first, att, 40, false)
}

// playOut plays first for att, then both sides with depth-6 searches (at
// most 2 M nodes a move) for up to plies moves, att playing instead the
// threat solver's VCT on its turns when useSolver is set and the solver
// finds one. It reports whether att made five, and leaves b as it was.
func playOut(b *eval.Board, first eval.Pos, att eval.Color, plies int, useSolver bool) bool {
	start := b.Ply()
	defer func() {
		for b.Ply() > start {
			b.Undo()
		}
	}()
	b.Play(first)
	for n := 0; n < plies && b.Empties() > 0; n++ {
		if b.LastMoveWins() {
			return b.SideToMove().Opp() == att
		}
		if useSolver && b.SideToMove() == att {
			s := New(16)
			s.b = b
			s.resetArea()
			if p, ok := s.vctRoot(tacticsPlies, tacticsNodes); ok {
				b.Play(p)
				continue
			}
		}
		res := New(4).Search(context.Background(), b, Limits{MaxDepth: 6, MaxNodes: 2_000_000}, nil)
		b.Play(res.Move)
	}
	return b.LastMoveWins() && b.SideToMove().Opp() == att
}
