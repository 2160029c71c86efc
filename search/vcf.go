package search

import "wuzi/eval"

// vcfRoot looks for a win by continuous fours for the side to move within
// maxPlies plies and returns the attacker's and defender's moves in order.
func (s *Searcher) vcfRoot(ply int) ([]eval.Pos, bool) {
	s.vcfPath = s.vcfPath[:0]
	if !s.vcf(ply, 40) {
		return nil, false
	}
	return append([]eval.Pos(nil), s.vcfWin...), true
}

// vcf reports whether the side to move wins by continuous fours within
// budget plies: it plays only moves that make a four (or five), and the
// opponent only the forced block. On success s.vcfWin holds the line and
// s.vcfLen its length in plies to the five. Invariant: the board is
// returned as it was.
func (s *Searcher) vcf(ply, budget int) bool {
	s.poll()
	if s.stop.Load() {
		return false // also during a first iteration that must finish
	}
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
		s.vcfDone(p)
		return true
	}
	if n := b.ComboCount(them, eval.ComboFive); n > 0 {
		// We must block; the block has to be a four to keep the
		// initiative.
		p := s.findCombo(them, eval.ComboFive)
		if n > 1 || b.Combo(p, us) < eval.ComboFour || s.forbidden(p) || budget <= 0 {
			return false
		}
		return s.vcfTry(p, ply, budget)
	}
	if budget <= 0 {
		return false
	}
	key := b.Hash() ^ vcfSalt
	// A local search (the horizon's) plays only fours near our last
	// stone, so its failures prove less: they are kept apart.
	near := eval.NoPos
	if s.vcfLocal && b.Ply() >= 2 {
		near, _ = b.MoveAt(b.Ply() - 2)
		key ^= vcfLocalSalt
	}
	if e, ok := s.TT.probe(key); ok && int(e.depth) >= budget {
		return false // proven: no VCF within this budget
	}
	fours := s.vcfBuf[ply][:0]
	// consider lists p if it makes us a four; it reports an open four,
	// which wins at once.
	consider := func(p eval.Pos) bool {
		// ComboDoubleThree carries no four, except for renju Black where
		// it may hide a four-three-three: skipped too.
		cb := b.Combo(p, us)
		if cb < eval.ComboFour || cb == eval.ComboDoubleThree || s.forbidden(p) {
			return false
		}
		if cb == eval.ComboFlexFour {
			return true
		}
		fours = append(fours, p)
		return false
	}
	openFour := eval.NoPos
	if near != eval.NoPos {
		// Every four point touches a stone, so it lies in the area: the
		// empty cells related to near, taken row by row, are the same
		// candidates in the same order, without a walk over the area.
		nx, ny := b.XY(near)
		for _, o := range relatedOffsets {
			x, y := nx+o[0], ny+o[1]
			if !b.Inside(x, y) {
				continue
			}
			if p := b.Pos(x, y); b.At(p) == eval.Empty && consider(p) {
				openFour = p
				break
			}
		}
	} else {
		for p := range s.emptyInArea {
			if consider(p) {
				openFour = p
				break
			}
		}
	}
	if openFour != eval.NoPos {
		// An open four: the opponent blocks one end, we take the other.
		s.vcfDone(openFour)
		s.vcfLen += 2
		return true
	}
	// Four-threes first: they end the search soonest.
	for i := 1; i < len(fours); i++ {
		m := fours[i]
		j := i
		for j > 0 && b.MoveValue(fours[j-1], us) < b.MoveValue(m, us) {
			fours[j] = fours[j-1]
			j--
		}
		fours[j] = m
	}
	s.vcfBuf[ply] = fours
	for _, p := range fours {
		if s.vcfTry(p, ply, budget) {
			return true
		}
		if s.stop.Load() {
			return false
		}
	}
	if !s.stop.Load() {
		s.TT.store(key, eval.NoPos, 0, budget, boundUpper, false)
	}
	return false
}

// vcfSalt separates VCF results from alpha-beta results in the table,
// and vcfLocalSalt the local search's from the full one's.
const (
	vcfSalt      = 0x5DEECE66D2B79F4B
	vcfLocalSalt = 0x7A3F1C9E5B2D8E61
)

