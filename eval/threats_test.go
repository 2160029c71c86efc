package eval

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCandidatesAtTheEdges checks Candidates, which reads eight cells at a
// time, against the cell-by-cell definition on the widest and narrowest
// boards with stones along every edge and in the corners, where its reads
// run past the last column into the padding.
func TestCandidatesAtTheEdges(t *testing.T) {
	for _, sz := range [][2]int{{MaxSize, MaxSize}, {MaxSize, MinSize}, {MinSize, MaxSize}, {17, 9}} {
		w, h := sz[0], sz[1]
		for seed := uint64(0); seed < 20; seed++ {
			b, err := NewBoard(w, h, Freestyle)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			for i := 0; i < 3*(w+h); i++ {
				// Mostly on the border, where the reads end.
				x, y := rng.IntN(w), rng.IntN(h)
				switch rng.IntN(4) {
				case 0:
					x = w - 1 - rng.IntN(2)
				case 1:
					y = h - 1 - rng.IntN(2)
				case 2:
					x = rng.IntN(2)
				}
				p := b.Pos(x, y)
				if !b.IsEmpty(p) {
					continue
				}
				if rng.IntN(10) == 0 {
					b.Block(p)
				} else {
					b.Play(p)
				}
				var naive []Pos
				for _, q := range b.Cells() {
					if b.IsEmpty(q) && b.Near(q) && b.Alive(q) {
						naive = append(naive, q)
					}
				}
				if got := b.Candidates(nil); fmt.Sprint(got) != fmt.Sprint(naive) {
					t.Fatalf("%dx%d seed %d after %d moves: Candidates %v, cell by cell %v", w, h, seed, b.Ply(), got, naive)
				}
			}
		}
	}
}
