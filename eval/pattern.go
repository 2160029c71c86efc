package eval

import "sync"

// Pattern is what one stone placed on a cell makes along one line, judged
// from the ten cells around it (five on each side). The normal values are
// ordered weak to strong; in the diagrams X is the stone placed, x the same
// side's stones, o the opponent's or the wall, and _ an empty cell.
type Pattern uint8

// The line patterns.
const (
	// Dead: no five through the cell can ever be made on this line.
	//   o x X x o
	Dead Pattern = iota
	// H1: a lone stone whose line can only grow to closed shapes.
	//   o X _ _ _ _ o
	H1
	// F1: a lone stone with room to grow into an open two.
	//   _ _ X _ _ _
	F1
	// H2: two stones that can become a closed three, not an open one.
	//   o x X _ _ _ o
	H2
	// F2: an open two: one more stone makes an open three.
	//   _ _ x X _ _
	F2
	// H3: a closed three: one more stone makes a four, never an open four.
	//   o x x X _ _
	H3
	// F3: an open three: one more stone makes an open four (X_xx also).
	//   _ x X x _ _
	F3
	// B4: a four with exactly one cell left to make five.
	//   o x x X x _
	B4
	// F4: an open four, or (outside renju Black) any line with two or more
	// cells that make five.
	//   _ x x X x _
	F4
	// F5: five in a row that wins under the rule.
	//   x x X x x
	F5
	// Overline: Black under renju makes six or more here (a foul).
	//   x x x X x x
	Overline
	// DoubleFour: Black under renju makes two fours on this one line (a
	// foul), such as x _ x X x _ x.
	DoubleFour

	numPatterns
)

// String names the pattern.
func (p Pattern) String() string {
	names := [...]string{"dead", "H1", "F1", "H2", "F2", "H3", "F3", "B4", "F4", "F5", "overline", "double-four"}
	if int(p) < len(names) {
		return names[p]
	}
	return "pattern?"
}

// Line keys. Each cell keeps, for each of the four directions, a key of the
// ten cells around it on that line: two bits per cell (Empty, Black, White,
// Wall) at offsets -5..-1 in slots 0..4 and +1..+5 in slots 5..9. The cell
// itself is not in its key, so a key stays valid whether the cell is empty
// or not, and a stone played at offset k from a cell flips exactly the two
// bits of one slot (keys are updated by XOR, the same on play and undo).
const (
	halfLine = 5
	keyBits  = 4 * halfLine
	keySize  = 1 << keyBits
)

// slotShift is the bit position, in the key of a cell, of the cell at
// offset k (k in -5..-1, 1..5) along the same line.
func slotShift(k int) uint {
	if k < 0 {
		return uint(2 * (k + halfLine))
	}
	return uint(2 * (k + halfLine - 1))
}

// patternTable maps a line key to the patterns of both sides: Black's in the
// low four bits, White's in the high four. Tables are built once per rule
// and never change afterwards.
type patternTable [keySize]uint8

// tablesFor returns the shared, read-only tables of a rule, building them
// on first use. The builders are package-level only to share immutable data
// between boards; nothing writes to a table after it is built.
func tablesFor(r Rule) *ruleTables {
	switch r {
	case Standard:
		return standardTables()
	case Renju:
		return renjuTables()
	case CaroFree:
		return caroFreeTables()
	case CaroExact:
		return caroExactTables()
	}
	return freestyleTables()
}

var (
	freestyleTables = sync.OnceValue(func() *ruleTables { return buildRuleTables(Freestyle) })
	standardTables  = sync.OnceValue(func() *ruleTables { return buildRuleTables(Standard) })
	renjuTables     = sync.OnceValue(func() *ruleTables { return buildRuleTables(Renju) })
	caroFreeTables  = sync.OnceValue(func() *ruleTables { return buildRuleTables(CaroFree) })
	caroExactTables = sync.OnceValue(func() *ruleTables { return buildRuleTables(CaroExact) })
)

// lineWindow is the eleven cells of a key with the centre (index 5).
type lineWindow [2*halfLine + 1]Color

func windowOf(key uint32, center Color) lineWindow {
	var w lineWindow
	for k := -halfLine; k <= halfLine; k++ {
		if k == 0 {
			w[halfLine] = center
			continue
		}
		w[k+halfLine] = Color(key>>slotShift(k)) & 3
	}
	return w
}

