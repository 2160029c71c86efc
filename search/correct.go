package search

import "wuzi/eval"

// corrBits sizes the correction table: 2^corrBits entries per side.
const corrBits = 16

// corrUnit is the fixed point of a correction entry: an entry holds
// evaluation units times corrUnit.
const corrUnit = 16

// corrClamp bounds the gap between a node's search result and its
// evaluation that one update may teach, in evaluation units.
const corrClamp = 400

// corrTable is a correction history, as Stockfish keeps one for its pawn
// structures: for the positions that share a local shape (the stones in
// the 5x5 square around the last move, wherever that square stands), how
// far the searches below them found the static evaluation off. Each entry
// is a moving average of (search result - evaluation) over the nodes of
// that shape, weighted by depth, in units of 1/corrUnit, per side to move.
// Against Rapfi at fixed nodes, 1,800 games over six seeds in freestyle,
// standard and renju, it scored about +5 ± 18 Elo (docs/evidence.md): not
// a measurable gain, so it is off unless Params.CorrWeight turns it on.
// On at 240,000 nodes against Rapfi at 15,000 (75th session) it scored
// 69.6 % over 400 games, where main's samples scored 68.5-70.8 %: level.
type corrTable [2][1 << corrBits]int32

// corrKey is the index of the board's position in the correction table:
// the 5x5 square around the last stone, cell by cell in base 4 (empty,
// black, white, wall or off the board), scrambled.
func (s *Searcher) corrKey() uint32 {
	b := s.b
	n := b.Ply()
	if n == 0 {
		return 0
	}
	last, _ := b.MoveAt(n - 1)
	// The padding around the board is wall two cells deep and more, so
	// the square never leaves the arrays.
	stride := eval.Pos(b.Dir(1))
	var h uint64
	for row := last - 2*stride; row <= last+2*stride; row += stride {
		for p := row - 2; p <= row+2; p++ {
			h = h<<2 | uint64(b.At(p))
		}
	}
	h ^= h >> 31
	h *= 0x9E3779B97F4A7C15
	h ^= h >> 29
	return uint32(h >> (64 - corrBits))
}

// correction is the correction of the evaluation at a node of key k,
// side us to move, in evaluation units scaled by Params.CorrWeight.
func (s *Searcher) correction(us eval.Color, k uint32) int {
	return int(s.corr[us-1][k]) * s.Options.Params.CorrWeight / (100 * corrUnit)
}

// updateCorrection moves the entry of key k towards the gap between the
// search's result and the node's raw evaluation, more for deeper nodes.
func (s *Searcher) updateCorrection(us eval.Color, k uint32, result, raw, depth int) {
	gap := int32(max(-corrClamp, min(corrClamp, result-raw)) * corrUnit)
	w := int32(min(depth, 16))
	e := &s.corr[us-1][k]
	*e += (gap - *e) * w / 64
}
