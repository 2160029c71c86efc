package eval

// A slow reference for the board's incremental state, written from the
// rule definitions in PROTOCOL.md and the Pattern/Combo documentation, and
// deliberately independent of the pattern tables, the line keys and the
// padded geometry: it reads stones through At into a plain grid and walks
// real board lines.

import (
	"fmt"
	"strings"
)

// refGrid is a plain copy of a board: row-major colours, nothing derived.
type refGrid struct {
	w, h int
	c    []Color
}

// refDirs are the four line directions in the board's order: horizontal,
// vertical, diagonal (down-right), anti-diagonal (down-left).
var refDirs = [numDirs][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}

func gridOf(b *Board) *refGrid {
	g := &refGrid{w: b.Width(), h: b.Height(), c: make([]Color, b.Width()*b.Height())}
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			g.c[y*g.w+x] = b.At(b.Pos(x, y))
		}
	}
	return g
}

// at returns the cell (x, y); off the board is Wall.
func (g *refGrid) at(x, y int) Color {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return Wall
	}
	return g.c[y*g.w+x]
}

func (g *refGrid) set(x, y int, c Color) { g.c[y*g.w+x] = c }

// run returns the extent [lo, hi] (in steps along d from (x, y)) of the
// unbroken row of colour c through (x, y), which must hold c.
func (g *refGrid) run(x, y, d int, c Color) (lo, hi int) {
	dx, dy := refDirs[d][0], refDirs[d][1]
	for g.at(x+(lo-1)*dx, y+(lo-1)*dy) == c {
		lo--
	}
	for g.at(x+(hi+1)*dx, y+(hi+1)*dy) == c {
		hi++
	}
	return lo, hi
}

// refExact reports whether only exactly five wins for c under r.
func refExact(r Rule, c Color) bool {
	return r == Standard || r == CaroExact || (r == Renju && c == Black)
}

// refWinsAt is the referee's check: would c playing the empty (x, y) make a
// winning row? Five or more (exactly five where the rule says so); under
// caro a row of exactly five does not win when both its ends are opponent
// stones (the edge is no block), and an overline (rule 8) always wins, as
// GomocupJudge referees it.
func refWinsAt(g *refGrid, r Rule, x, y int, c Color) bool {
	g.set(x, y, c)
	defer g.set(x, y, Empty)
	for d := 0; d < numDirs; d++ {
		if refRowWins(g, r, x, y, d, c) {
			return true
		}
	}
	return false
}

func refRowWins(g *refGrid, r Rule, x, y, d int, c Color) bool {
	lo, hi := g.run(x, y, d, c)
	n := hi - lo + 1
	if n < 5 || (n > 5 && refExact(r, c)) {
		return false
	}
	if (r == CaroFree || r == CaroExact) && n == 5 {
		dx, dy := refDirs[d][0], refDirs[d][1]
		if g.at(x+(lo-1)*dx, y+(lo-1)*dy) == c.Opp() && g.at(x+(hi+1)*dx, y+(hi+1)*dy) == c.Opp() {
			return false
		}
	}
	return true
}

// refClassifier classifies line patterns for one side under one rule, by
// the definitions of Pattern:
//   - F5: the stone makes a row that wins under the rule;
//   - Overline (renju Black): it makes six or more;
//   - fours: count the empty cells that, filled, make the centre's row win;
//     two or more is F4 (for renju Black: one four whose two cells close
//     one straight row is F4, two distinct fours are DoubleFour), one is B4;
//   - otherwise the best of what one more stone on the line makes: a
//     stone making F4 means F3, B4 means H3, F3 F2, H3 H2, F2 F1, H2 H1;
//     nothing of these is Dead.
//
// It works on the real line read from the grid: the centre and five cells
// each side. Beyond the fifth cell the line counts as open: that is the
// documented horizon of a Pattern and only matters for a caro row of six
// or more whose far end is out of sight, which exists only next to a row
// of five that has already won. The memo is keyed by those ten cells,
// which is all the classification reads.
type refClassifier struct {
	rule  Rule
	c     Color
	renju bool
	memo  []uint8 // 0 unknown, else pattern+1
}

func newRefClassifier(r Rule, c Color) *refClassifier {
	return &refClassifier{rule: r, c: c, renju: r == Renju && c == Black, memo: make([]uint8, 1<<20)}
}

// refLine is a line of 13 cells: index 6 is the centre, 1..11 the cells
// at offsets -5..5, and 0 and 12 stand for "beyond sight", always Empty.
type refLine [13]Color

