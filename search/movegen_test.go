package search

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"wuzi/eval"
)

// TestStagedMovesAreListed checks isCandidate, which decides whether the
// alpha-beta may search a killer before the move list is made, against
// genMoves itself: in random positions of every rule, quiet and under an
// open-three threat, for both sides in renju, a cell passes isCandidate
// exactly when genMoves lists it. A killer searched before the list that
// the list would not hold (a foul, or no defence of the threat) would be
// a move the search never meant to make.
func TestStagedMovesAreListed(t *testing.T) {
	checked, threatened, dead := 0, 0, 0
	for _, r := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree} {
		for seed := uint64(0); seed < 40; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(r)))
			// One game in four on a 7x7 board, where lines are short
			// and crowded cells are dead (no five through them).
			size, radius := 15, 4
			if seed%4 == 0 {
				size, radius = 7, 3
			}
			b := setup(t, r, size)
			s := New(1)
			s.b = b
			target := 10 + rng.IntN(min(50, size*size-15))
			for tries := 0; b.Ply() < target && tries < 2000; tries++ {
				if p, ok := randomQuietMove(b, rng, radius); ok {
					b.Play(p)
				}
			}
			s.resetArea()
			us := b.SideToMove()
			thr := b.ComboCount(us.Opp(), eval.ComboFlexFour) > 0
			if thr {
				threatened++
			}
			for _, th := range []bool{false, thr} {
				listed := s.genMoves(1, eval.NoPos, th)
				for _, p := range b.Cells() {
					in := slices.ContainsFunc(listed, func(m scoredMove) bool { return m.pos == p })
					if got := s.isCandidate(p, th); got != in {
						x, y := b.XY(p)
						t.Fatalf("%v seed %d, threatened %v: isCandidate(%d,%d) = %v, genMoves lists it: %v", r, seed, th, x, y, got, in)
					}
					checked++
					if b.IsEmpty(p) && b.Near(p) && !b.Alive(p) {
						dead++
					}
				}
			}
		}
	}
	if dead == 0 || threatened < 10 {
		t.Fatalf("%d dead cells near stones, %d positions under an open-three threat: the test does not reach every case", dead, threatened)
	}
	t.Logf("%d cells checked, %d dead near stones, %d positions under threat", checked, dead, threatened)
}

// TestMoveCountPruningGuard searches won positions of the engine-mates
// suite with late-move pruning cut to a quota of one or two moves a node:
// the pruning must wait until a searched move has not lost (the guard), so
// however few moves a node keeps, no won position is scored as a proven
// loss. Without the guard a node whose first move loses would claim the
// loss for all of them, and the claim would climb to the root.
func TestMoveCountPruningGuard(t *testing.T) {
	suite := loadTacticsFile(t, filepath.Join("testdata", "mates_engines.txt"))
	prm := DefaultParams()
	for _, set := range []string{"lmpbase=1", "lmpexp=0"} {
		if err := prm.Set(set); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i, tc := range suite {
		if i%4 != 0 {
			continue
		}
		n++
		b := tc.replay(t)
		s := New(16)
		s.Options.Params = prm
		res := s.Search(context.Background(), b, Limits{MaxNodes: 20_000}, nil)
		if IsMate(res.Score) && res.Score < 0 {
			t.Errorf("position %d (a %d-ply win for the side to move): scored as a loss (%d), played %v", i, tc.plies, res.Score, xy(b, res.Move))
		}
	}
	if n < 40 {
		t.Fatalf("%d positions searched, want at least 40", n)
	}
}
