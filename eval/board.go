package eval

import "fmt"

// Board sizes Wuzi accepts, for either side of a rectangle.
const (
	MinSize = 5
	MaxSize = 32
)

// Geometry. A board of width w is stored row by row with a stride of
// w+halfLine: the halfLine cells after each row are wall, shared with the
// start of the next row, and halfLine wall rows (one more at the bottom for
// the diagonal) surround the board, so any walk of up to five steps from an
// inside cell stays inside the arrays and meets Wall when it leaves the
// board.
const (
	maxStride = MaxSize + halfLine
	maxCells  = (MaxSize + 2*halfLine + 1) * maxStride
)

// Pos is a cell of a particular board (an index into its padded arrays).
// Positions from one board are meaningless on a board of another size.
type Pos int16

// NoPos is the absent position.
const NoPos Pos = -1

// Direction indexes: horizontal, vertical, diagonal, anti-diagonal.
const numDirs = 4

// maxPlies bounds the moves on a board (every cell filled), and
// maxChanges the cells whose derived values one move changes: the cell
// itself and up to five cells each way on its four lines.
const (
	maxPlies   = MaxSize * MaxSize
	maxChanges = 1 + numDirs*2*halfLine
)

// undoRecord is what Undo needs to restore a move: the move, where its
// saved cell values start on the change stack, and the per-side totals
// as they were before it.
type undoRecord struct {
	pos        Pos
	color      Color
	start      int32
	evalSum    [4]int32
	comboCount [2][NumCombos]int16
	hint       [2][NumCombos]Pos
	box        stoneBox
}

// savedCell is a cell's pattern entries and derived values before a move
// changed them. (A move changes a cell's patterns on one line only, but
// saving all four is as cheap as saving one.)
type savedCell struct {
	pos  Pos
	pats [numDirs]uint8
	info cellInfo
}

// Board is a Gomoku/Renju position with everything it knows of itself kept
// up to date on Play and Undo: the stones, the Zobrist key, the line key and
// pattern of every cell in each direction, and per-side threat and score
// data (see Play). A Board is not safe for concurrent use (IsForbidden too
// plays and takes back stones internally); copy it (it holds no pointers to
// mutable data) to give another goroutine its own. A Board is about 1.5 MB,
// most of it the fixed-size undo stack, so that Play and Undo never
// allocate: make one per game or per search thread, not per node.
type Board struct {
	width, height int
	stride        int
	rule          Rule
	tabs          *ruleTables
	codes         *codeTables
	ev            *evalTables
	// rows joins tabs' and ev's values of each shape code (newCodeRows);
	// read-only, shared by copies of the board.
	rows *codeRows
	dirs [numDirs]int

	sideToMove Color
	ply        int
	hash       uint64

	cells [maxCells]Color
	// keys[p][d] is the line key of cell p in direction d (see slotShift),
	// its cells within the rule's reach (ruleTables.reach): under
	// freestyle the farthest cell each way is not kept (it is zero after
	// Clear and never updated), since no pattern depends on it.
	keys [maxCells][numDirs]uint32
	// pats[p][d] is the table entry of keys[p][d], both sides' patterns,
	// for every empty cell p; an occupied cell keeps the entries it had
	// when it was filled (no caller reads them, and skipping them saves
	// put a table lookup for every stone on the lines of a move).
	pats [maxCells][numDirs]uint8

	zobrist [2][maxCells]uint64
	zobSide uint64
	history [maxPlies]undoRecord
	// saved is the change stack: the values of every cell a move
	// recomputed, pushed by put and popped by take, so that Undo restores
	// values instead of recomputing them.
	saved    [maxPlies * maxChanges]savedCell
	nSaved   int32
	stoneCnt int
	inside   [maxCells]bool
	// coord[p] is the column and row of the inside cell p (saves XY's
	// divisions on the hot path).
	coord     [maxCells][2]int8
	insideLst []Pos

	cellState
}

