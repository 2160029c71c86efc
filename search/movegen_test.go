package search

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"wuzi/eval"
)

// TestKillerRank checks how genMoves ranks the killers: in random
// positions of every rule, quiet and under an open-three threat, the list
// holds the same cells whatever the killers are (a killer the list would
// not hold, a foul or a cell that does not defend, is never added), and a
// listed killer scores Params.KillerBonus above its own score, the second
// killer half that, and no more: a killer is not ranked above a move the
// move order rates better by more than the bonus.
func TestKillerRank(t *testing.T) {
	ranked, threatened := 0, 0
	for _, r := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree} {
		for seed := uint64(0); seed < 30; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(r)))
			b := setup(t, r, 15)
			s := New(1)
			s.b = b
			target := 10 + rng.IntN(50)
			for tries := 0; b.Ply() < target && tries < 2000; tries++ {
				if p, ok := randomQuietMove(b, rng, 4); ok {
					b.Play(p)
				}
			}
			s.resetArea()
			thr := b.ComboCount(b.SideToMove().Opp(), eval.ComboFlexFour) > 0
			if thr {
				threatened++
			}
			for _, th := range []bool{false, thr} {
				s.killers[1] = [2]eval.Pos{eval.NoPos, eval.NoPos}
				plain := slices.Clone(s.genMoves(1, eval.NoPos, th))
				if len(plain) < 2 {
					continue
				}
				// The killers: the worst listed move, and a cell the
				// list does not hold (or the second worst).
				slices.SortStableFunc(plain, func(a, b scoredMove) int { return int(a.score) - int(b.score) })
				k0, k1 := plain[0].pos, plain[1].pos
				for _, p := range b.Cells() {
					if !slices.ContainsFunc(plain, func(m scoredMove) bool { return m.pos == p }) && rng.IntN(4) == 0 {
						k1 = p
					}
				}
				s.killers[1] = [2]eval.Pos{k0, k1}
				got := s.genMoves(1, eval.NoPos, th)
				if len(got) != len(plain) {
					t.Fatalf("%v seed %d: %d moves listed with killers, %d without", r, seed, len(got), len(plain))
				}
				bonus := int32(s.Options.Params.KillerBonus)
				for _, m := range got {
					k := slices.IndexFunc(plain, func(q scoredMove) bool { return q.pos == m.pos })
					if k < 0 {
						x, y := b.XY(m.pos)
						t.Fatalf("%v seed %d: killer (%d,%d) listed, not a candidate without it", r, seed, x, y)
					}
					want := plain[k].score
					switch m.pos {
					case k0:
						want += bonus
						ranked++
					case k1:
						want += bonus / 2
					}
					if m.score != want {
						x, y := b.XY(m.pos)
						t.Fatalf("%v seed %d: (%d,%d) scores %d, want %d (killers %v)", r, seed, x, y, m.score, want, s.killers[1])
					}
				}
			}
		}
	}
	if ranked < 100 || threatened < 10 {
		t.Fatalf("%d killers ranked, %d positions under an open-three threat: the test does not reach every case", ranked, threatened)
	}
	t.Logf("%d killers ranked, %d positions under threat", ranked, threatened)
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
