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

func benchPlayUndo(bm *testing.B, size int) {
	b := midgame(bm, size, Freestyle, 30, 1)
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
}

func BenchmarkPlayUndo15(bm *testing.B) { benchPlayUndo(bm, 15) }
func BenchmarkPlayUndo20(bm *testing.B) { benchPlayUndo(bm, 20) }
