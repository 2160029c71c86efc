package eval

import "encoding/binary"

// Combo is the threat one move makes for one side, combining its four line
// patterns. Values are ordered weak to strong, as the threat-space search
// ranks them.
type Combo uint8

// The combined threat classes.
const (
	// ComboNone: no three or four.
	ComboNone Combo = iota
	// ComboForbidden: Black under renju would foul here by an overline or
	// a double four (a double three is ComboDoubleThree; ask IsForbidden).
	ComboForbidden
	// ComboThree: one open three.
	ComboThree
	// ComboFour: one four (one cell left to five).
	ComboFour
	// ComboDoubleThree: two or more open threes (for renju Black, a foul
	// unless the threes are not real; see IsForbidden).
	ComboDoubleThree
	// ComboFourThree: a four and an open three at once.
	ComboFourThree
	// ComboFlexFour: an open four or two fours: wins next move.
	ComboFlexFour
	// ComboFive: five, a win now.
	ComboFive

	// NumCombos is the number of Combo values.
	NumCombos
)

// String names the combo.
func (c Combo) String() string {
	names := [...]string{"none", "forbidden", "three", "four", "double-three", "four-three", "flex-four", "five"}
	if int(c) < len(names) {
		return names[c]
	}
	return "combo?"
}

// comboOf combines the four patterns of one side at one cell.
func comboOf(p [numDirs]Pattern, renjuBlack bool) Combo {
	var fives, flex4, block4, flex3, fouls int
	for _, x := range p {
		switch x {
		case F5:
			fives++
		case F4:
			flex4++
		case B4:
			block4++
		case F3:
			flex3++
		case Overline, DoubleFour:
			fouls++
		}
	}
	return comboFromCounts(fives, flex4, block4, flex3, fouls, renjuBlack)
}

// comboFromCounts is the combo of a cell whose four lines hold that many
// fives, open fours, fours, open threes and renju fouls.
func comboFromCounts(fives, flex4, block4, flex3, fouls int, renjuBlack bool) Combo {
	switch {
	case fives > 0:
		return ComboFive
	case renjuBlack && (fouls > 0 || flex4+block4 >= 2):
		return ComboForbidden
	case renjuBlack && flex3 >= 2:
		return ComboDoubleThree
	case flex4 > 0 || block4 >= 2:
		return ComboFlexFour
	case block4 > 0 && flex3 > 0:
		return ComboFourThree
	case flex3 >= 2:
		return ComboDoubleThree
	case block4 > 0:
		return ComboFour
	case flex3 > 0:
		return ComboThree
	}
	return ComboNone
}

// handMoveValue is the hand-set move value of a cell whose four line
// patterns for one side are ps (see patternMoveValue), and its combo.
func handMoveValue(ps [numDirs]Pattern, renjuBlack bool) (int32, Combo) {
	cb := comboOf(ps, renjuBlack)
	v := comboMoveValue[cb]
	for _, p := range ps {
		v += patternMoveValue[p]
	}
	return v, cb
}

// Hand-set score tables: a cell's move value for a side (MoveValue, which
// the threat searches order by) is the sum over its four lines of
// patternMoveValue plus comboMoveValue of its combo. patternEvalValue,
// with these, makes the prior of the learned tables (PriorWeights): the
// evaluation and alpha-beta move order themselves come from Weights.
var (
	patternMoveValue = [numPatterns]int32{
		Dead: 0, H1: 1, F1: 2, H2: 4, F2: 10, H3: 12, F3: 40, B4: 50, F4: 200, F5: 1000,
	}
	comboMoveValue = [NumCombos]int32{
		ComboNone: 0, ComboForbidden: -10000, ComboThree: 50, ComboFour: 100,
		ComboDoubleThree: 600, ComboFourThree: 1500, ComboFlexFour: 3000, ComboFive: 10000,
	}
	patternEvalValue = [numPatterns]int32{
		Dead: 0, H1: 0, F1: 1, H2: 1, F2: 4, H3: 5, F3: 16, B4: 20, F4: 60, F5: 120,
	}
)

// cellInfo is what an empty cell's four line patterns give each side
// (index 0 Black, 1 White).
type cellInfo struct {
	combo [2]Combo
	code  [2]uint16
	// idx is each side's ordered pattern index (orderedIndex), kept so
	// that a change of one line's entry moves it by one term.
	idx [2]uint16
	// eval is the cell's share of the evaluation: with Black to move
	// (index 0) its attack value for Black less its defence value for
	// White, with White to move (1) the reverse; 0 and 1 in the opening's
	// tables, 2 and 3 in the late game's (see Phase). Both of a cell's
	// codes are at hand here, so one sum per side to move and phase does
	// what attack and defence sums would do with twice as many.
	eval [4]int32
}