// relatedOffset reports whether a cell (dx, dy) away from p is related
// to it: within two cells in both coordinates, or on one of p's lines
// within four cells. A continuous four that follows another almost
// always lies there.
func relatedOffset(dx, dy int) bool {
	dx, dy = abs(dx), abs(dy)
	if dx <= 2 && dy <= 2 {
		return true
	}
	return (dx == 0 || dy == 0 || dx == dy) && max(dx, dy) <= 4
}

// relatedOffsets lists the (dx, dy) of the cells related to a cell (see
// relatedOffset), itself excluded, row by row: filled once at start-up and only
// read after.
var relatedOffsets = func() (out [][2]int) {
	for dy := -4; dy <= 4; dy++ {
		for dx := -4; dx <= 4; dx++ {
			if (dx != 0 || dy != 0) && relatedOffset(dx, dy) {
				out = append(out, [2]int{dx, dy})
			}
		}
	}
	return out
}()

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// vcfTry plays the four p, the opponent's forced block, and continues.
func (s *Searcher) vcfTry(p eval.Pos, ply, budget int) bool {
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	s.play(p)
	s.nodes++
	s.vcfPath = append(s.vcfPath, p)
	win := false
	switch n := b.ComboCount(us, eval.ComboFive); {
	case n >= 2:
		// Two five points: the opponent, who has no five, blocks one.
		q := s.fivePointNear(p, us)
		s.vcfPath = append(s.vcfPath, q)
		s.vcfDoneAny(us)
		s.vcfPath = s.vcfPath[:len(s.vcfPath)-1]
		win = true
	case n == 1:
		q := s.fivePointNear(p, us)
		if q == eval.NoPos {
			q = s.findCombo(us, eval.ComboFive)
		}
		if them == eval.Black && b.IsForbidden(q) {
			// Black cannot block at a foul point.
			s.vcfPath = append(s.vcfPath, q)
			s.vcfDoneAny(us)
			s.vcfPath = s.vcfPath[:len(s.vcfPath)-1]
			win = true
			break
		}
		s.play(q)
		s.nodes++
		s.vcfPath = append(s.vcfPath, q)
		win = s.vcf(ply+2, budget-2)
		s.vcfPath = s.vcfPath[:len(s.vcfPath)-1]
		s.undo()
	}
	s.vcfPath = s.vcfPath[:len(s.vcfPath)-1]
	s.undo()
	return win
}

// vcfDone records a win: the path so far plus the winning move p.
func (s *Searcher) vcfDone(p eval.Pos) {
	s.vcfWin = append(append(s.vcfWin[:0], s.vcfPath...), p)
	s.vcfLen = len(s.vcfWin)
}

// vcfDoneAny records a win whose last stone is any five point of c (the
// one the opponent did not block).
func (s *Searcher) vcfDoneAny(c eval.Color) {
	b := s.b
	var q eval.Pos = eval.NoPos
	blocked := s.vcfPath[len(s.vcfPath)-1]
	for _, p := range b.Cells() {
		if p != blocked && b.At(p) == eval.Empty && b.Combo(p, c) == eval.ComboFive {
			q = p
			break
		}
	}
	s.vcfWin = append(append(s.vcfWin[:0], s.vcfPath...), q)
	s.vcfLen = len(s.vcfWin)
}

// refuteOpponentVCF returns the moves of legal after which the opponent
// has no win by continuous fours, in the same order; all of legal when the
// opponent has none now, or when no move refutes it. Bounded by a node
// budget: when it runs out the list is returned unfiltered.
func (s *Searcher) refuteOpponentVCF(legal []eval.Pos) []eval.Pos {
	b := s.b
	defer s.nodeBudget(vcfDefenceNodes)()
	us := b.SideToMove()
	b.SetSideToMove(us.Opp())
	threat := s.vcf(0, 30)
	b.SetSideToMove(us)
	if !threat || s.stop.Load() {
		return legal
	}
	var keep []eval.Pos
	for _, p := range legal {
		s.play(p)
		if !s.vcf(1, 30) {
			keep = append(keep, p)
		}
		s.undo()
		if s.stop.Load() {
			return legal
		}
	}
	if len(keep) == 0 {
		return legal
	}
	return keep
}
