package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
)

// refSet holds the reference classifiers of one rule (memos are shared by
// all games of the rule within one test).
type refSet struct {
	rule Rule
	cls  [2]*refClassifier
}

func newRefSet(r Rule) *refSet {
	return &refSet{rule: r, cls: [2]*refClassifier{newRefClassifier(r, Black), newRefClassifier(r, White)}}
}

// compareOpts selects the slower comparisons.
type compareOpts struct {
	forbidden bool // IsForbidden of every empty cell against refForbidden
	wins      bool // WinsAt of every empty cell for both sides
}

// compareWithReference checks every piece of the board's incremental state
// against a from-scratch recount over its stones. It returns a description
// of the first difference, or "".
func compareWithReference(b *Board, rs *refSet, o compareOpts) string {
	g := gridOf(b)
	where := func(p Pos) string {
		x, y := b.XY(p)
		return fmt.Sprintf("(%d,%d)", x, y)
	}

	// Zobrist key over the stones and the side to move.
	var h uint64
	stones := 0
	for _, p := range b.Cells() {
		if c := b.At(p); c == Black || c == White {
			h ^= b.zobrist[c-1][p]
			stones++
		}
	}
	if b.SideToMove() == White {
		h ^= b.zobSide
	}
	if h != b.Hash() {
		return fmt.Sprintf("hash %x, recomputed %x", b.Hash(), h)
	}
	// HashAfter: the key once the side to move has played an empty cell.
	for _, p := range b.Cells() {
		if b.At(p) == Empty {
			if want := h ^ b.zobrist[b.SideToMove()-1][p] ^ b.zobSide; b.HashAfter(p) != want {
				return fmt.Sprintf("HashAfter%s %x, recomputed %x", where(p), b.HashAfter(p), want)
			}
		}
	}
	if stones != b.Stones() {
		return fmt.Sprintf("Stones %d, counted %d", b.Stones(), stones)
	}

	// Attack and defence sums per colour, the opening's tables then the
	// late game's.
	var evalSum, evalSumD [4]int32
	var counts [2][NumCombos]int
	empties := 0
	for _, p := range b.Cells() {
		x, y := b.XY(p)
		if b.At(p) != Empty {
			continue
		}
		empties++
		// Stones within two cells.
		near := 0
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if c := g.at(x+dx, y+dy); c == Black || c == White {
					near++
				}
			}
		}
		if int(b.near[p]) != near {
			return fmt.Sprintf("near%s = %d, counted %d", where(p), b.near[p], near)
		}
		// The line keys of an empty cell: its neighbours' colours, read
		// off the grid (off the board: wall).
		for d := 0; d < numDirs; d++ {
			dx, dy := refDirs[d][0], refDirs[d][1]
			var key uint32
			for k := -b.tabs.reach; k <= b.tabs.reach; k++ {
				if k != 0 {
					key |= uint32(g.at(x+k*dx, y+k*dy)) << slotShift(k)
				}
			}
			if b.keys[p][d] != key {
				return fmt.Sprintf("line key%s dir %d = %#x, recounted %#x", where(p), d, b.keys[p][d], key)
			}
		}
		alive := false
		for s, c := range [2]Color{Black, White} {
			var ps [numDirs]Pattern
			var mv int32
			for d := 0; d < numDirs; d++ {
				want := rs.cls[s].pattern(g, x, y, d)
				if got := b.Pattern(p, d, c); got != want {
					return fmt.Sprintf("Pattern%s dir %d %v = %v, reference %v", where(p), d, c, got, want)
				}
				ps[d] = want
				mv += patternMoveValue[want]
				alive = alive || want != Dead
			}
			cb := refCombo(ps, rs.rule == Renju && c == Black)
			if got := b.Combo(p, c); got != cb {
				return fmt.Sprintf("Combo%s %v = %v, reference %v (patterns %v)", where(p), c, got, cb, ps)
			}
			mv += comboMoveValue[cb]
			if got := b.MoveValue(p, c); got != mv {
				return fmt.Sprintf("MoveValue%s %v = %d, recomputed %d", where(p), c, got, mv)
			}
			code := refShapeCode(ps)
			if got := b.CellCode(p, c); got != code {
				return fmt.Sprintf("CellCode%s %v = %d, reference %d (patterns %v)", where(p), c, got, code, ps)
			}
			v := b.ev.val[s][code]
			evalSum[s] += int32(v.attack)
			evalSumD[s] += int32(v.defend)
			evalSum[2+s] += int32(v.attackLate)
			evalSumD[2+s] += int32(v.defendLate)
			counts[s][cb]++
			if o.wins {
				if got, want := b.WinsAt(p, c), refWinsAt(g, rs.rule, x, y, c); got != want {
					return fmt.Sprintf("WinsAt%s %v = %v, reference %v", where(p), c, got, want)
				}
			}
		}
		if b.Alive(p) != alive {
			return fmt.Sprintf("Alive%s = %v, reference %v", where(p), b.Alive(p), alive)
		}
		if o.forbidden {
			want := rs.rule == Renju && refForbidden(g, x, y)
			if got := b.IsForbidden(p); got != want {
				return fmt.Sprintf("IsForbidden%s = %v, reference %v", where(p), got, want)
			}
		}
	}
	if empties != b.Empties() {
		return fmt.Sprintf("Empties %d, counted %d", b.Empties(), empties)
	}
	for s, c := range [2]Color{Black, White} {
		for cb := Combo(0); cb < NumCombos; cb++ {
			if got := b.ComboCount(c, cb); got != counts[s][cb] {
				return fmt.Sprintf("ComboCount(%v, %v) = %d, counted %d", c, cb, got, counts[s][cb])
			}
		}
	}
	// The board's sums per side to move and phase: attack less the
	// opponent's defence.
	for s := 0; s < 2; s++ {
		for ph := 0; ph < 4; ph += 2 {
			if want := evalSum[ph+s] - evalSumD[ph+1-s]; b.evalSum[ph+s] != want {
				return fmt.Sprintf("eval sum %d = %d, recomputed %d", ph+s, b.evalSum[ph+s], want)
			}
		}
	}
	us, them := b.SideToMove()-1, 2-b.SideToMove()
	mask := refThreatBits(counts[us]) | refThreatBits(counts[them])<<5
	if mask != b.ThreatMask() {
		return fmt.Sprintf("ThreatMask = %#x, recomputed %#x", b.ThreatMask(), mask)
	}
	// The phase blend, recomputed in floating point (exact: the weights
	// are multiples of 1/64), rounded down as the board's integer blend.
	phi := float64(Phase(stones)) / PhaseScale
	blend := (1-phi)*float64(evalSum[us]-evalSumD[them]) + phi*float64(evalSum[2+us]-evalSumD[2+them])
	if want := int32(math.Floor(blend)) + b.ev.threat[us][mask]; b.Evaluate() != want {
		return fmt.Sprintf("Evaluate = %d, recomputed %d", b.Evaluate(), want)
	}
	// FirstCombo: a cell with the combo exactly when the recount has one.
	for s, c := range [2]Color{Black, White} {
		for cb := Combo(0); cb < NumCombos; cb++ {
			p := b.FirstCombo(c, cb)
			if (p == NoPos) != (counts[s][cb] == 0) {
				return fmt.Sprintf("FirstCombo(%v, %v) = %v with %d such cells", c, cb, p, counts[s][cb])
			}
			if p != NoPos && (b.At(p) != Empty || b.Combo(p, c) != cb) {
				return fmt.Sprintf("FirstCombo(%v, %v) = %s, which has %v", c, cb, where(p), b.Combo(p, c))
			}
		}
	}
	// Candidates: the naive scan of every cell, in the same order.
	var naive []Pos
	for _, p := range b.Cells() {
		if b.IsEmpty(p) && b.Near(p) && b.Alive(p) {
			naive = append(naive, p)
		}
	}
	if got := b.Candidates(nil); fmt.Sprint(got) != fmt.Sprint(naive) {
		return fmt.Sprintf("Candidates %v, naive scan %v", got, naive)
	}
	// StoneBounds: the recounted rectangle of the stones.
	minX, minY, maxX, maxY, any := g.w, g.h, -1, -1, false
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			if c := g.at(x, y); c == Black || c == White {
				minX, minY, maxX, maxY, any = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y), true
			}
		}
	}
	if x0, y0, x1, y1, ok := b.StoneBounds(); ok != any || (ok && [4]int{x0, y0, x1, y1} != [4]int{minX, minY, maxX, maxY}) {
		return fmt.Sprintf("StoneBounds %v %v, recount %v %v", [4]int{x0, y0, x1, y1}, ok, [4]int{minX, minY, maxX, maxY}, any)
	}
	if lm := b.LastMove(); lm != NoPos {
		_, c := b.MoveAt(b.Ply() - 1)
		want := false
		if c != Wall {
			x, y := b.XY(lm)
			g.set(x, y, Empty)
			want = refWinsAt(g, rs.rule, x, y, c)
			g.set(x, y, c)
		}
		if got := b.LastMoveWins(); got != want {
			return fmt.Sprintf("LastMoveWins after %s = %v, reference %v", where(lm), got, want)
		}
	}
	return ""
}

