package eval

// ruleTables are the read-only lookup tables of one rule: the line pattern
// of every key and what the four patterns of a cell add up to. With them a
// cell's combos and values cost a handful of table reads on every play.
type ruleTables struct {
	// pat maps a line key to both sides' patterns (see patternTable).
	pat patternTable
	// entry maps a pattern-table entry (both sides' patterns on one line)
	// to its share of the cell's values and threat counts; the four
	// directions' shares are summed (see entryShare).
	entry [256]entryShare
	// combo maps one side's summed threat counts (15 bits, see
	// threatCount) to its combo; index 0 is Black, 1 White.
	combo [2][1 << 15]Combo
}

// entryShare is one line's contribution to a cell. vals holds four 16-bit
// lanes: Black's pattern move value, Black's eval value, White's move
// value, White's eval value. cnt holds Black's threat counts in bits 0-14
// and White's in bits 16-30. Four shares are summed without carries
// between lanes: each lane's maximum times four fits (checked when the
// tables are built).
type entryShare struct {
	vals uint64
	cnt  uint32
}

// Threat counts: five 3-bit fields per side counting the lines with an
// open three, a four, an open four, a five and a renju foul (overline or
// line double four). Four lines never overflow a field.
const (
	cntF3   = 0
	cntB4   = 3
	cntF4   = 6
	cntF5   = 9
	cntFoul = 12
	cntMask = 1<<15 - 1
)

// threatCount is the count field a pattern adds to, or 0 for patterns
// that no combo depends on.
func threatCount(p Pattern) uint32 {
	switch p {
	case F3:
		return 1 << cntF3
	case B4:
		return 1 << cntB4
	case F4:
		return 1 << cntF4
	case F5:
		return 1 << cntF5
	case Overline, DoubleFour:
		return 1 << cntFoul
	}
	return 0
}

func buildRuleTables(r Rule) *ruleTables {
	t := &ruleTables{pat: *buildTable(r)}
	for _, v := range patternMoveValue {
		if v < 0 || 4*v > 0xFFFF {
			panic("eval: patternMoveValue out of the 16-bit lane")
		}
	}
	for _, v := range patternEvalValue {
		if v < 0 || 4*v > 0xFFFF {
			panic("eval: patternEvalValue out of the 16-bit lane")
		}
	}
	for e := range t.entry {
		pb, pw := patternOf(uint8(e), Black), patternOf(uint8(e), White)
		if pb >= numPatterns || pw >= numPatterns {
			continue // no table entry holds these
		}
		t.entry[e] = entryShare{
			vals: uint64(patternMoveValue[pb]) | uint64(patternEvalValue[pb])<<16 |
				uint64(patternMoveValue[pw])<<32 | uint64(patternEvalValue[pw])<<48,
			cnt: threatCount(pb) | threatCount(pw)<<16,
		}
	}
	for s := 0; s < 2; s++ {
		renjuBlack := r == Renju && s == 0
		for cnt := range t.combo[s] {
			field := func(shift int) int { return cnt >> shift & 7 }
			t.combo[s][cnt] = comboFromCounts(field(cntF5), field(cntF4), field(cntB4), field(cntF3), field(cntFoul), renjuBlack)
		}
	}
	return t
}