// windowFive reports whether the window, whose centre holds a stone of c,
// has a row through the centre that wins for c under rule r.
func windowFive(w *lineWindow, c Color, r Rule) bool {
	lo, hi := halfLine, halfLine
	for lo > 0 && w[lo-1] == c {
		lo--
	}
	for hi < 2*halfLine && w[hi+1] == c {
		hi++
	}
	n := hi - lo + 1
	if n < 5 || (n > 5 && r.exactFive(c)) {
		return false
	}
	if r.caro() && n == 5 {
		// Caro as Gomocup referees it: an overline (rule 8) wins even
		// when blocked; a row of exactly five must have an end that is
		// not an opponent stone.
		blockedLo := lo > 0 && w[lo-1] == c.Opp()
		blockedHi := hi < 2*halfLine && w[hi+1] == c.Opp()
		if blockedLo && blockedHi {
			return false
		}
	}
	return true
}

// windowOverline reports whether the centre stone of c stands in a row of
// six or more.
func windowOverline(w *lineWindow, c Color) bool {
	n := 1
	for k := halfLine - 1; k >= 0 && w[k] == c; k-- {
		n++
	}
	for k := halfLine + 1; k <= 2*halfLine && w[k] == c; k++ {
		n++
	}
	return n > 5
}

// tableBuilder classifies every key for one side under one rule, memoising
// by key: a key with one more stone is classified before the key it grows
// from needs it.
type tableBuilder struct {
	rule  Rule
	c     Color
	renju bool // c is Black under renju: overlines and line double fours are fouls
	memo  []uint8
}

const unknownPattern = 0xFF

func buildTable(r Rule) *patternTable {
	t := new(patternTable)
	entry := lazyEntries(r)
	for key := range t {
		t[key] = entry(uint32(key))
	}
	return t
}

// lazyEntries returns a function that classifies a key for both sides on
// demand (Black's pattern in the low nibble, White's in the high),
// remembering every key it has classified. Building a rule's tables asks
// it only for the keys they need, which keeps START quick.
func lazyEntries(r Rule) func(key uint32) uint8 {
	var bs [2]*tableBuilder
	for i, c := range [2]Color{Black, White} {
		b := &tableBuilder{rule: r, c: c, renju: r == Renju && c == Black, memo: make([]uint8, keySize)}
		for k := range b.memo {
			b.memo[k] = unknownPattern
		}
		bs[i] = b
	}
	return func(key uint32) uint8 {
		return uint8(bs[0].classify(key)) | uint8(bs[1].classify(key))<<4
	}
}

// classify returns the pattern of a stone of b.c at the centre of key.
func (b *tableBuilder) classify(key uint32) Pattern {
	if p := b.memo[key]; p != unknownPattern {
		return Pattern(p)
	}
	p := b.compute(key)
	b.memo[key] = uint8(p)
	return p
}

func (b *tableBuilder) compute(key uint32) Pattern {
	w := windowOf(key, b.c)
	if windowFive(&w, b.c, b.rule) {
		return F5
	}
	if b.renju && windowOverline(&w, b.c) {
		return Overline
	}
	// Cells that would complete a winning five through the centre.
	// points keeps the offsets of the first two (offsets are negative
	// left of the centre, so no sentinel value is used).
	fivePoints := 0
	var points [2]int
	for k := -halfLine; k <= halfLine; k++ {
		if k == 0 || w[k+halfLine] != Empty {
			continue
		}
		w[k+halfLine] = b.c
		if windowFive(&w, b.c, b.rule) {
			if fivePoints < len(points) {
				points[fivePoints] = k
			}
			fivePoints++
		}
		w[k+halfLine] = Empty
	}
	if fivePoints >= 2 {
		if !b.renju {
			return F4
		}
		// Renju Black: an open four is one four whose two five points
		// close one unbroken row of four stones between them; anything
		// else is two fours (x_xxX_x has three stones between its five
		// points: two fours in one line).
		if fivePoints == 2 && points[1]-points[0] == 5 && straightBetween(&w, b.c, points[0], points[1]) {
			return F4
		}
		return DoubleFour
	}
	if fivePoints == 1 {
		return B4
	}
	// Grow one more stone and take the best shape it leads to.
	best := Dead
	for k := -halfLine; k <= halfLine; k++ {
		if k == 0 || w[k+halfLine] != Empty {
			continue
		}
		next := b.classify(key | uint32(b.c)<<slotShift(k))
		var got Pattern
		switch next {
		case F4:
			got = F3
		case B4:
			got = H3
		case F3:
			got = F2
		case H3:
			got = H2
		case F2:
			got = F1
		case H2:
			got = H1
		default:
			continue
		}
		if got > best {
			best = got
		}
	}
	return best
}

// straightBetween reports whether every cell strictly between offsets a and
// b holds a stone of c.
func straightBetween(w *lineWindow, c Color, a, b int) bool {
	for k := a + 1; k < b; k++ {
		if w[k+halfLine] != c {
			return false
		}
	}
	return true
}

// patternOf splits a table entry into the pattern of side c.
func patternOf(entry uint8, c Color) Pattern {
	if c == Black {
		return Pattern(entry & 15)
	}
	return Pattern(entry >> 4)
}