const refCtr = 6

func (rc *refClassifier) pattern(g *refGrid, x, y, d int) Pattern {
	var l refLine
	dx, dy := refDirs[d][0], refDirs[d][1]
	for k := -5; k <= 5; k++ {
		l[refCtr+k] = g.at(x+k*dx, y+k*dy)
	}
	l[refCtr] = rc.c
	return rc.classify(l)
}

func (l *refLine) key() uint32 {
	var k uint32
	for i := 1; i <= 11; i++ {
		if i != refCtr {
			k = k<<2 | uint32(l[i])
		}
	}
	return k
}

// rowThroughCentre returns the run of rc.c through the centre.
func (rc *refClassifier) rowThroughCentre(l *refLine) (lo, hi int) {
	lo, hi = refCtr, refCtr
	for l[lo-1] == rc.c {
		lo--
	}
	for l[hi+1] == rc.c {
		hi++
	}
	return lo, hi
}

func (rc *refClassifier) centreWins(l *refLine) bool {
	lo, hi := rc.rowThroughCentre(l)
	n := hi - lo + 1
	if n < 5 || (n > 5 && refExact(rc.rule, rc.c)) {
		return false
	}
	if (rc.rule == CaroFree || rc.rule == CaroExact) && n == 5 && l[lo-1] == rc.c.Opp() && l[hi+1] == rc.c.Opp() {
		return false
	}
	return true
}

func (rc *refClassifier) classify(l refLine) Pattern {
	k := l.key()
	if m := rc.memo[k]; m != 0 {
		return Pattern(m - 1)
	}
	p := rc.compute(l)
	rc.memo[k] = uint8(p) + 1
	return p
}

func (rc *refClassifier) compute(l refLine) Pattern {
	if rc.centreWins(&l) {
		return F5
	}
	if lo, hi := rc.rowThroughCentre(&l); rc.renju && hi-lo+1 >= 6 {
		return Overline
	}
	points := 0
	fours := map[uint32]bool{} // the stone sets of distinct fours (bit i: cell i)
	for j := 1; j <= 11; j++ {
		if l[j] != Empty {
			continue
		}
		l[j] = rc.c
		if rc.centreWins(&l) {
			points++
			lo, hi := rc.rowThroughCentre(&l)
			var set uint32
			for i := lo; i <= hi; i++ {
				if i != j {
					set |= 1 << i
				}
			}
			fours[set] = true
		}
		l[j] = Empty
	}
	switch {
	case points >= 1 && rc.renju && len(fours) >= 2:
		return DoubleFour
	case points >= 2:
		return F4
	case points == 1:
		return B4
	}
	best := Dead
	for j := 1; j <= 11; j++ {
		if l[j] != Empty {
			continue
		}
		l[j] = rc.c
		next := rc.classify(l)
		l[j] = Empty
		grown := Dead
		switch next {
		case F4:
			grown = F3
		case B4:
			grown = H3
		case F3:
			grown = F2
		case H3:
			grown = H2
		case F2:
			grown = F1
		case H2:
			grown = H1
		}
		if grown > best {
			best = grown
		}
	}
	return best
}

// refCombo combines four reference patterns by the Combo documentation.
func refCombo(ps [numDirs]Pattern, renjuBlack bool) Combo {
	var n [numPatterns]int
	for _, p := range ps {
		n[p]++
	}
	fours := n[F4] + n[B4]
	switch {
	case n[F5] > 0:
		return ComboFive
	case renjuBlack && (n[Overline] > 0 || n[DoubleFour] > 0 || fours >= 2):
		return ComboForbidden
	case renjuBlack && n[F3] >= 2:
		return ComboDoubleThree
	case n[F4] > 0 || n[B4] >= 2:
		return ComboFlexFour
	case n[B4] == 1 && n[F3] > 0:
		return ComboFourThree
	case n[F3] >= 2:
		return ComboDoubleThree
	case n[B4] == 1:
		return ComboFour
	case n[F3] == 1:
		return ComboThree
	}
	return ComboNone
}

