package eval

import (
	"math/rand/v2"
	"testing"
)

// TestBlocksOpenFours checks BlocksOpenFours against playing the block:
// in random games on 15×15 and 20×20 boards under every rule and for
// every side BlocksExact allows, at every position
// where a side has an open-four cell, for every empty cell p, the answer
// must be what a stone of the other colour on p, and the count of open-four
// cells after it, say. It also counts both answers, so that the test
// cannot pass by never seeing one of them.
func TestBlocksOpenFours(t *testing.T) {
	blocks, fails := 0, 0
	for _, c := range []struct {
		rule Rule
		size int
	}{{Freestyle, 15}, {Freestyle, 20}, {Standard, 15}, {Renju, 15}} {
		size := c.size
		b, err := NewBoard(size, size, c.rule)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(size), uint64(c.rule)))
		for game := 0; game < 40; game++ {
			b.Clear()
			for b.Stones() < 60 && !b.LastMoveWins() {
				for _, c := range [2]Color{Black, White} {
					if !b.BlocksExact(c) || b.ComboCount(c, ComboFlexFour) == 0 {
						continue
					}
					var flex []Pos
					for _, f := range b.Cells() {
						if b.At(f) == Empty && b.Combo(f, c) == ComboFlexFour {
							flex = append(flex, f)
						}
					}
					for _, p := range b.Cells() {
						if b.At(p) != Empty {
							continue
						}
						got := b.BlocksOpenFours(p, c, flex)
						b.PlayColor(p, c.Opp())
						want := b.ComboCount(c, ComboFlexFour) == 0
						b.Undo()
						if got != want {
							x, y := b.XY(p)
							t.Fatalf("%v %dx%d, game %d, %d stones: side %d's open fours at %v, a block at %d,%d: BlocksOpenFours %v, playing it %v",
								b.Rule(), size, size, game, b.Stones(), c, flex, x, y, got, want)
						}
						if want {
							blocks++
						} else {
							fails++
						}
					}
				}
				// A random move near the stones (or the centre), so that
				// threes and fours arise.
				cands := b.Cells()
				var near []Pos
				for _, p := range cands {
					if b.At(p) == Empty && (b.Stones() == 0 || b.Near(p)) {
						near = append(near, p)
					}
				}
				if len(near) == 0 {
					break
				}
				b.Play(near[rng.IntN(len(near))])
			}
		}
	}
	t.Logf("%d blocks, %d cells that block nothing", blocks, fails)
	if blocks < 100 || fails < 1000 {
		t.Errorf("too few cases: %d blocks, %d non-blocks", blocks, fails)
	}
}
