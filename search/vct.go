package search

import (
	"slices"
	"time"

	"wuzi/eval"
)

// The root uses of the threat-space search (see pns.go for the search).

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
	defer s.threatBudget(maxNodes, soft, ownVCTTimeShare)()
	return s.vctDeepen(0, budget)
}

// vctDeepen looks for a win by continuous threats for the side to move
// within budget plies (ply is the depth of the position in the search).
func (s *Searcher) vctDeepen(ply, budget int) (eval.Pos, bool) {
	return s.vctPN(ply, budget)
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
// then the moves not tried; the moves after which it still wins are lost
// and dropped, unless no other move is left (then the search picks the
// longest loss). Only the first vctDefenceMoves moves are tried, within a
// threat budget.
func (s *Searcher) refuteOpponentVCT(legal []eval.Pos, soft time.Time) []eval.Pos {
	b := s.b
	them := b.SideToMove().Opp()
	if b.ComboCount(them, eval.ComboThree)+b.ComboCount(them, eval.ComboDoubleThree)+b.ComboCount(them, eval.ComboFourThree) == 0 {
		return legal // no open three to start a VCT with
	}
	defer s.threatBudget(vctDefenceNodes, soft, vctTimeShare)()
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
	// A move after which the opponent still has its VCT is lost: it is
	// dropped, unless every move is.
	out := append(make([]eval.Pos, 0, len(legal)), keep...)
	for _, p := range legal {
		if !slices.Contains(keep, p) && !slices.Contains(lose, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return legal
	}
	return out
}
