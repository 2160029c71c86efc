package eval

import (
	"math/rand/v2"
	"testing"
)

// midgame plays n random moves near the centre of a fresh board.
func midgame(tb testing.TB, size int, r Rule, n int, seed uint64) *Board {
	tb.Helper()
	b, err := NewBoard(size, size, r)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	c := size / 2
	for b.Ply() < n {
		x, y := c+rng.IntN(9)-4, c+rng.IntN(9)-4
		if p := b.Pos(x, y); b.IsEmpty(p) && !b.WinsAt(p, b.SideToMove()) {
			b.Play(p)
		}
	}
	return b
}

func benchPlayUndo(bm *testing.B, size int, r Rule) {
	b := midgame(bm, size, r, 30, 1)
	var moves []Pos
	for _, p := range b.Cells() {
		if b.IsEmpty(p) && b.Near(p) {
			moves = append(moves, p)
		}
	}
	bm.ReportAllocs()
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		p := moves[i%len(moves)]
		b.Play(p)
		b.Undo()
	}
	bm.ReportMetric(float64(bm.N)/bm.Elapsed().Seconds(), "pairs/s")
}

// Play+undo of every cell near the stones of a 30-stone mid-game, with
// every pattern, combo, score and total updated.
func BenchmarkPlayUndo15(bm *testing.B)      { benchPlayUndo(bm, 15, Freestyle) }
func BenchmarkPlayUndo20(bm *testing.B)      { benchPlayUndo(bm, 20, Freestyle) }
func BenchmarkPlayUndo15Renju(bm *testing.B) { benchPlayUndo(bm, 15, Renju) }

// benchCandidatesScan is the naive candidate scan a search could do over
// Cells: IsEmpty && Near && Alive.
func benchCandidatesScan(bm *testing.B, size int) {
	b := midgame(bm, size, Freestyle, 30, 1)
	buf := make([]Pos, 0, 512)
	bm.ReportAllocs()
	for i := 0; i < bm.N; i++ {
		buf = buf[:0]
		for _, p := range b.Cells() {
			if b.IsEmpty(p) && b.Near(p) && b.Alive(p) {
				buf = append(buf, p)
			}
		}
	}
}

// benchCandidates is the same set through Candidates, which scans only the
// stones' bounding rectangle grown by two.
func benchCandidates(bm *testing.B, size int) {
	b := midgame(bm, size, Freestyle, 30, 1)
	buf := make([]Pos, 0, 512)
	bm.ReportAllocs()
	for i := 0; i < bm.N; i++ {
		buf = b.Candidates(buf[:0])
	}
}

func BenchmarkCandidatesScan15(bm *testing.B) { benchCandidatesScan(bm, 15) }
func BenchmarkCandidates15(bm *testing.B)     { benchCandidates(bm, 15) }
func BenchmarkCandidatesScan20(bm *testing.B) { benchCandidatesScan(bm, 20) }
func BenchmarkCandidates20(bm *testing.B)     { benchCandidates(bm, 20) }

// BenchmarkFirstCombo asks, after each play, where the side to move's
// best threat cells are, as a search's root shortcuts would.
func BenchmarkFirstCombo15(bm *testing.B) {
	b := midgame(bm, 15, Freestyle, 30, 1)
	moves := b.Candidates(nil)
	bm.ReportAllocs()
	bm.ResetTimer()
	n := 0
	for i := 0; i < bm.N; i++ {
		b.Play(moves[i%len(moves)])
		for cb := ComboThree; cb < NumCombos; cb++ {
			if b.FirstCombo(b.SideToMove(), cb) != NoPos {
				n++
			}
		}
		b.Undo()
	}
	_ = n
}
