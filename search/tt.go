package search

import "wuzi/eval"

// Bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = 0
	boundUpper bound = 1 // the true value is at most the score (fail low)
	boundLower bound = 2 // the true value is at least the score (fail high)
	boundExact bound = 3
)

// ttEntry is one slot of the transposition table: the full key, so a hit
// is never a collision in practice, and the packed result.
type ttEntry struct {
	key   uint64
	move  eval.Pos
	score int16
	depth int8
	flags uint8 // bound in the low 2 bits, generation in the high 6
}

// ttEntrySize is the size of a ttEntry in bytes.
const ttEntrySize = 16

// TT is a transposition table with depth-preferred replacement within
// buckets of two slots: the deeper (or newer) result is kept.
type TT struct {
	slots []ttEntry
	mask  uint64
	gen   uint8
}

// NewTT makes a table of at most mb mebibytes (rounded down to a power of
// two number of entries; at least 1024 entries).
func NewTT(mb int) *TT {
	n := uint64(1024)
	for n*2*ttEntrySize <= uint64(mb)<<20 {
		n *= 2
	}
	return &TT{slots: make([]ttEntry, n), mask: n - 2}
}

// SizeBytes is the memory the table's slots take.
func (t *TT) SizeBytes() int { return len(t.slots) * ttEntrySize }

// Clear empties the table.
func (t *TT) Clear() {
	clear(t.slots)
	t.gen = 0
}

// NewSearch ages the table so that entries of earlier searches are
// replaced first.
func (t *TT) NewSearch() { t.gen = (t.gen + 1) & 63 }

// probe looks key up.
func (t *TT) probe(key uint64) (ttEntry, bool) {
	i := key & t.mask
	if e := t.slots[i]; e.key == key && e.flags&3 != 0 {
		return e, true
	}
	if e := t.slots[i+1]; e.key == key && e.flags&3 != 0 {
		return e, true
	}
	return ttEntry{}, false
}

// store saves a result, preferring to keep deep entries of this search.
func (t *TT) store(key uint64, move eval.Pos, score int, depth int, b bound) {
	i := key & t.mask
	e := ttEntry{key: key, move: move, score: int16(score), depth: int8(depth), flags: uint8(b) | t.gen<<2}
	s0, s1 := &t.slots[i], &t.slots[i+1]
	switch {
	case s0.key == key:
		if e.move == eval.NoPos {
			e.move = s0.move
		}
		*s0 = e
	case s1.key == key:
		if e.move == eval.NoPos {
			e.move = s1.move
		}
		*s1 = e
	default:
		// Replace the slot that is older, or shallower when both are of
		// this search.
		v0 := int(s0.depth) - 8*int((t.gen-s0.flags>>2)&63)
		v1 := int(s1.depth) - 8*int((t.gen-s1.flags>>2)&63)
		if v1 < v0 {
			*s1 = e
		} else {
			*s0 = e
		}
	}
}
