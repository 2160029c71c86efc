package eval

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

// Score tables. These are data to be tuned from match results: a cell's
// move-ordering value for a side is the sum over its four lines of
// patternMoveValue plus comboMoveValue of its combo; its contribution to
// the static evaluation is the sum of patternEvalValue over its lines.
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

// cellState is the per-cell data derived from the line patterns, kept for
// empty cells only, and the per-side totals over all empty cells.
type cellState struct {
	combo      [maxCells][2]Combo
	moveValue  [maxCells][2]int32
	evalValue  [maxCells][2]int32
	evalSum    [2]int32
	comboCount [2][NumCombos]int16
	// near counts the stones within two cells (the 5×5 square) of a cell.
	near [maxCells]uint8
}

func (b *Board) resetCellState() {
	b.cellState.evalSum = [2]int32{}
	b.cellState.comboCount = [2][NumCombos]int16{}
	for i := range b.near {
		b.near[i] = 0
		b.combo[i] = [2]Combo{}
		b.moveValue[i] = [2]int32{}
		b.evalValue[i] = [2]int32{}
	}
	for _, p := range b.insideLst {
		b.addCell(p)
	}
}

// setKey stores a new line key of cell q in direction d and refreshes what
// depends on it.
func (b *Board) setKey(q Pos, d int, key uint32) {
	b.keys[q][d] = key
	entry := b.table[key]
	if entry == b.pats[q][d] {
		return
	}
	b.pats[q][d] = entry
	if b.cells[q] == Empty {
		b.removeCell(q)
		b.addCell(q)
	}
}

// addCell computes the derived values of the empty cell q and adds them to
// the totals.
func (b *Board) addCell(q Pos) {
	e := b.pats[q]
	for s := 0; s < 2; s++ {
		c := Color(s + 1)
		var pats [numDirs]Pattern
		var mv, ev int32
		for d := 0; d < numDirs; d++ {
			pt := patternOf(e[d], c)
			pats[d] = pt
			mv += patternMoveValue[pt]
			ev += patternEvalValue[pt]
		}
		cb := comboOf(pats, b.rule == Renju && c == Black)
		mv += comboMoveValue[cb]
		b.combo[q][s] = cb
		b.moveValue[q][s] = mv
		b.evalValue[q][s] = ev
		b.evalSum[s] += ev
		b.comboCount[s][cb]++
	}
}

// removeCell subtracts the derived values of cell q from the totals.
func (b *Board) removeCell(q Pos) {
	for s := 0; s < 2; s++ {
		b.evalSum[s] -= b.evalValue[q][s]
		b.comboCount[s][b.combo[q][s]]--
	}
}

// cellLeaves is called when the empty cell p is about to be occupied.
func (b *Board) cellLeaves(p Pos) { b.removeCell(p) }

// cellReturns is called when p has just become empty again.
func (b *Board) cellReturns(p Pos) { b.addCell(p) }

func (b *Board) stonePlaced(p Pos, c Color) {
	if c == Wall {
		return
	}
	for dy := -2; dy <= 2; dy++ {
		row := int(p) + dy*b.stride
		for dx := -2; dx <= 2; dx++ {
			b.near[row+dx]++
		}
	}
}

func (b *Board) stoneRemoved(p Pos, c Color) {
	if c == Wall {
		return
	}
	for dy := -2; dy <= 2; dy++ {
		row := int(p) + dy*b.stride
		for dx := -2; dx <= 2; dx++ {
			b.near[row+dx]--
		}
	}
}

// Combo returns the threat side c makes by playing the empty cell p.
func (b *Board) Combo(p Pos, c Color) Combo { return b.combo[p][c-1] }

// ComboCount returns how many empty cells give side c the combo cb.
func (b *Board) ComboCount(c Color, cb Combo) int { return int(b.comboCount[c-1][cb]) }

// MoveValue is the move-ordering value of the empty cell p for side c
// alone (its attack value; the opponent's value at p is its defence value).
func (b *Board) MoveValue(p Pos, c Color) int32 { return b.moveValue[p][c-1] }

// Near reports whether a stone lies within two cells of p.
func (b *Board) Near(p Pos) bool { return b.near[p] > 0 }

// Alive reports whether either side can still make a five through the
// empty cell p along some line.
func (b *Board) Alive(p Pos) bool {
	e := b.pats[p]
	return e[0]|e[1]|e[2]|e[3] != 0
}

// Evaluate is the static evaluation for the side to move: the pattern
// potential of its empty cells against the opponent's.
func (b *Board) Evaluate() int32 {
	s := b.sideToMove - 1
	return b.evalSum[s] - b.evalSum[1-s]
}
