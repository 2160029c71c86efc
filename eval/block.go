package eval

// BlocksOpenFours reports whether a stone of c's opponent on the empty
// cell p would leave side c no cell where it makes an open four
// (ComboFlexFour), given flex, every such cell of c now. It answers what
// playing p and reading ComboCount(c, ComboFlexFour) would, without
// playing: only the cells of flex on p's four lines, within the rule's
// reach, can change, each in the one direction that passes through p.
//
// That holds where a stone of c's opponent can only take away from c's
// combos, never give one (BlocksExact): c's patterns depend on which
// cells are c's and which can still become c's, and a block only turns
// the second kind into neither. Renju's Black is the exception where it
// has a foul or a double three: a block of one of two fours or threes
// through such a cell ends its foul and can leave an open four there.
// Callers play the move wherever BlocksExact is false.
func (b *Board) BlocksOpenFours(p Pos, c Color, flex []Pos) bool {
	t := b.tabs
	stone := uint32(c.Opp())
	for _, f := range flex {
		if f == p {
			continue
		}
		d, m := b.lineThrough(p, f, t.reach)
		if m == 0 {
			return false // not on a line through p: c keeps its open four there
		}
		// p is m cells before f along d (see put): its slot in f's key.
		e := b.pats[f]
		e[d] = t.entryOf(b.keys[f][d] ^ stone<<slotShift(-m))
		if b.comboOf(&e, c) == ComboFlexFour {
			return false
		}
	}
	return true
}

// BlocksExact reports whether BlocksOpenFours is exact for side c in
// this position: under freestyle and standard always, under renju for
// White always and for Black unless it has a foul (ComboForbidden) or a
// double three (ComboDoubleThree) with an open four, an overline or a
// double four on one of its lines (see renjuBlackExact); caro's rules are
// left to playing the move.
func (b *Board) BlocksExact(c Color) bool {
	switch b.rule {
	case Freestyle, Standard:
		return true
	case Renju:
		return c == White || b.renjuBlackExact()
	}
	return false
}

// renjuBlackExact reports whether no block can give renju's Black an open
// four. Black's line patterns, like every side's, only lose by a block (a
// White stone never makes, lengthens or frees a row of Black's), and a
// cell's combo follows from its four patterns; so a cell that is not an
// open four now becomes one only when a block ends the foul or double
// three that hides it, leaving a line that already makes an open four. A
// foul or double-three cell without such a line (an open four, or an
// overline or double four, should one shrink to an open four) cannot; and
// mostly Black has no foul or double three at all.
func (b *Board) renjuBlackExact() bool {
	cc := &b.comboCount[0]
	if cc[ComboForbidden] == 0 && cc[ComboDoubleThree] == 0 {
		return true
	}
	for _, f := range b.insideLst {
		if b.cells[f] != Empty {
			continue
		}
		if cb := b.info[f].combo[0]; cb != ComboForbidden && cb != ComboDoubleThree {
			continue
		}
		for _, e := range b.pats[f] {
			if x := patternOf(e, Black); x == F4 || x == Overline || x == DoubleFour {
				return false
			}
		}
	}
	return true
}

// lineThrough finds f on one of p's lines within reach cells: the
// direction and f's offset m from p in steps of it (f = p + m·step), or
// m = 0 when f is on none.
func (b *Board) lineThrough(p, f Pos, reach int) (d, m int) {
	cp, cf := b.coord[p], b.coord[f]
	dx, dy := int(cf[0])-int(cp[0]), int(cf[1])-int(cp[1])
	var k int // the offset along the line, in cells
	switch {
	case dy == 0:
		d, k = 0, dx
	case dx == 0:
		d, k = 1, dy
	case dx == dy:
		d, k = 2, dx
	case dx == -dy:
		d, k = 3, dx
	default:
		return 0, 0
	}
	if k > reach || -k > reach {
		return 0, 0
	}
	step := b.dirs[d]
	for _, m := range [2]int{k, -k} {
		if int(p)+m*step == int(f) {
			return d, m
		}
	}
	return 0, 0
}

// comboOf is side c's combo at a cell whose four entries are e.
func (b *Board) comboOf(e *[numDirs]uint8, c Color) Combo {
	return b.rows[c-1][b.codes.code[orderedIndex(e, c)]].combo
}
