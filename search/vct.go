package search

import (
	"slices"

	"wuzi/eval"
)

// vctRoot looks for a win by continuous threats (fours and open threes)
// for the side to move, within budget plies and until the deadline. It
// returns the first move of the win.
//
// The search is an AND-OR tree: the attacker plays a move that makes a
// four or an open three; after a four the defender must block the five;
// after a three the defender's candidates are every move that leaves the
// attacker no open four (checked by playing it) and every four of the
// defender's own. A win needs every defence refuted. Defences are never
// pruned by a guess, so a win it reports is a real one (under the
// assumption, shared with the VCF, that a defender four is answered by
// a block that is itself a four).
func (s *Searcher) vctRoot(budget int, maxNodes uint64) (eval.Pos, bool) {
	defer s.nodeBudget(maxNodes)()
	for depth := 4; depth <= budget; depth += 2 {
		if p, ok := s.vctNode(0, depth); ok {
			return p, true
		}
		if s.stop.Load() {
			break
		}
	}
	return eval.NoPos, false
}

// vctNode is an attacker node: it returns a winning move if one is found.
func (s *Searcher) vctNode(ply, budget int) (eval.Pos, bool) {
	s.poll()
	if s.stop.Load() {
		return eval.NoPos, false
	}
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
		return p, true
	}
	if b.ComboCount(them, eval.ComboFive) > 0 {
		// Only a block that is itself a four keeps the attack going.
		p := s.findCombo(them, eval.ComboFive)
		if b.ComboCount(them, eval.ComboFive) > 1 || b.Combo(p, us) < eval.ComboFour || s.forbidden(p) {
			return eval.NoPos, false
		}
		if s.vctAfterFour(p, ply, budget) {
			return p, true
		}
		return eval.NoPos, false
	}
	if s.vcf(ply, 16) {
		return s.vcfWin[0], true
	}
	if budget <= 0 {
		return eval.NoPos, false
	}
	key := b.Hash() ^ vctSalt
	if e, ok := s.TT.probe(key); ok && int(e.depth) >= budget {
		return eval.NoPos, false
	}
	// Threat moves: fours and open threes, best first. With an open three
	// of the opponent's on the board only fours would do, and the VCF
	// above has tried those.
	if b.ComboCount(them, eval.ComboFlexFour) > 0 {
		return eval.NoPos, false
	}
	moves := s.vctBuf[ply][:0]
	for p := range s.emptyInArea {
		cb := b.Combo(p, us)
		if cb < eval.ComboThree || cb == eval.ComboForbidden {
			continue
		}
		if cb == eval.ComboDoubleThree && s.forbidden(p) {
			continue
		}
		moves = append(moves, scoredMove{p, b.MoveValue(p, us) + b.MoveValue(p, them)/2})
	}
	sortMoves(moves)
	s.vctBuf[ply] = moves
	for _, m := range moves {
		p := m.pos
		var win bool
		if b.Combo(p, us) >= eval.ComboFour && b.Combo(p, us) != eval.ComboDoubleThree {
			win = s.vctAfterFour(p, ply, budget)
		} else {
			win = s.vctAfterThree(p, ply, budget)
		}
		if win {
			return p, true
		}
		if s.stop.Load() {
			return eval.NoPos, false
		}
	}
	if !s.stop.Load() {
		s.TT.store(key, eval.NoPos, 0, budget, boundUpper)
	}
	return eval.NoPos, false
}

// vctSalt separates VCT results in the table.
const vctSalt = 0x2545F4914F6CDD1D

// vctAfterFour plays the attacker's four p and the forced block, and
// continues the attack.
func (s *Searcher) vctAfterFour(p eval.Pos, ply, budget int) bool {
	b := s.b
	us := b.SideToMove()
	s.play(p)
	defer s.undo()
	if b.ComboCount(us, eval.ComboFive) >= 2 {
		return true
	}
	q := s.fivePointNear(p, us)
	if q == eval.NoPos {
		q = s.findCombo(us, eval.ComboFive)
	}
	if q == eval.NoPos {
		return false
	}
	if us.Opp() == eval.Black && b.IsForbidden(q) {
		return true
	}
	s.play(q)
	defer s.undo()
	_, ok := s.vctNode(ply+2, budget-2)
	return ok
}

// vctAfterThree plays the attacker's three p and checks that every defence
// loses.
func (s *Searcher) vctAfterThree(p eval.Pos, ply, budget int) bool {
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	s.play(p)
	defer s.undo()
	if b.ComboCount(us, eval.ComboFlexFour) == 0 && b.ComboCount(us, eval.ComboFive) == 0 {
		return false // not a real threat after all (e.g. a renju fake three)
	}
	// The defences are collected first: playing them moves the area.
	defences := s.vctDefBuf[ply][:0]
	for d := range s.emptyInArea {
		if them == eval.Black && b.IsForbidden(d) {
			continue
		}
		if b.Combo(d, them) == eval.ComboFive {
			return false // the defender wins first
		}
		defences = append(defences, d)
	}
	s.vctDefBuf[ply] = defences
	for _, d := range defences {
		counter := b.Combo(d, them) >= eval.ComboFour && b.Combo(d, them) != eval.ComboDoubleThree
		s.play(d)
		stops := b.ComboCount(us, eval.ComboFlexFour) == 0 && b.ComboCount(us, eval.ComboFive) == 0
		if !counter && !stops {
			s.undo()
			continue // the open four follows: no defence
		}
		_, win := s.vctNode(ply+2, budget-2)
		s.undo()
		if !win {
			return false
		}
	}
	return true
}

// sortMoves orders moves by score, best first (insertion sort: short lists).
func sortMoves(ms []scoredMove) {
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for j > 0 && ms[j-1].score < m.score {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = m
	}
}

// refuteOpponentVCT returns the moves of legal after which the opponent
// has no win by continuous threats, when it has one now: only the first
// vctDefenceMoves candidates are tried, and all of legal is returned when
// none of them refutes it or the node budget runs out.
func (s *Searcher) refuteOpponentVCT(legal []eval.Pos) []eval.Pos {
	b := s.b
	them := b.SideToMove().Opp()
	if b.ComboCount(them, eval.ComboThree)+b.ComboCount(them, eval.ComboDoubleThree)+b.ComboCount(them, eval.ComboFourThree) == 0 {
		return legal // no open three to start a VCT with
	}
	defer s.nodeBudget(vctDefenceNodes)()
	us := b.SideToMove()
	b.SetSideToMove(them)
	_, threat := s.vctNode(0, vctDefencePlies)
	b.SetSideToMove(us)
	if !threat || s.stop.Load() {
		return legal
	}
	var keep []eval.Pos
	for _, p := range legal[:min(len(legal), vctDefenceMoves)] {
		s.play(p)
		_, still := s.vctNode(1, vctDefencePlies)
		s.undo()
		if s.stop.Load() {
			return legal
		}
		if !still {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return legal
	}
	// Refutations first, the rest after: the search decides.
	out := append([]eval.Pos(nil), keep...)
	for _, p := range legal {
		if !slices.Contains(keep, p) {
			out = append(out, p)
		}
	}
	return out
}
