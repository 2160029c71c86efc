package search

import (
	"slices"
	"time"

	"wuzi/eval"
)

// The threat-space search for wins by continuous threats (VCT).
//
// It is an AND-OR search over forcing moves with a ply budget, deepened
// iteratively. At an attacker node (attack) the attacker plays a four or a
// three; at a defender node (defend) the defender must answer: the single
// block of a four, or, against a three, one of the real defences (every
// cell on the lines of the attacker's open-four point after which the
// attacker has no open four left, checked by playing it) or a four of its
// own. A defender four is answered by the attacker's forced block, after
// which the defender must still answer the threat that stands. A win needs
// every defence refuted; defences are never pruned by a guess, so a win it
// reports is a real one, reached within the budget in plies.
//
// To keep the tree small the attacker's moves after the first must lie on
// a line within four cells of one of its last two moves (the threats an
// attack builds on), and attacker nodes are kept in the transposition
// table under their own salt: proven wins for any budget, failures for the
// budget they were searched with.

// vctSalt separates VCT results in the table.
const vctSalt = 0x2545F4914F6CDD1D

// vctWinDepth marks a table entry as a proven VCT win (any budget).
const vctWinDepth = 127

// vctRoot looks for a win by continuous threats for the side to move,
// within budget plies and maxNodes nodes (and the search's own limits). It
// returns the first move of the win.
func (s *Searcher) vctRoot(budget int, maxNodes uint64) (eval.Pos, bool) {
	defer s.nodeBudget(maxNodes)()
	return s.vctDeepen(0, budget)
}

// vctRootTimed is vctRoot under a clock: with a soft deadline it may also
// use a share of the time to it (see threatBudget).
func (s *Searcher) vctRootTimed(budget int, maxNodes uint64, soft time.Time) (eval.Pos, bool) {
	defer s.threatBudget(maxNodes, soft)()
	return s.vctDeepen(0, budget)
}

// vctDeepen runs attack with budgets 3, 5, ... up to budget.
func (s *Searcher) vctDeepen(ply, budget int) (eval.Pos, bool) {
	for d := 3; d <= budget; d += 2 {
		if p, ok := s.attack(ply, d, eval.NoPos, eval.NoPos); ok {
			return p, true
		}
		if s.stop.Load() {
			break
		}
	}
	return eval.NoPos, false
}

// nearLine reports whether q lies on one of the four lines through p
// within four cells of it.
func (s *Searcher) nearLine(p, q eval.Pos) bool {
	px, py := s.b.XY(p)
	qx, qy := s.b.XY(q)
	dx, dy := qx-px, qy-py
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	return max(dx, dy) <= 4 && (dx == 0 || dy == 0 || dx == dy)
}

// attack is an attacker node: the side to move tries to win by threats
// within budget plies. last1 and last2 are its last two moves in this line
// (NoPos at the start). It returns the winning move.
func (s *Searcher) attack(ply, budget int, last1, last2 eval.Pos) (eval.Pos, bool) {
	s.poll()
	if s.stop.Load() || ply >= maxGamePly-2 {
		return eval.NoPos, false
	}
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
		return p, true
	}
	if n := b.ComboCount(them, eval.ComboFive); n > 0 {
		// The defender's four must be blocked; then the defender moves
		// again against whatever still threatens it.
		p := s.findCombo(them, eval.ComboFive)
		if n > 1 || s.forbidden(p) || budget < 2 {
			return eval.NoPos, false
		}
		s.play(p)
		win := s.defend(ply+1, budget-1, last1, last2)
		s.undo()
		return p, win
	}
	if budget < 1 {
		return eval.NoPos, false
	}
	key := b.Hash() ^ vctSalt
	if e, ok := s.TT.probe(key); ok {
		if int(e.depth) == vctWinDepth && e.move != eval.NoPos && b.IsEmpty(e.move) {
			return e.move, true
		}
		if int(e.depth) >= budget && e.depth != vctWinDepth {
			return eval.NoPos, false
		}
	}
	// Continuous fours first: cheap, and most wins end that way.
	s.vcfPath = s.vcfPath[:0]
	if s.vcf(ply, budget) {
		p := s.vcfWin[0]
		s.TT.store(key, p, 0, vctWinDepth, boundLower)
		return p, true
	}
	if s.stop.Load() || budget < 3 {
		return eval.NoPos, false
	}
	// An open three of the defender's would make an open four before our
	// three could: then only fours help, and the VCF has tried them.
	if b.ComboCount(them, eval.ComboFlexFour) > 0 {
		s.TT.store(key, eval.NoPos, 0, budget, boundUpper)
		return eval.NoPos, false
	}
	moves := s.vctBuf[ply][:0]
	for p := range s.emptyInArea {
		cb := b.Combo(p, us)
		if cb < eval.ComboThree || cb == eval.ComboForbidden {
			continue
		}
		if last1 != eval.NoPos && !s.nearLine(last1, p) && (last2 == eval.NoPos || !s.nearLine(last2, p)) {
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
		s.play(p)
		win := s.defend(ply+1, budget-1, p, last1)
		s.undo()
		if win {
			s.TT.store(key, p, 0, vctWinDepth, boundLower)
			return p, true
		}
		if s.stop.Load() {
			return eval.NoPos, false
		}
	}
	s.TT.store(key, eval.NoPos, 0, budget, boundUpper)
	return eval.NoPos, false
}

