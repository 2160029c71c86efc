package search

import (
	"math/rand/v2"
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

// TestSplitKeepsOrder checks late-move pruning's split (splitPrunable)
// against the sorted list it replaces, on the lists genMoves makes in
// random positions of every rule: whatever moves were picked before and
// wherever the node reaches its quota, the moves it may still search come
// in the sorted list's order, each with its index in that list as its
// rank (i plus the dropped moves before it, which the reductions read),
// and the dropped moves before each are the prunable ones the sorted list
// has between the split and it (those the history's malus takes). With
// the same order, ranks and malus the search's tree is the one the whole
// sort gave.
func TestSplitKeepsOrder(t *testing.T) {
	kept, dropped := 0, 0
	for _, r := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree} {
		for seed := uint64(0); seed < 60; seed++ {
			rng := rand.New(rand.NewPCG(seed, 100+uint64(r)))
			b := setup(t, r, 15)
			s := New(1)
			s.b = b
			target := 8 + rng.IntN(50)
			for tries := 0; b.Ply() < target && tries < 2000; tries++ {
				if p, ok := randomQuietMove(b, rng, 5); ok {
					b.Play(p)
				}
			}
			s.resetArea()
			us := b.SideToMove()
			them := us.Opp()
			list := s.genMoves(1, eval.NoPos, false)
			want := slices.Clone(list)
			sortMoves(want)
			prunable := func(m scoredMove) bool {
				return b.Combo(m.pos, us) <= eval.ComboThree && b.Combo(m.pos, them) < eval.ComboFour
			}
			picks := rng.IntN(lmpPicks + 1)
			at := rng.IntN(len(list) + 1)
			got := slices.Clone(list)
			var out []scoredMove
			split := false
			var drop []scoredMove
			for i := 0; i < len(got); i++ {
				if !split && i == at {
					split = true
					got, drop = s.splitPrunable(got, i, us, them)
					if i == len(got) {
						break
					}
				}
				if i < picks {
					pickMove(got, i)
				} else if i == picks {
					sortMoves(got[i:])
				}
				m := got[i]
				rank := i
				if split {
					rank += rankedBefore(drop, m)
				}
				if want[rank] != m {
					t.Fatalf("%v seed %d, split at %d after %d picks: move %d is %v at rank %d, the sorted list has %v there", r, seed, at, picks, i, m, rank, want[rank])
				}
				if split {
					var before, between []eval.Pos
					for _, q := range drop {
						if q.before(m) {
							before = append(before, q.pos)
						}
					}
					for _, q := range want[at:rank] {
						if prunable(q) {
							between = append(between, q.pos)
						}
					}
					slices.Sort(before)
					slices.Sort(between)
					if !slices.Equal(before, between) {
						t.Fatalf("%v seed %d: dropped before %v: %v, want %v", r, seed, m, before, between)
					}
					kept++
				}
				out = append(out, m)
			}
			for _, q := range drop {
				if !prunable(q) {
					t.Fatalf("%v seed %d: %v dropped, but it is a four or blocks one", r, seed, q)
				}
			}
			dropped += len(drop)
			var rest []scoredMove
			for j, m := range want {
				if j < at || !prunable(m) {
					rest = append(rest, m)
				}
			}
			if !slices.Equal(out, rest) {
				t.Fatalf("%v seed %d: moves %v, want %v", r, seed, out, rest)
			}
		}
	}
	if kept < 20 || dropped < 1000 {
		t.Fatalf("%d moves kept after a split, %d dropped: the test does not reach its cases", kept, dropped)
	}
	t.Logf("%d moves kept after a split, %d dropped", kept, dropped)
}
