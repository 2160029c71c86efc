package eval

import (
	"encoding/binary"
	"math/bits"
)

// stoneBox is the bounding rectangle of the stones on the board, in board
// coordinates; empty when maxX < minX. Blocked cells do not count.
type stoneBox struct {
	minX, minY, maxX, maxY int8
	nonEmpty               bool
}

func (bx *stoneBox) add(xy [2]int8) {
	x, y := xy[0], xy[1]
	if !bx.nonEmpty {
		*bx = stoneBox{x, y, x, y, true}
		return
	}
	bx.minX, bx.maxX = min(bx.minX, x), max(bx.maxX, x)
	bx.minY, bx.maxY = min(bx.minY, y), max(bx.maxY, y)
}

// scanRect returns the stones' bounding rectangle grown by margin cells
// and clipped to the board; ok is false on a board without stones.
func (b *Board) scanRect(margin int) (x0, y0, x1, y1 int, ok bool) {
	bx := b.box
	if !bx.nonEmpty {
		return 0, 0, 0, 0, false
	}
	return max(int(bx.minX)-margin, 0), max(int(bx.minY)-margin, 0),
		min(int(bx.maxX)+margin, b.width-1), min(int(bx.maxY)+margin, b.height-1), true
}

// StoneBounds returns the smallest rectangle holding every stone, in board
// coordinates, or ok false when there is none.
func (b *Board) StoneBounds() (minX, minY, maxX, maxY int, ok bool) {
	return b.scanRect(0)
}

// Candidates appends to dst, in row order, every empty cell that has a
// stone within two cells (Near) and through which either side can still
// make a five (Alive), and returns the extended slice. It scans only the
// stones' bounding rectangle grown by two, which the board keeps up to
// date on Play and Undo, eight cells at a time (see nearEmpty). It returns
// dst unchanged on a board without stones. With a dst of enough capacity
// it does not allocate.
func (b *Board) Candidates(dst []Pos) []Pos {
	x0, y0, x1, y1, ok := b.scanRect(2)
	if !ok {
		return dst
	}
	for y := y0; y <= y1; y++ {
		row := int(b.Pos(0, y))
		for x := x0; x <= x1; x += 8 {
			p := row + x
			m := b.nearEmpty(p)
			if k := x1 - x + 1; k < 8 {
				m &= 1<<(8*k) - 1 // lanes past the rectangle
			}
			for m != 0 {
				q := Pos(p + bits.TrailingZeros64(m)>>3)
				m &= m - 1
				if b.pats[q] != [numDirs]uint8{} {
					dst = append(dst, q)
				}
			}
		}
	}
	return dst
}

// nearEmpty reads the eight cells from p on (p+7 stays inside the padded
// arrays for any inside cell p) and returns a mask with the top bit of
// byte i set where cell p+i is empty and Near: the cells and the near
// counts are bytes, a cell is empty where its byte is zero (Empty), and
// no count exceeds 25, so adding 0x7f to a byte's low seven bits sets its
// top bit exactly when the byte is not zero, with no carry between bytes.
func (b *Board) nearEmpty(p int) uint64 {
	const low7, top = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	w := b.cells[p : p+8]
	c := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	n := binary.LittleEndian.Uint64(b.near[p : p+8])
	nonZero := func(w uint64) uint64 { return ((w & low7) + low7 | w) & top }
	return nonZero(n) &^ nonZero(c)
}

// FirstCombo returns an empty cell where side c has the combo cb, or NoPos
// when there is none (ComboCount(c, cb) == 0). When several cells have it,
// which one is returned is unspecified. It is O(1) in the usual case: the
// board remembers the last cell that gained each combo (and restores that
// memory on Undo); only when that cell has lost it since does it scan, and
// for any combo but ComboNone only the cells within four of the stones'
// bounding rectangle (a three or more needs stones that close).
//
// The search uses it to find, say, the cell that blocks the opponent's five:
// FirstCombo(opp, ComboFive).
func (b *Board) FirstCombo(c Color, cb Combo) Pos {
	s := c - 1
	if b.comboCount[s][cb] == 0 {
		return NoPos
	}
	if h := b.hint[s][cb]; h != NoPos && b.cells[h] == Empty && b.info[h].combo[s] == cb {
		return h
	}
	if cb == ComboNone {
		for _, p := range b.insideLst {
			if b.cells[p] == Empty && b.info[p].combo[s] == cb {
				return p
			}
		}
		return NoPos
	}
	x0, y0, x1, y1, ok := b.scanRect(halfLine - 1)
	if !ok {
		return NoPos
	}
	for y := y0; y <= y1; y++ {
		row := b.Pos(0, y)
		for x := x0; x <= x1; x++ {
			if p := row + Pos(x); b.cells[p] == Empty && b.info[p].combo[s] == cb {
				return p
			}
		}
	}
	return NoPos
}