// defend is a defender node: it reports whether the attacker (the side
// not to move) wins against every answer within budget plies.
func (s *Searcher) defend(ply, budget int, last1, last2 eval.Pos) bool {
	s.poll()
	if s.stop.Load() || ply >= maxGamePly-2 {
		return false
	}
	b := s.b
	us := b.SideToMove() // the defender
	att := us.Opp()
	if b.ComboCount(us, eval.ComboFive) > 0 {
		return false // the defender makes five first
	}
	if n := b.ComboCount(att, eval.ComboFive); n > 0 {
		if n > 1 {
			return true
		}
		q := s.findCombo(att, eval.ComboFive)
		if s.forbidden(q) {
			return true // renju Black may not block at a foul point
		}
		if budget < 2 {
			return false
		}
		s.play(q)
		_, win := s.attack(ply+1, budget-1, last1, last2)
		s.undo()
		return win
	}
	if b.ComboCount(us, eval.ComboFlexFour) > 0 {
		return false // the defender's open four comes first
	}
	f := s.findCombo(att, eval.ComboFlexFour)
	if f == eval.NoPos || budget < 2 {
		return false // no threat: the defender has a free move
	}
	defences := s.vctDefBuf[ply][:0]
	if b.Rule() == eval.CaroFree || b.Rule() == eval.CaroExact {
		// Caro: a stone beyond a five's end can spoil it, so every cell
		// near the stones is tried.
		for q := range s.emptyInArea {
			defences = append(defences, q)
		}
	} else {
		// Any answer that takes away the open-four point f must change a
		// line pattern at f: it lies on a line through f, within five.
		for d := 0; d < 4; d++ {
			step := b.Dir(d)
			for k := -5; k <= 5; k++ {
				q := eval.Pos(int(f) + k*step)
				if b.Inner(q) && b.At(q) == eval.Empty {
					defences = append(defences, q)
				}
			}
		}
	}
	// The defender's own fours: counter-attacks that gain a tempo.
	for q := range s.emptyInArea {
		if cb := b.Combo(q, us); cb >= eval.ComboFour && cb != eval.ComboDoubleThree && !slices.Contains(defences, q) {
			defences = append(defences, q)
		}
	}
	s.vctDefBuf[ply] = defences
	for _, q := range defences {
		if s.forbidden(q) {
			continue
		}
		cb := b.Combo(q, us)
		counter := cb >= eval.ComboFour && cb != eval.ComboDoubleThree
		s.play(q)
		if !counter && (b.ComboCount(att, eval.ComboFlexFour) > 0 || b.ComboCount(att, eval.ComboFive) > 0) {
			s.undo()
			continue // the open four follows: not a defence
		}
		_, win := s.attack(ply+1, budget-1, last1, last2)
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

// refuteOpponentVCT reorders legal when the opponent has a win by
// continuous threats now: the moves after which it has none come first,
// then the moves not tried, then the moves after which it still wins. Only
// the first vctDefenceMoves moves are tried, within a threat budget; when
// none refutes it the order is unchanged (the search decides).
func (s *Searcher) refuteOpponentVCT(legal []eval.Pos, soft time.Time) []eval.Pos {
	b := s.b
	them := b.SideToMove().Opp()
	if b.ComboCount(them, eval.ComboThree)+b.ComboCount(them, eval.ComboDoubleThree)+b.ComboCount(them, eval.ComboFourThree) == 0 {
		return legal // no open three to start a VCT with
	}
	defer s.threatBudget(vctDefenceNodes, soft)()
	us := b.SideToMove()
	b.SetSideToMove(them)
	_, threat := s.vctDeepen(0, vctDefencePlies)
	b.SetSideToMove(us)
	if !threat || s.stop.Load() {
		return legal
	}
	var keep, lose []eval.Pos
	for _, p := range legal[:min(len(legal), vctDefenceMoves)] {
		s.play(p)
		_, still := s.vctDeepen(1, vctDefencePlies)
		s.undo()
		if s.stop.Load() {
			break
		}
		if still {
			lose = append(lose, p)
		} else {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return legal
	}
	out := append(make([]eval.Pos, 0, len(legal)), keep...)
	for _, p := range legal {
		if !slices.Contains(keep, p) && !slices.Contains(lose, p) {
			out = append(out, p)
		}
	}
	return append(out, lose...)
}