// sameAsFresh reports whether a board brought back to empty by Undo has
// the same incremental state as a new board.
func sameAsFresh(b *Board) string {
	f, _ := NewBoard(b.Width(), b.Height(), b.Rule())
	f.ev, f.rows = b.ev, b.rows
	f.Clear()
	switch {
	case b.keys != f.keys:
		return "line keys"
	case b.pats != f.pats:
		return "patterns"
	case b.cellState != f.cellState:
		return "cell state"
	case b.hash != f.hash || b.sideToMove != f.sideToMove || b.ply != f.ply || b.stoneCnt != f.stoneCnt:
		return "hash, side, ply or stone count"
	}
	return ""
}

// randomGame plays a random game near the centre of a w×h board, with
// undos mixed in and an occasional blocked cell, comparing the board with
// the reference after every step. Games go on past wins: the patterns must
// stay right in any position.
func randomGame(t *testing.T, rs *refSet, w, h int, seed uint64, steps int, o compareOpts) {
	t.Helper()
	b, err := NewBoard(w, h, rs.rule)
	if err != nil {
		t.Fatal(err)
	}
	if seed%2 == 1 {
		// Random tables, the late game's unlike the opening's: the
		// sums and the phase blend must be right for any weights.
		b.SetWeights(randomWeights(FamilyOf(rs.rule), seed))
	}
	rng := rand.New(rand.NewPCG(seed, uint64(w)<<8|uint64(h)))
	var log []string
	fail := func(msg string) {
		t.Fatalf("%v %dx%d seed %d after %v:\n%s\n%s", rs.rule, w, h, seed, log, msg, gridOf(b))
	}
	if msg := compareWithReference(b, rs, o); msg != "" {
		fail(msg)
	}
	cx, cy := w/2, h/2
	for i := 0; i < steps; i++ {
		if b.Ply() > 0 && rng.IntN(4) == 0 {
			b.Undo()
			log = append(log, "undo")
		} else {
			x, y := cx+rng.IntN(11)-5, cy+rng.IntN(11)-5
			if !b.Inside(x, y) || !b.IsEmpty(b.Pos(x, y)) {
				continue
			}
			p := b.Pos(x, y)
			switch r := rng.IntN(60); {
			case r == 0:
				b.Block(p)
				log = append(log, fmt.Sprintf("block %d,%d", x, y))
			case r == 1:
				b.PlayColor(p, b.SideToMove().Opp())
				log = append(log, fmt.Sprintf("color %d,%d", x, y))
			default:
				b.Play(p)
				log = append(log, fmt.Sprintf("%d,%d", x, y))
			}
		}
		if msg := compareWithReference(b, rs, o); msg != "" {
			fail(msg)
		}
	}
	for b.Ply() > 0 {
		b.Undo()
	}
	if msg := compareWithReference(b, rs, o); msg != "" {
		fail(msg)
	}
	b.SetSideToMove(Black)
	if msg := sameAsFresh(b); msg != "" {
		fail("after undoing everything the board differs from a new one: " + msg)
	}
}

