package eval

// winsOnLine reports whether a stone of c at p (already on the board or
// imagined there) stands in a winning row along direction d, by walking
// the line. This is the referee's exact check, independent of the pattern
// tables' five-cell horizon.
func (b *Board) winsOnLine(p Pos, d int, c Color) bool {
	step := b.dirs[d]
	lo, hi := int(p), int(p)
	for b.cells[lo-step] == c {
		lo -= step
	}
	for b.cells[hi+step] == c {
		hi += step
	}
	n := (hi-lo)/step + 1
	if n < 5 || (n > 5 && b.rule.exactFive(c)) {
		return false
	}
	// Caro (as GomocupJudge referees it): a row of exactly five blocked by
	// opponent stones at both ends does not win; an overline under rule 8
	// wins however it is blocked.
	if b.rule.caro() && n == 5 && b.cells[lo-step] == c.Opp() && b.cells[hi+step] == c.Opp() {
		return false
	}
	return true
}

// WinsAt reports whether side c playing the empty cell p makes a winning
// row under the board's rule.
func (b *Board) WinsAt(p Pos, c Color) bool {
	if b.cells[p] != Empty {
		return false
	}
	b.cells[p] = c
	win := false
	for d := 0; d < numDirs && !win; d++ {
		win = b.winsOnLine(p, d, c)
	}
	b.cells[p] = Empty
	return win
}

// LastMoveWins reports whether the last stone played made a winning row.
func (b *Board) LastMoveWins() bool {
	if b.ply == 0 {
		return false
	}
	r := b.history[b.ply-1]
	if r.color == Wall {
		return false
	}
	for d := 0; d < numDirs; d++ {
		if b.winsOnLine(r.pos, d, r.color) {
			return true
		}
	}
	return false
}

// IsForbidden reports whether Black playing the empty cell p is a foul
// under renju: an overline, two fours, or two real open threes, unless
// the move makes five. It is false under every other rule.
//
// A three is real when one more stone on its line makes a straight open
// four at a cell that is itself not forbidden once the three stands; that
// question is asked recursively, each level with one more stone placed.
func (b *Board) IsForbidden(p Pos) bool {
	if b.rule != Renju || !b.IsEmpty(p) || !b.inside[p] {
		return false
	}
	return b.forbidden(p)
}

func (b *Board) forbidden(p Pos) bool {
	// A five wins whatever else the move makes, so look for one in every
	// direction before any foul.
	for d := 0; d < numDirs; d++ {
		if patternOf(b.pats[p][d], Black) == F5 {
			return false
		}
	}
	var threes [numDirs]bool
	fours, nThrees := 0, 0
	for d := 0; d < numDirs; d++ {
		switch patternOf(b.pats[p][d], Black) {
		case Overline:
			return true
		case DoubleFour:
			fours += 2
		case F4, B4:
			fours++
		case F3:
			threes[d] = true
			nThrees++
		}
	}
	if fours >= 2 {
		return true
	}
	if nThrees < 2 {
		return false
	}
	b.put(p, Black)
	real := 0
	for d := 0; d < numDirs && real < 2; d++ {
		if threes[d] && b.realThree(p, d) {
			real++
		}
	}
	b.ply--
	b.take(p, Black)
	return real >= 2
}

// realThree reports whether Black's stone at p has a real open three along
// d: some empty cell q of that line makes a straight open four that holds
// p, and q is not itself forbidden.
//
// For renju Black, F4 at q means q closes four stones in a row with an
// empty five point at each end; that row holds p exactly when every cell
// between p and q is black. (Another group's three farther along the same
// line would give an F4 cell that is no four of p's.)
func (b *Board) realThree(p Pos, d int) bool {
	step := b.dirs[d]
	for _, dir := range [2]int{-step, step} {
		q := int(p) + dir
		for k := 1; k <= 3 && b.cells[q] == Black; k++ {
			q += dir
		}
		// q is the first non-black cell beyond p's stones on this side;
		// the straight four must be made there.
		if b.cells[q] == Empty && patternOf(b.pats[q][d], Black) == F4 && !b.forbidden(Pos(q)) {
			return true
		}
	}
	return false
}

// ForbiddenCells lists every empty cell where Black may not play now (none
// outside renju).
func (b *Board) ForbiddenCells() []Pos {
	if b.rule != Renju {
		return nil
	}
	var out []Pos
	for _, p := range b.insideLst {
		if b.cells[p] == Empty && b.forbidden(p) {
			out = append(out, p)
		}
	}
	return out
}