// cellState is the per-cell data derived from the line patterns, kept for
// empty cells only (an occupied cell keeps the values it had when it was
// filled, which Undo needs back), and the per-side totals over all empty
// cells.
type cellState struct {
	info       [maxCells]cellInfo
	evalSum    [4]int32
	comboCount [2][NumCombos]int16
	// near counts the stones within two cells (the 5×5 square) of a cell.
	near [maxCells]uint8
	// hint[s][cb] is the last cell whose combo for side s became cb: a
	// guess for FirstCombo, checked before use.
	hint [2][NumCombos]Pos
	// box bounds the stones (see Candidates).
	box stoneBox
}

func (b *Board) resetCellState() {
	b.cellState.evalSum = [4]int32{}
	b.cellState.comboCount = [2][NumCombos]int16{}
	for i := range b.near {
		b.near[i] = 0
		b.info[i] = cellInfo{}
	}
	for s := range b.hint {
		for cb := range b.hint[s] {
			b.hint[s][cb] = NoPos
		}
	}
	for _, p := range b.insideLst {
		b.setInfo(&b.info[p], p)
		b.addTotals(&b.info[p])
		b.hint[0][b.info[p].combo[0]] = p
		b.hint[1][b.info[p].combo[1]] = p
	}
}

// setInfo computes the derived values of cell q from its four patterns
// into ci: each side's shape code, then what the rule's and the weights'
// tables give that code. It writes ci field by field, not through a
// returned struct: a whole-struct copy of values just stored in narrow
// pieces stalls on store forwarding, and this runs a score of times a
// move.
func (b *Board) setInfo(ci *cellInfo, q Pos) {
	e := &b.pats[q]
	b.setCodes(ci, orderedIndex(e, Black), orderedIndex(e, White))
}

// setCodes is setInfo from the cell's ordered pattern indexes ib and iw
// of Black and White.
func (b *Board) setCodes(ci *cellInfo, ib, iw uint32) {
	ci.idx[0], ci.idx[1] = uint16(ib), uint16(iw)
	kb, kw := b.codes.code[ib], b.codes.code[iw]
	rb, rw := &b.rows[0][kb], &b.rows[1][kw]
	ci.combo[0], ci.combo[1] = rb.combo, rw.combo
	ci.code[0], ci.code[1] = kb, kw
	ci.eval[0] = int32(rb.attack) - int32(rw.defend)
	ci.eval[1] = int32(rw.attack) - int32(rb.defend)
	ci.eval[2] = int32(rb.attackLate) - int32(rw.defendLate)
	ci.eval[3] = int32(rw.attackLate) - int32(rb.defendLate)
}

// dirWeight is the weight of direction d's pattern in an ordered
// pattern index (orderedIndex).
var dirWeight = [numDirs]uint32{1, uint32(numPatterns), uint32(numPatterns) * uint32(numPatterns), uint32(numPatterns) * uint32(numPatterns) * uint32(numPatterns)}

// orderedIndex is the index into codeTables.code of side c's four line
// patterns in a cell's entries e (each entry holds Black's pattern in its
// low four bits, White's in the high four).
func orderedIndex(e *[numDirs]uint8, c Color) uint32 {
	const n = uint32(numPatterns)
	shift := 4 * uint(c-1)
	return uint32(e[0]>>shift&15) + n*uint32(e[1]>>shift&15) + n*n*uint32(e[2]>>shift&15) + n*n*n*uint32(e[3]>>shift&15)
}

// codeRow is everything a shape code gives one colour at a cell: the
// rule's combo and hand-set move value (codeShare) and the weights'
// attack and defence values (codeValue), in one 16-byte row so that
// setInfo reads one row a colour instead of one from each table.
type codeRow struct {
	attack, defend, attackLate, defendLate int16
	move                                   int32
	combo                                  Combo
}

// codeRows is a board's rows of every shape code, per colour.
type codeRows [2][NumCodes]codeRow

// newCodeRows joins a rule's tables and a family's weights into rows.
func newCodeRows(t *ruleTables, ev *evalTables) *codeRows {
	r := &codeRows{}
	for s := 0; s < 2; s++ {
		for k := 0; k < NumCodes; k++ {
			sh, v := &t.code[s][k], &ev.val[s][k]
			r[s][k] = codeRow{
				attack: v.attack, defend: v.defend, attackLate: v.attackLate, defendLate: v.defendLate,
				move: sh.move, combo: sh.combo,
			}
		}
	}
	return r
}

func (b *Board) addTotals(ci *cellInfo) {
	b.evalSum[0] += ci.eval[0]
	b.evalSum[1] += ci.eval[1]
	b.evalSum[2] += ci.eval[2]
	b.evalSum[3] += ci.eval[3]
	b.comboCount[0][ci.combo[0]]++
	b.comboCount[1][ci.combo[1]]++
}

func (b *Board) subTotals(ci *cellInfo) {
	b.evalSum[0] -= ci.eval[0]
	b.evalSum[1] -= ci.eval[1]
	b.evalSum[2] -= ci.eval[2]
	b.evalSum[3] -= ci.eval[3]
	b.comboCount[0][ci.combo[0]]--
	b.comboCount[1][ci.combo[1]]--
}

