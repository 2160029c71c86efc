package search

import "wuzi/eval"

// scoredMove is a candidate move with its ordering score.
type scoredMove struct {
	pos   eval.Pos
	score int32
}

// orderTT is the table move's ordering bonus, above any other score.
const orderTT = 1 << 28

// genMoves lists the side to move's candidate moves, unsorted (see
// pickMove and sortMoves; the first listed comes first among equals): empty
// cells within two of a stone through which a five is still possible,
// never a renju foul. When threatened (the opponent can make an open four
// next move) only our fours and the cells on the opponent's threat lines
// are listed; the caller still checks that a move really defends.
func (s *Searcher) genMoves(ply int, ttMove eval.Pos, threatened bool) []scoredMove {
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	renjuBlack := b.Rule() == eval.Renju && us == eval.Black
	out := s.moveBuf[ply][:0]
	flex := s.flexBuf[ply][:0]
	s.candBuf = b.Candidates(s.candBuf[:0])
	filter := threatened || renjuBlack // else every candidate is listed
	kb := int32(s.Options.Params.KillerBonus)
	for _, p := range s.candBuf {
		cu := b.Combo(p, us)
		if filter {
			ct := b.Combo(p, them)
			if threatened && ct == eval.ComboFlexFour {
				flex = append(flex, p)
			}
			if !s.listable(p, cu, ct, them, threatened, renjuBlack) {
				continue
			}
		}
		sc := b.Policy(p, us) + s.histOrder(us, p, cu)
		switch p {
		case ttMove:
			sc += orderTT
		case s.killers[ply][0]:
			sc += kb
		case s.killers[ply][1]:
			sc += kb / 2
		}
		out = append(out, scoredMove{p, sc})
	}
	if len(out) == 0 && ply == 0 {
		out = s.fallbackMoves(out, renjuBlack)
	}
	s.moveBuf[ply] = out
	s.flexBuf[ply] = flex
	return out
}

// listable is genMoves' test of a candidate cell p (empty, near a stone,
// a five still possible through it) whose combos are cu for the side to
// move and ct for the opponent, them: under an open-three threat only our
// fours, the opponent's fours and the cells on its threat lines are
// listed, and a renju foul never is.
func (s *Searcher) listable(p eval.Pos, cu, ct eval.Combo, them eval.Color, threatened, renjuBlack bool) bool {
	if threatened && cu < eval.ComboFour && ct < eval.ComboFour && !s.threatLine(p, them) {
		return false
	}
	return !(renjuBlack && (cu == eval.ComboForbidden || cu == eval.ComboDoubleThree) && s.b.IsForbidden(p))
}

// pickMove brings the best of ms[i:] to index i, the first listed among
// equal scores, and keeps the others in their order: taking the moves one
// by one so gives the order of sortMoves, but a node that is cut after a
// move or two does not pay to sort the rest.
func pickMove(ms []scoredMove, i int) {
	j := i
	for k := i + 1; k < len(ms); k++ {
		if ms[k].score > ms[j].score {
			j = k
		}
	}
	if j != i {
		m := ms[j]
		copy(ms[i+1:j+1], ms[i:j])
		ms[i] = m
	}
}

// threatLine reports whether p lies on a line where side c has a three or
// better through p (a cell that can take part in blocking it).
func (s *Searcher) threatLine(p eval.Pos, c eval.Color) bool {
	for d := 0; d < 4; d++ {
		if pt := s.b.Pattern(p, d, c); pt >= eval.H3 && pt <= eval.F5 {
			return true
		}
	}
	return false
}

// fallbackMoves is for the root when no cell is near a stone: the centre
// on an empty board, else any legal empty cell.
func (s *Searcher) fallbackMoves(out []scoredMove, renjuBlack bool) []scoredMove {
	b := s.b
	if b.Stones() == 0 {
		c := b.Pos(b.Width()/2, b.Height()/2)
		if b.IsEmpty(c) {
			return append(out, scoredMove{c, 0})
		}
	}
	for _, p := range b.Cells() {
		if b.At(p) == eval.Empty && !(renjuBlack && b.IsForbidden(p)) {
			sc := int32(0)
			if b.Alive(p) {
				sc = 1
			}
			out = append(out, scoredMove{p, sc})
		}
	}
	return out
}

// findCombo returns an empty cell where side c has combo cb, or NoPos.
func (s *Searcher) findCombo(c eval.Color, cb eval.Combo) eval.Pos {
	return s.b.FirstCombo(c, cb)
}

// fivePointNear returns an empty cell within four steps of p on its lines
// where side c makes five, or NoPos.
func (s *Searcher) fivePointNear(p eval.Pos, c eval.Color) eval.Pos {
	b := s.b
	for d := 0; d < 4; d++ {
		step := b.Dir(d)
		for k := -4; k <= 4; k++ {
			q := eval.Pos(int(p) + k*step)
			if k != 0 && b.Inner(q) && b.At(q) == eval.Empty && b.Combo(q, c) == eval.ComboFive {
				return q
			}
		}
	}
	return eval.NoPos
}

// area is the rectangle of cells within two of a stone: where every
// candidate move lies.
type area struct{ x0, y0, x1, y1 int }

// resetArea computes the area of the position at the root.
func (s *Searcher) resetArea() {
	b := s.b
	a := area{x0: b.Width(), y0: b.Height(), x1: -1, y1: -1}
	for _, p := range b.Cells() {
		if c := b.At(p); c == eval.Black || c == eval.White {
			x, y := b.XY(p)
			a = a.with(x, y, b)
		}
	}
	if a.x1 < 0 {
		a = area{0, 0, -1, -1}
	}
	s.areaTop = 0
	s.area[0] = a
}

// with widens the area to cover the cells within two of (x, y).
func (a area) with(x, y int, b *eval.Board) area {
	a.x0 = max(0, min(a.x0, x-2))
	a.y0 = max(0, min(a.y0, y-2))
	a.x1 = min(b.Width()-1, max(a.x1, x+2))
	a.y1 = min(b.Height()-1, max(a.y1, y+2))
	return a
}

// emptyInArea yields the empty cells of the current area in row order.
func (s *Searcher) emptyInArea(yield func(eval.Pos) bool) {
	b := s.b
	a := s.area[s.areaTop]
	for y := a.y0; y <= a.y1; y++ {
		for p := b.Pos(a.x0, y); p <= b.Pos(a.x1, y); p++ {
			if b.At(p) == eval.Empty && !yield(p) {
				return
			}
		}
	}
}

// play makes a move during the search, keeping the area up to date.
func (s *Searcher) play(p eval.Pos) {
	s.b.Play(p)
	x, y := s.b.XY(p)
	s.area[s.areaTop+1] = s.area[s.areaTop].with(x, y, s.b)
	s.areaTop++
}

// undo takes back the last play.
func (s *Searcher) undo() {
	s.b.Undo()
	s.areaTop--
}
