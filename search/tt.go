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
	pv    bool  // the node was on the principal variation (see Params.PVNodeReduce)
}

// pack puts everything but the key into one word: the PV flag in bit 48.
func (e ttEntry) pack() uint64 {
	d := uint64(uint16(e.move)) | uint64(uint16(e.score))<<16 | uint64(uint8(e.depth))<<32 | uint64(e.flags)<<40
	if e.pv {
		d |= 1 << 48
	}
	return d
}

// unpack is the inverse of pack.
func unpack(key, data uint64) ttEntry {
	return ttEntry{key: key, move: eval.Pos(int16(data)), score: int16(data >> 16), depth: int8(data >> 32), flags: uint8(data >> 40), pv: data>>48&1 != 0}
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
// several goroutines may share one table (lazy SMP); Clear, NewSearch,
// Reserve and resizing must not run while a search does.
//
// The table uses a power-of-two prefix of its slots, grown by Reserve to
// what the searches need: memory is mapped on first touch, and a table
// probed at random over all of its slots is mapped a page at a time on
// almost every probe of the first searches. A search stores at most one
// entry a node; where huge pages back the table it grows over a game to
// several times a search's need, so that the earlier searches' entries
// last (tableTarget), and long searches use the whole of it.
type TT struct {
	slots []ttSlot
	used  uint64 // the slots in use: a power of two, at most len(slots)
	mask  uint64 // used-2: the first slot of a probed bucket
	room  uint64 // ttGameRoom where huge pages back the slots, else 1 (see tableTarget)
	gen   uint8
}

// ttMinUsed is the fewest slots a table uses (1 MiB).
const ttMinUsed = 1 << 16

// NewTT makes a table of at most mb mebibytes (rounded down to a power of
// two number of entries; at least 1024 entries). It starts using
// ttMinUsed slots of them; see Reserve.
func NewTT(mb int) *TT {
	n := uint64(1024)
	for n*2*ttEntrySize <= uint64(mb)<<20 {
		n *= 2
	}
	slots := make([]ttSlot, n)
	adviseHugePages(slots)
	t := &TT{slots: slots, room: 1}
	if hugePagesOn() {
		t.room = ttGameRoom
	}
	t.Reserve(ttMinUsed)
	return t
}

// Reserve grows the slots in use to at least n (a power of two, at most
// the table's size); it never shrinks them. Entries stored before stay
// where they are, so a growth loses the half of them that the longer
// index now looks for elsewhere.
func (t *TT) Reserve(n uint64) {
	u := max(t.used, 2)
	for u < n && u < uint64(len(t.slots)) {
		u *= 2
	}
	u = min(u, uint64(len(t.slots)))
	t.used, t.mask = u, u-2
}

// Used is the number of slots in use.
func (t *TT) Used() int { return int(t.used) }

// SizeBytes is the memory the table's slots take.
func (t *TT) SizeBytes() int { return len(t.slots) * ttEntrySize }

// Clear empties the table (the slots in use: the others were never
// written).
func (t *TT) Clear() {
	clear(t.slots[:t.used])
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

// store saves a result, preferring to keep deep entries of this search;
// pv says the node is or was on the principal variation.
func (t *TT) store(key uint64, move eval.Pos, score int, depth int, b bound, pv bool) {
	i := key & t.mask
	e := ttEntry{key: key, move: move, score: int16(score), depth: int8(depth), flags: uint8(b) | t.gen<<2, pv: pv}
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