// refForbidden is the naive renju foul check for Black at the empty
// (x, y), straight from the rule: a five (exactly five) is never a foul;
// otherwise an overline, two or more fours, or two or more threes are.
// A four is a set of four black stones with the new one that one more
// stone turns into exactly five; fours are counted by those stone sets, so
// x_xXx_x is two fours and _xxXx_ one. A three is a line where one more
// stone makes a straight four (four in a row whose both ends make exactly
// five) containing the new stone, at a cell that is itself not forbidden
// with the new stone on the board (asked recursively). A line counts as a
// three only when it holds no four.
func refForbidden(g *refGrid, x, y int) bool {
	g.set(x, y, Black)
	defer g.set(x, y, Empty)
	for d := 0; d < numDirs; d++ {
		if lo, hi := g.run(x, y, d, Black); hi-lo+1 == 5 {
			return false
		}
	}
	for d := 0; d < numDirs; d++ {
		if lo, hi := g.run(x, y, d, Black); hi-lo+1 >= 6 {
			return true
		}
	}
	fours := 0
	var hasFour [numDirs]bool
	for d := 0; d < numDirs; d++ {
		n := refCountFours(g, x, y, d)
		fours += n
		hasFour[d] = n > 0
	}
	if fours >= 2 {
		return true
	}
	threes := 0
	for d := 0; d < numDirs; d++ {
		if !hasFour[d] && refHasThree(g, x, y, d) {
			threes++
		}
	}
	return threes >= 2
}

// refBlackNear reports whether another black stone lies within four steps
// of (x, y) along d; without one there is no four or three on that line.
func refBlackNear(g *refGrid, x, y, d int) bool {
	dx, dy := refDirs[d][0], refDirs[d][1]
	for k := -4; k <= 4; k++ {
		if k != 0 && g.at(x+k*dx, y+k*dy) == Black {
			return true
		}
	}
	return false
}

func refCountFours(g *refGrid, x, y, d int) int {
	if !refBlackNear(g, x, y, d) {
		return 0
	}
	dx, dy := refDirs[d][0], refDirs[d][1]
	// Each cell q that makes exactly five names a four: the five's stones
	// without q. Two cells naming the same stones (the ends of _xxxx_) are
	// one open four.
	fours := map[[4]int]bool{}
	for k := -4; k <= 4; k++ {
		qx, qy := x+k*dx, y+k*dy
		if k == 0 || g.at(qx, qy) != Empty {
			continue
		}
		g.set(qx, qy, Black)
		if lo, hi := g.run(x, y, d, Black); hi-lo+1 == 5 {
			var stones [4]int
			i := 0
			for p := lo; p <= hi; p++ {
				if p != k {
					stones[i] = p
					i++
				}
			}
			fours[stones] = true
		}
		g.set(qx, qy, Empty)
	}
	return len(fours)
}

func refHasThree(g *refGrid, x, y, d int) bool {
	if !refBlackNear(g, x, y, d) {
		return false
	}
	dx, dy := refDirs[d][0], refDirs[d][1]
	for k := -4; k <= 4; k++ {
		qx, qy := x+k*dx, y+k*dy
		if k == 0 || g.at(qx, qy) != Empty {
			continue
		}
		g.set(qx, qy, Black)
		straight := refStraightFour(g, x, y, d, k)
		g.set(qx, qy, Empty)
		if straight && !refForbidden(g, qx, qy) {
			return true
		}
	}
	return false
}

// refStraightFour reports whether the black row through (x, y) along d is
// exactly four long, holds the cell k steps away, and both cells at its
// ends are empty and make exactly five.
func refStraightFour(g *refGrid, x, y, d, k int) bool {
	lo, hi := g.run(x, y, d, Black)
	if hi-lo+1 != 4 || k < lo || k > hi {
		return false
	}
	dx, dy := refDirs[d][0], refDirs[d][1]
	for _, e := range [2]int{lo - 1, hi + 1} {
		ex, ey := x+e*dx, y+e*dy
		if g.at(ex, ey) != Empty {
			return false
		}
		g.set(ex, ey, Black)
		l, h := g.run(x, y, d, Black)
		g.set(ex, ey, Empty)
		if h-l+1 != 5 {
			return false
		}
	}
	return true
}

// String draws the grid: x black, o white, # wall/block, . empty.
func (g *refGrid) String() string {
	var sb strings.Builder
	sb.WriteString("   ")
	for x := 0; x < g.w; x++ {
		fmt.Fprintf(&sb, "%2d", x%100)
	}
	sb.WriteByte('\n')
	for y := 0; y < g.h; y++ {
		fmt.Fprintf(&sb, "%2d ", y)
		for x := 0; x < g.w; x++ {
			sb.WriteString(" " + string(".xo#"[g.at(x, y)]))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
