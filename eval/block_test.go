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
// cannot pass by never seeing one of them, and the renju positions where
// Black, with a foul or a double three on the board, is judged exact (the
// case renjuBlackExact reasons about, not only the trivial one).
func TestBlocksOpenFours(t *testing.T) {
	blocks, fails, renjuFouls := 0, 0, 0
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
				// Undo gives the turn to the colour of the stone taken
				// back; the game's own turn is put back after the checks,
				// so that the random games alternate.
				toMove := b.SideToMove()
				for _, c := range [2]Color{Black, White} {
					if !b.BlocksExact(c) || b.ComboCount(c, ComboFlexFour) == 0 {
						continue
					}
					if b.Rule() == Renju && c == Black && b.ComboCount(c, ComboForbidden)+b.ComboCount(c, ComboDoubleThree) > 0 {
						renjuFouls++
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
				b.SetSideToMove(toMove)
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
	t.Logf("%d blocks, %d cells that block nothing, %d renju positions with Black's fouls or double threes", blocks, fails, renjuFouls)
	if blocks < 100 || fails < 1000 || renjuFouls < 10 {
		t.Errorf("too few cases: %d blocks, %d non-blocks, %d renju positions with fouls", blocks, fails, renjuFouls)
	}
}

// TestRenjuBlockEndsFoul is the case BlocksExact guards against: a renju
// position (found by TestBlocksOpenFours' random games) where Black's
// only open-four cell is 6,4 and a White stone there blocks it, yet
// leaves Black an open four elsewhere, at a cell whose foul or double
// three the block ended. Black must not be judged exact here, so that
// callers play the block and see the new open four.
func TestRenjuBlockEndsFoul(t *testing.T) {
	b, err := NewBoard(15, 15, Renju)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range [][3]int{
		{11, 0, 1}, {13, 1, 2}, {10, 2, 1}, {12, 0, 2}, {13, 0, 1}, {12, 3, 2}, {8, 3, 1}, {11, 4, 2},
		{9, 6, 1}, {9, 2, 2}, {6, 3, 1}, {12, 4, 2}, {10, 7, 1}, {7, 0, 2}, {13, 6, 1}, {9, 7, 2},
		{4, 2, 1}, {10, 6, 2}, {3, 0, 1}, {8, 7, 1}, {9, 3, 1}, {9, 1, 1}, {11, 2, 1}, {5, 3, 1},
		{5, 2, 1}, {3, 4, 1}, {13, 7, 1}, {3, 1, 1}, {1, 3, 1}, {1, 4, 1}, {4, 5, 1}, {8, 4, 1},
	} {
		b.PlayColor(b.Pos(m[0], m[1]), Color(m[2]))
	}
	p := b.Pos(6, 4)
	var flex []Pos
	for _, f := range b.Cells() {
		if b.At(f) == Empty && b.Combo(f, Black) == ComboFlexFour {
			flex = append(flex, f)
		}
	}
	if len(flex) != 1 || flex[0] != p {
		t.Fatalf("Black's open-four cells %v, want only %v", flex, p)
	}
	b.PlayColor(p, White)
	left := b.ComboCount(Black, ComboFlexFour)
	b.Undo()
	if left == 0 {
		t.Fatal("the block leaves Black no open four: the position no longer shows the case")
	}
	if b.BlocksExact(Black) {
		t.Errorf("BlocksExact(Black) is true, but a White stone on %v leaves Black %d open-four cells where BlocksOpenFours sees none (it says %v)",
			p, left, b.BlocksOpenFours(p, Black, flex))
	}
}
