package search

import (
	"sync/atomic"

	"wuzi/eval"
)

// Bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = 0
	boundUpper bound = 1 // the true value is at most the score (fail low)
	boundLower bound = 2 // the true value is at least the score (fail high)
	boundExact bound = 3
)

// ttEntry is one result of the transposition table, unpacked.
type ttEntry struct {
	key   uint64
	move  eval.Pos
	score int16
	depth int8
	flags uint8 // bound in the low 2 bits, generation in the high 6
}

// pack puts everything but the key into one word.
func (e ttEntry) pack() uint64 {
	return uint64(uint16(e.move)) | uint64(uint16(e.score))<<16 | uint64(uint8(e.depth))<<32 | uint64(e.flags)<<40
}

// unpack is the inverse of pack.
func unpack(key, data uint64) ttEntry {
	return ttEntry{key: key, move: eval.Pos(int16(data)), score: int16(data >> 16), depth: int8(data >> 32), flags: uint8(data >> 40)}
}

// ttSlot holds one entry as two words that search threads read and write
// without locks: the packed data and the key xor the data. A slot torn by
// two writers (one word from each) no longer checks against either key,
// so it reads as a miss, never as a wrong result.
type ttSlot struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

func (sl *ttSlot) load() (ttEntry, bool) {
	d := sl.data.Load()
	k := sl.check.Load() ^ d
	return unpack(k, d), d>>40&3 != 0
}

func (sl *ttSlot) save(e ttEntry) {
	d := e.pack()
	sl.data.Store(d)
	sl.check.Store(e.key ^ d)
}

// ttEntrySize is the size of a slot in bytes.
const ttEntrySize = 16

// TT is a transposition table with depth-preferred replacement within
// buckets of two slots: the deeper (or newer) result is kept. Searches on
// several goroutines may share one table (lazy SMP); Clear, NewSearch and
// resizing must not run while a search does.
type TT struct {
	slots []ttSlot
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
	slots := make([]ttSlot, n)
	adviseHugePages(slots)
	return &TT{slots: slots, mask: n - 2}
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
	if e, ok := t.slots[i].load(); ok && e.key == key {
		return e, true
	}
	if e, ok := t.slots[i+1].load(); ok && e.key == key {
		return e, true
	}
	return ttEntry{}, false
}

// store saves a result, preferring to keep deep entries of this search.
func (t *TT) store(key uint64, move eval.Pos, score int, depth int, b bound) {
	i := key & t.mask
	e := ttEntry{key: key, move: move, score: int16(score), depth: int8(depth), flags: uint8(b) | t.gen<<2}
	s0, s1 := &t.slots[i], &t.slots[i+1]
	e0, _ := s0.load()
	e1, _ := s1.load()
	switch {
	case e0.key == key:
		if e.move == eval.NoPos {
			e.move = e0.move
		}
		s0.save(e)
	case e1.key == key:
		if e.move == eval.NoPos {
			e.move = e1.move
		}
		s1.save(e)
	default:
		// Replace the slot that is older, or shallower when both are of
		// this search.
		v0 := int(e0.depth) - 8*int((t.gen-e0.flags>>2)&63)
		v1 := int(e1.depth) - 8*int((t.gen-e1.flags>>2)&63)
		if v1 < v0 {
			s1.save(e)
		} else {
			s0.save(e)
		}
	}
}