// TestIncrementalAgainstReference compares the incremental board with the
// from-scratch reference after every Play, PlayColor, Block and Undo of
// many random games, for every rule and several board shapes.
func TestIncrementalAgainstReference(t *testing.T) {
	type shape struct{ w, h, games int }
	// 400 games per rule, 2,000 in all; -short and -race run fewer.
	games := func(n int) int {
		switch {
		case testing.Short():
			return max(1, n/20)
		case raceDetector:
			return max(1, n/12)
		}
		return n
	}
	shapes := []shape{{15, 15, games(140)}, {20, 20, games(100)}, {7, 7, games(60)}, {9, 14, games(40)}, {20, 6, games(40)}, {5, 5, games(20)}}
	for _, r := range []Rule{Freestyle, Standard, Renju, CaroFree, CaroExact} {
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			rs := newRefSet(r)
			for _, s := range shapes {
				for i := 0; i < s.games; i++ {
					o := compareOpts{forbidden: r == Renju, wins: i%4 == 0}
					randomGame(t, rs, s.w, s.h, uint64(i), 80, o)
				}
			}
		})
	}
}

// TestBoardCopy checks that a copied board is independent of the original,
// also when both are used at once from two goroutines (run with -race).
func TestBoardCopy(t *testing.T) {
	b := midgame(t, 15, Renju, 20, 3)
	h, ev := b.Hash(), b.Evaluate()
	c := new(Board)
	*c = *b
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range c.Candidates(nil) {
			c.Play(p)
			c.IsForbidden(c.Pos(7, 7))
			c.Undo()
		}
		c.Clear()
		c.Play(c.Pos(3, 3))
	}()
	for _, p := range b.Candidates(nil) {
		b.Play(p)
		b.Undo()
	}
	<-done
	if b.Hash() != h || b.Evaluate() != ev || b.Ply() != 20 {
		t.Errorf("the original changed with its copy")
	}
	if c.Ply() != 1 || c.Stones() != 1 {
		t.Errorf("copy: ply %d, stones %d after Clear and one move", c.Ply(), c.Stones())
	}
	b.Clear()
	if msg := sameAsFresh(b); msg != "" {
		t.Errorf("Clear leaves a board unlike a new one: %s", msg)
	}
}

// refShapeCode is the shape code of four patterns found by search: the
// index, in CodePatterns order, of the sorted patterns.
func refShapeCode(ps [numDirs]Pattern) int {
	sort.Slice(ps[:], func(i, j int) bool { return ps[i] < ps[j] })
	if c, ok := refCodes()[ps]; ok {
		return c
	}
	return -1
}

// refCodes maps each code's sorted patterns back to the code.
var refCodes = sync.OnceValue(func() map[[numDirs]Pattern]int {
	m := map[[numDirs]Pattern]int{}
	for c := 0; c < NumCodes; c++ {
		m[CodePatterns(c)] = c
	}
	if len(m) != NumCodes {
		panic("shape codes are not distinct")
	}
	return m
})

// refThreatBits is a side's threat mask from its combo counts.
func refThreatBits(n [NumCombos]int) int {
	m := 0
	for i, cb := range []Combo{ComboThree, ComboFour, ComboDoubleThree, ComboFourThree, ComboFlexFour} {
		if n[cb] > 0 {
			m |= 1 << i
		}
	}
	return m
}