// NewBoard returns an empty width×height board under rule r, Black to move.
func NewBoard(width, height int, r Rule) (*Board, error) {
	if width < MinSize || width > MaxSize || height < MinSize || height > MaxSize {
		return nil, fmt.Errorf("unsupported board size %dx%d (sides %d to %d)", width, height, MinSize, MaxSize)
	}
	if !r.Valid() {
		return nil, fmt.Errorf("unsupported rule %d", r)
	}
	b := &Board{width: width, height: height, stride: width + halfLine, rule: r}
	b.tabs = tablesFor(r)
	b.codes = sharedCodes()
	b.ev = embeddedTables()[FamilyOf(r)]
	b.rows = newCodeRows(b.tabs, b.ev)
	b.dirs = [numDirs]int{1, b.stride, b.stride + 1, b.stride - 1}
	b.initZobrist()
	// The geometry never changes for a board; insideLst is built here once
	// and never written again, so copies of a board may share it.
	b.insideLst = make([]Pos, 0, width*height)
	for y := 0; y < b.height; y++ {
		for x := 0; x < b.width; x++ {
			p := b.Pos(x, y)
			b.inside[p] = true
			b.coord[p] = [2]int8{int8(x), int8(y)}
			b.insideLst = append(b.insideLst, p)
		}
	}
	b.Clear()
	return b, nil
}

// Clear empties the board, keeping its size and rule; Black is to move.
func (b *Board) Clear() {
	e := b.tabs.entryOf(0)
	for i := range b.cells {
		b.cells[i] = Wall
		if b.inside[i] {
			b.cells[i] = Empty
		}
		// Wall cells keep keys too (put updates them without asking
		// whether a cell is inside); they start at zero and, like every
		// cell, keep pats equal to the table entry of their keys. Neither
		// is ever read.
		b.keys[i] = [numDirs]uint32{}
		b.pats[i] = [numDirs]uint8{e, e, e, e}
	}
	for _, p := range b.insideLst {
		for d := 0; d < numDirs; d++ {
			var key uint32
			for k := -b.tabs.reach; k <= b.tabs.reach; k++ {
				if k != 0 {
					key |= uint32(b.cells[int(p)+k*b.dirs[d]]) << slotShift(k)
				}
			}
			b.keys[p][d] = key
			b.pats[p][d] = b.tabs.entryOf(key)
		}
	}
	b.sideToMove = Black
	b.ply = 0
	b.stoneCnt = 0
	b.hash = 0
	b.nSaved = 0
	b.box = stoneBox{}
	b.resetCellState()
}

