package eval

// ruleTables are the read-only lookup tables of one rule: the line pattern
// of every key and what the four patterns of a cell add up to. With them a
// cell's combos and values cost a handful of table reads on every play.
type ruleTables struct {
	// half and pat2 give a line key's pattern-table entry (both sides'
	// patterns, see patternTable) without the 1 MB table itself, which
	// stays out of the caches on every move. A side's pattern depends on
	// each half of the line (five cells) only up to the first cell that
	// blocks it (an opponent stone, or the wall, which differs from an
	// opponent stone only under caro): cells beyond are never part of a
	// row through the centre nor its end. Such a truncated half is the
	// half's class for that side; there are about a hundred. half[0]
	// maps the ten key bits of offsets -5..-1, half[1] those of +1..+5,
	// to Black's and White's class indexes premultiplied so that the sum
	// of a left and a right value holds, in its low and high 16 bits,
	// indexes into pat2 of Black's and White's pattern: pat2 holds Black's
	// patterns in the low nibble of its first part and White's in the
	// high nibble of its second part, so the entry is one OR.
	half [2][1 << (2 * halfLine)]uint32
	pat2 []uint8
	// reach is how far along a line a stone can change a cell's
	// pattern: halfLine, or halfLine-1 under freestyle, where a five and
	// its ends lie within four cells of the centre (no exact-five rule
	// looks past them; TestPatternReach checks it against the tables).
	// Play skips the lookups of the cells beyond it.
	reach int
	// inner, under freestyle only (where reach is halfLine-1), is the
	// entry of every key by its 16 inner bits (offsets -4..-1 and
	// +1..+4, which sit side by side in a key): one read of a 64 KB
	// table instead of the halves' four. Nil under the other rules.
	inner *[innerKeys]uint8
	// code gives, per side (0 Black, 1 White), what each shape code
	// makes of a cell: its combo and move value (see codeShare).
	code [2][NumCodes]codeShare
}

// codeShare is what a shape code (the order-free combination of a
// cell's four line patterns for one side) gives that side at the cell:
// the combo and the hand-set move value (the patterns' values plus the
// combo's). Both depend on the code alone, so a cell's values cost one
// read per side.
type codeShare struct {
	move  int32
	combo Combo
}

// entryOf returns the pattern-table entry of a line key: both sides'
// patterns (Black's low nibble, White's high).
func (t *ruleTables) entryOf(key uint32) uint8 {
	if t.inner != nil {
		return t.inner[key>>innerShift&(innerKeys-1)]
	}
	return t.halvesEntry(key)
}

// innerShift is where a key's inner cells begin (the slot of offset -4),
// and innerKeys the number of their values (two bits for each of eight).
const (
	innerShift = 2
	innerKeys  = 1 << (4 * (halfLine - 1))
)

// halvesEntry is entryOf by the half classes, for every rule.
func (t *ruleTables) halvesEntry(key uint32) uint8 {
	i := t.half[0][key&(1<<(2*halfLine)-1)] + t.half[1][key>>(2*halfLine)]
	return t.pat2[i&0xFFFF] | t.pat2[i>>16]
}

// halfClass is the class of one half of a line key for side c: its cells
// from the centre outward up to and including the first blocking cell, in
// base 4 with a leading 1 so that lengths differ.
func halfClass(cells [halfLine]Color, c Color, caro bool) uint32 {
	cls := uint32(1)
	for _, v := range cells {
		if v != c && v != Empty && !(caro && v == Wall) {
			v = c.Opp() // a block; outside caro the wall blocks alike
		}
		cls = cls<<2 | uint32(v)
		if v != c && v != Empty {
			break
		}
	}
	return cls
}

// buildHalves fills t.half and t.pat2, asking entry for the pattern-table
// entry of one key of each pair of half classes.
func (t *ruleTables) buildHalves(entry func(key uint32) uint8, r Rule) {
	const halfKeys = 1 << (2 * halfLine)
	// halfCells returns the five cells of a half key, nearest first.
	halfCells := func(h uint32, right bool) (cells [halfLine]Color) {
		for i := 0; i < halfLine; i++ {
			slot := halfLine - 1 - i // left half: slot 4 is offset -1
			if right {
				slot = i
			}
			cells[i] = Color(h>>(2*slot)) & 3
		}
		return cells
	}
	var idx [2][2][halfKeys]int // [side][left/right][half key] -> class index
	var reps [2][2][]uint32     // a half key of each class
	for s, c := range [2]Color{Black, White} {
		for lr := 0; lr < 2; lr++ {
			ids := map[uint32]int{}
			for h := uint32(0); h < halfKeys; h++ {
				cls := halfClass(halfCells(h, lr == 1), c, r.caro())
				id, ok := ids[cls]
				if !ok {
					id = len(ids)
					ids[cls] = id
					reps[s][lr] = append(reps[s][lr], h)
				}
				idx[s][lr][h] = id
			}
		}
	}
	nL := [2]int{len(reps[0][0]), len(reps[1][0])}
	nR := [2]int{len(reps[0][1]), len(reps[1][1])}
	base := [2]int{0, nL[0] * nR[0]}
	t.pat2 = make([]uint8, base[1]+nL[1]*nR[1])
	if len(t.pat2) > 1<<16 {
		panic("eval: too many half-line classes")
	}
	for s, c := range [2]Color{Black, White} {
		for i, hl := range reps[s][0] {
			for j, hr := range reps[s][1] {
				p := patternOf(entry(hl|hr<<(2*halfLine)), c)
				t.pat2[base[s]+i*nR[s]+j] = uint8(p) << (4 * s)
			}
		}
	}
	for h := 0; h < halfKeys; h++ {
		t.half[0][h] = uint32(base[0]+idx[0][0][h]*nR[0]) | uint32(base[1]+idx[1][0][h]*nR[1])<<16
		t.half[1][h] = uint32(idx[0][1][h]) | uint32(idx[1][1][h])<<16
	}
}

func buildRuleTables(r Rule) *ruleTables {
	t := &ruleTables{reach: halfLine}
	if r == Freestyle {
		t.reach = halfLine - 1
	}
	t.buildHalves(lazyEntries(r), r)
	if t.reach == halfLine-1 {
		// The two farthest cells never matter (TestPatternReach), so
		// the entry of a key with them empty is every such key's.
		t.inner = new([innerKeys]uint8)
		for i := range t.inner {
			t.inner[i] = t.halvesEntry(uint32(i) << innerShift)
		}
	}
	codes := sharedCodes()
	for s := 0; s < 2; s++ {
		renjuBlack := r == Renju && s == 0
		for k := range t.code[s] {
			mv, cb := handMoveValue(codes.patterns[k], renjuBlack)
			t.code[s][k] = codeShare{move: mv, combo: cb}
		}
	}
	return t
}