// stonePlaced counts a new stone at p in the near counts of its 5×5 square.
func (b *Board) stonePlaced(p Pos, c Color) {
	if c != Wall {
		b.addNear(p, nearRow)
	}
}

// stoneRemoved takes the stone at p out of the near counts.
func (b *Board) stoneRemoved(p Pos, c Color) {
	if c != Wall {
		b.addNear(p, ^uint64(nearRow)+1) // minus nearRow, modulo 2^64
	}
}

// nearRow adds one to each of five consecutive near counts read as the
// low bytes of a little-endian uint64.
const nearRow = 0x0101010101

// addNear adds delta (nearRow, or its negation modulo 2^64) to the near
// counts of the 5×5 square around p, a row of five at a time as one 64-bit
// addition: a count is at most 25 and one being taken back is at least 1,
// so no lane carries into or borrows from the next, and the three bytes
// past the row get zero.
func (b *Board) addNear(p Pos, delta uint64) {
	for dy := -2; dy <= 2; dy++ {
		w := b.near[int(p)+dy*b.stride-2:][:8]
		binary.LittleEndian.PutUint64(w, binary.LittleEndian.Uint64(w)+delta)
	}
}

// Combo returns the threat side c makes by playing the empty cell p.
func (b *Board) Combo(p Pos, c Color) Combo { return b.info[p].combo[c-1] }

// ComboCount returns how many empty cells give side c the combo cb.
func (b *Board) ComboCount(c Color, cb Combo) int { return int(b.comboCount[c-1][cb]) }

// MoveValue is the move-ordering value of the empty cell p for side c
// alone (its attack value; the opponent's value at p is its defence value).
func (b *Board) MoveValue(p Pos, c Color) int32 {
	return b.rows[c-1][b.info[p].code[c-1]].move
}

// Near reports whether a stone lies within two cells of p.
func (b *Board) Near(p Pos) bool { return b.near[p] > 0 }

// Alive reports whether either side can still make a five through the
// empty cell p along some line.
func (b *Board) Alive(p Pos) bool {
	e := b.pats[p]
	return e[0]|e[1]|e[2]|e[3] != 0
}

// Evaluate is the static evaluation for the side to move: the attack
// values of its empty cells' shape codes, less the defence values of the
// opponent's, each blended from the opening's and the late game's tables
// by the game's phase, plus the threat table's value of who has which
// threats (see Weights).
func (b *Board) Evaluate() int32 {
	s := b.sideToMove - 1
	// In 64 bits: the sums times PhaseScale could overflow 32 on the
	// largest boards.
	early, late := int64(b.evalSum[s]), int64(b.evalSum[2+s])
	ph := int64(Phase(b.stoneCnt))
	return int32((early*(PhaseScale-ph)+late*ph)>>phaseShift) + b.ev.threat[s][b.ThreatMask()]
}

// The game's phase (see Phase): PhaseScale is the late game's full
// weight, phaseShift its logarithm; the late game's tables take over
// linearly from PhaseStart stones to PhaseEnd.
const (
	PhaseScale = 1 << phaseShift
	PhaseStart = 6
	PhaseEnd   = 40
	phaseShift = 6
)

// Phase is the weight, out of PhaseScale, of the late game's tables in
// the evaluation of a position with that many stones (the opening's
// tables have the rest): 0 up to PhaseStart stones, PhaseScale from
// PhaseEnd on, linear between.
func Phase(stones int) int {
	return min(PhaseScale, max(0, (stones-PhaseStart)*PhaseScale/(PhaseEnd-PhaseStart)))
}

// ThreatMask is the whole-board threat mask of the position: the
// Threat* bits of the side to move, then (shifted by five) the
// opponent's.
func (b *Board) ThreatMask() int {
	s := b.sideToMove - 1
	return b.threatBits(s) | b.threatBits(1-s)<<threatBits
}

// threatBits are the Threat* bits of side index s.
func (b *Board) threatBits(s Color) int {
	cc := &b.comboCount[s]
	m := 0
	if cc[ComboThree] > 0 {
		m |= ThreatThree
	}
	if cc[ComboFour] > 0 {
		m |= ThreatFour
	}
	if cc[ComboDoubleThree] > 0 {
		m |= ThreatDoubleThree
	}
	if cc[ComboFourThree] > 0 {
		m |= ThreatFourThree
	}
	if cc[ComboFlexFour] > 0 {
		m |= ThreatFlexFour
	}
	return m
}

// Policy is the learned move-ordering value of the empty cell p for the
// side to move, c: its attack value for c plus its defence value against
// the opponent (see Weights).
func (b *Board) Policy(p Pos, c Color) int32 {
	k := &b.info[p].code
	s := c - 1
	return b.ev.polA[s][k[s]] + b.ev.polD[1-s][k[1-s]]
}

// CellCode returns the shape code side c has at the empty cell p.
func (b *Board) CellCode(p Pos, c Color) int { return int(b.info[p].code[c-1]) }