func (b *Board) initZobrist() {
	s := uint64(0x9E3779B97F4A7C15) ^ uint64(b.width)<<32 ^ uint64(b.height)
	next := func() uint64 {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for c := 0; c < 2; c++ {
		for i := range b.zobrist[c] {
			b.zobrist[c][i] = next()
		}
	}
	b.zobSide = next()
}

// Width is the number of columns (x runs from 0 to Width-1).
func (b *Board) Width() int { return b.width }

// Height is the number of rows (y runs from 0 to Height-1).
func (b *Board) Height() int { return b.height }

// Rule is the board's rule.
func (b *Board) Rule() Rule { return b.rule }

// Inside reports whether (x, y) is on the board.
func (b *Board) Inside(x, y int) bool {
	return x >= 0 && y >= 0 && x < b.width && y < b.height
}

// Pos returns the cell at column x, row y, which must be Inside.
func (b *Board) Pos(x, y int) Pos {
	return Pos((y+halfLine)*b.stride + x + halfLine)
}

// XY returns the column and row of p.
func (b *Board) XY(p Pos) (x, y int) {
	return int(p)%b.stride - halfLine, int(p)/b.stride - halfLine
}

// Distance is the number of king moves between the cells p and q (the
// larger of their column and row differences).
func (b *Board) Distance(p, q Pos) int {
	px, py := b.XY(p)
	qx, qy := b.XY(q)
	return max(px-qx, qx-px, py-qy, qy-py)
}

// At returns what occupies p.
func (b *Board) At(p Pos) Color { return b.cells[p] }

// IsEmpty reports whether p is an empty cell on the board.
func (b *Board) IsEmpty(p Pos) bool { return p >= 0 && int(p) < maxCells && b.cells[p] == Empty }

// SideToMove is the colour whose turn it is.
func (b *Board) SideToMove() Color { return b.sideToMove }

// SetSideToMove sets whose turn it is, for positions given stone by stone.
func (b *Board) SetSideToMove(c Color) {
	if c != b.sideToMove {
		b.sideToMove = c
		b.hash ^= b.zobSide
	}
}

// Ply is the number of moves played on the board (stones and blocks).
func (b *Board) Ply() int { return b.ply }

// Stones is the number of stones on the board.
func (b *Board) Stones() int { return b.stoneCnt }

// Empties is the number of empty cells.
func (b *Board) Empties() int { return len(b.insideLst) - b.ply }

// Hash is the Zobrist key of the position (stones and side to move).
func (b *Board) Hash() uint64 { return b.hash }

// HashAfter is the Zobrist key the position would have after the side to
// move plays p (an empty cell), without playing it.
func (b *Board) HashAfter(p Pos) uint64 {
	return b.hash ^ b.zobrist[b.sideToMove-1][p] ^ b.zobSide
}

// LastMove is the most recent move, or NoPos on an empty board.
func (b *Board) LastMove() Pos {
	if b.ply == 0 {
		return NoPos
	}
	return b.history[b.ply-1].pos
}

// MoveAt returns the i-th move played (0-based) and its colour.
func (b *Board) MoveAt(i int) (Pos, Color) {
	r := b.history[i]
	return r.pos, r.color
}

// Cells lists every cell of the board in row order. The slice is shared:
// do not modify it.
func (b *Board) Cells() []Pos { return b.insideLst }

// Play puts a stone of the side to move on the empty cell p and passes the
// turn.
func (b *Board) Play(p Pos) {
	b.put(p, b.sideToMove)
	b.sideToMove = b.sideToMove.Opp()
	b.hash ^= b.zobSide
}

// PlayColor puts a stone of colour c on the empty cell p and gives the turn
// to the other colour, for setting up positions that do not alternate.
func (b *Board) PlayColor(p Pos, c Color) {
	b.put(p, c)
	b.SetSideToMove(c.Opp())
}

// Block turns the empty cell p into a cell no five can pass through (field
// 3 of the protocol's BOARD command). Undo removes it like a stone.
func (b *Board) Block(p Pos) { b.put(p, Wall) }

// Undo takes back the last Play, PlayColor or Block.
func (b *Board) Undo() {
	b.ply--
	r := b.history[b.ply]
	b.take(r.pos, r.color)
	if r.color != Wall {
		b.SetSideToMove(r.color)
	}
}

// put places c on p and updates every key, pattern and derived value of
// the cells whose line windows include p, saving what it changes.
func (b *Board) put(p Pos, c Color) {
	r := &b.history[b.ply]
	r.pos, r.color, r.start = p, c, b.nSaved
	r.evalSum, r.comboCount = b.evalSum, b.comboCount
	r.hint, r.box = b.hint, b.box
	b.ply++

	// p leaves the empty cells: save its values and take them out of
	// the totals.
	b.save(p)
	b.subTotals(&b.info[p])

	b.cells[p] = c
	if c != Wall {
		b.stoneCnt++
		b.hash ^= b.zobrist[c-1][p]
		b.box.add(b.coord[p])
	}
	// Within halfLine steps every cell index stays in the padded arrays,
	// wall cells included, so no inside test is needed: a wall cell's key
	// changes harmlessly. Only empty cells get their patterns looked up
	// (occupied and wall cells keep theirs, which nothing reads).
	//
	// The fast path (new key, its entry, unchanged) is written out here
	// rather than in a function: it runs up to forty times a move.
	//
	// A cell k steps before p sees p at offset +k, one k steps after it
	// at offset -k: their slots (slotShift) move one each step, so the
	// two bit masks are shifted along with the walk.
	t := b.tabs
	for d := 0; d < numDirs; d++ {
		step := b.dirs[d]
		before, after := uint32(c)<<slotShift(1), uint32(c)<<slotShift(-1)
		qb, qa := int(p)-step, int(p)+step
		for k := 1; k <= t.reach; k++ {
			key := b.keys[qb][d] ^ before
			b.keys[qb][d] = key
			if b.cells[qb] == Empty {
				if e := t.entryOf(key); e != b.pats[qb][d] {
					b.entryChanged(Pos(qb), d, e)
				}
			}
			key = b.keys[qa][d] ^ after
			b.keys[qa][d] = key
			if b.cells[qa] == Empty {
				if e := t.entryOf(key); e != b.pats[qa][d] {
					b.entryChanged(Pos(qa), d, e)
				}
			}
			before, after = before<<2, after>>2
			qb, qa = qb-step, qa+step
		}
		// Beyond the rule's reach the keys are not kept: no entry reads
		// those cells (see keys).
	}
	b.stonePlaced(p, c)
}

// entryChanged stores e as the new pattern entry of the empty cell q in
// direction d, saving the cell's patterns and values first, and
// recomputes its values and their share of the totals. The totals move by
// the differences: a cell's combos mostly stay what they were, and then
// the combo counts are not touched.
func (b *Board) entryChanged(q Pos, d int, e uint8) {
	b.save(q)
	o := b.pats[q][d]
	b.pats[q][d] = e
	ci := &b.info[q]
	old := &b.saved[b.nSaved-1].info // as save just copied it
	// Only direction d's patterns changed: each side's ordered index
	// moves by that term (unsigned arithmetic wraps back into range).
	w := dirWeight[d]
	b.setCodes(ci, uint32(ci.idx[0])+(uint32(e&15)-uint32(o&15))*w, uint32(ci.idx[1])+(uint32(e>>4)-uint32(o>>4))*w)
	b.evalSum[0] += ci.eval[0] - old.eval[0]
	b.evalSum[1] += ci.eval[1] - old.eval[1]
	b.evalSum[2] += ci.eval[2] - old.eval[2]
	b.evalSum[3] += ci.eval[3] - old.eval[3]
	if cb := ci.combo[0]; cb != old.combo[0] {
		b.comboCount[0][old.combo[0]]--
		b.comboCount[0][cb]++
		b.hint[0][cb] = q
	}
	if cb := ci.combo[1]; cb != old.combo[1] {
		b.comboCount[1][old.combo[1]]--
		b.comboCount[1][cb]++
		b.hint[1][cb] = q
	}
}

// save pushes cell q's patterns and values on the change stack, field by
// field (see setInfo).
func (b *Board) save(q Pos) {
	s := &b.saved[b.nSaved]
	b.nSaved++
	s.pos = q
	s.pats = b.pats[q]
	s.info = b.info[q]
}

// take removes c from p, the exact reverse of put: keys are XORed back,
// and the saved patterns, values and totals restored (no table lookups).
func (b *Board) take(p Pos, c Color) {
	r := &b.history[b.ply]
	b.stoneRemoved(p, c)
	for d := 0; d < numDirs; d++ {
		step := b.dirs[d]
		before, after := uint32(c)<<slotShift(1), uint32(c)<<slotShift(-1)
		qb, qa := int(p)-step, int(p)+step
		for k := 1; k <= b.tabs.reach; k++ {
			b.keys[qb][d] ^= before
			b.keys[qa][d] ^= after
			before, after = before<<2, after>>2
			qb, qa = qb-step, qa+step
		}
	}
	b.cells[p] = Empty
	if c != Wall {
		b.stoneCnt--
		b.hash ^= b.zobrist[c-1][p]
	}
	for i := b.nSaved - 1; i >= r.start; i-- {
		s := &b.saved[i]
		b.pats[s.pos] = s.pats
		b.info[s.pos] = s.info
	}
	b.nSaved = r.start
	b.evalSum, b.comboCount = r.evalSum, r.comboCount
	b.hint, b.box = r.hint, r.box
}

// Pattern returns the pattern side c would make at the empty cell p along
// direction d (0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal). On
// an occupied cell it is meaningless.
func (b *Board) Pattern(p Pos, d int, c Color) Pattern {
	return patternOf(b.pats[p][d], c)
}

// Dir returns the array step of direction d, for walking a line.
func (b *Board) Dir(d int) int { return b.dirs[d] }

// Inner reports whether p is a cell of the board (not a wall cell).
func (b *Board) Inner(p Pos) bool { return p >= 0 && int(p) < maxCells && b.inside[p] }
