package eval

import (
	"fmt"
	"strings"
	"testing"
)

// boardFrom sets up a position from rows of a diagram, top-left corner at
// (0, 0): x Black, o White, . empty, * the cell under test (empty). It
// returns the board (Black to move) and the position of *.
func boardFrom(t *testing.T, w, h int, r Rule, rows ...string) (*Board, Pos) {
	t.Helper()
	b, err := NewBoard(w, h, r)
	if err != nil {
		t.Fatal(err)
	}
	at := NoPos
	for y, row := range rows {
		for x, tok := range strings.Fields(row) {
			p := b.Pos(x, y)
			switch tok {
			case "x":
				b.PlayColor(p, Black)
			case "o":
				b.PlayColor(p, White)
			case "*":
				at = p
			case ".":
			default:
				t.Fatalf("bad token %q", tok)
			}
		}
	}
	b.SetSideToMove(Black)
	return b, at
}

// TestRenjuFouls checks IsForbidden on hand-made positions, each also
// checked by the naive reference.
func TestRenjuFouls(t *testing.T) {
	cases := []struct {
		name      string
		forbidden bool
		combo     Combo // Black's combo at *
		rows      []string
	}{
		{"double three", true, ComboDoubleThree, []string{
			". . . . . . . . .",
			". . . . . . . . .",
			". . . . x . . . .",
			". . . . x . . . .",
			". . x x * . . . .",
			". . . . . . . . .",
			". . . . . . . . .",
		}},
		{"double three, split threes", true, ComboDoubleThree, []string{
			". . . . . . . . .",
			". . . . x . . . .",
			". . . . . . . . .",
			". . . . x . . . .",
			". . x . * x . . .",
			". . . . . . . . .",
			". . . . . . . . .",
		}},
		{"three and closed three", false, ComboThree, []string{
			". . . . . . . . .",
			". . . . o . . . .",
			". . . . x . . . .",
			". . . . x . . . .",
			". . x x * . . . .",
			". . . . . . . . .",
			". . . . . . . . .",
		}},
		// The vertical three's straight fours are made at (7,6) and
		// (7,10), and both are overlines (rows 6 and 10): it is no real
		// three, so * has one three only.
		{"double three, one fake: its four points are forbidden", false, ComboDoubleThree, []string{
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . x x x . x x . . .",
			". . . . . x x * . . . . .",
			". . . . . . . x . . . . .",
			". . . . . . . x . . . . .",
			". . . . x x x . x x . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
		}},
		// The same shape without the overline rows is a foul.
		{"double three, control", true, ComboDoubleThree, []string{
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
			". . . . . x x * . . . . .",
			". . . . . . . x . . . . .",
			". . . . . . . x . . . . .",
			". . . . . . . . . . . . .",
			". . . . . . . . . . . . .",
		}},
		// x . . x x * . . x: either straight four would run into an
		// overline, so the horizontal line is no three.
		{"double three, one fake: straight four blocked by overline", false, ComboThree, []string{
			". . . . . . . . . . . .",
			". . . . . . . . . . . .",
			". . . . . x . . . . . .",
			". . . . . x . . . . . .",
			"x . . x x * . . x . . .",
			". . . . . . . . . . . .",
			". . . . . . . . . . . .",
		}},
		{"four-four in one line", true, ComboForbidden, []string{
			". . . . . . . . .",
			". x . x * x . x .",
			". . . . . . . . .",
		}},
		{"four-four in one line, xx.*x.xx", true, ComboForbidden, []string{
			". . . . . . . . . .",
			"x x . * x . x x . .",
			". . . . . . . . . .",
		}},
		{"four-four in two lines", true, ComboForbidden, []string{
			". . . . o . .",
			". . . . x . .",
			". . . . x . .",
			". . . . x . .",
			"o x x x * . .",
			". . . . . . .",
		}},
		{"overline", true, ComboForbidden, []string{
			". . . . . . . . .",
			". x x x * x x . .",
			". . . . . . . . .",
		}},
		{"five with a four-four is a win", false, ComboFive, []string{
			"o . . . o . . . .",
			". x . . x . . . .",
			". . x . x . . . .",
			". . . x x . . . .",
			". . x x * x x . .",
			". . . . . . . . .",
			". . . . . . . . .",
		}},
		{"five with an overline in an earlier direction is a win", false, ComboFive, []string{
			". . . . . . . . .",
			". . . x . . . . .",
			". . . x . . . . .",
			"x x x * x x . . .",
			". . . x . . . . .",
			". . . x . . . . .",
			". . . . . . . . .",
		}},
		{"five with a double three is a win", false, ComboFive, []string{
			". . . . . . . . .",
			". . . . x . . . .",
			". . . . x . . . .",
			". . . . . . . . .",
			"x x x x * . x x .",
			". . . x . . . . .",
			". . x . . . . . .",
		}},
		{"four-three is legal", false, ComboFourThree, []string{
			". . . . o . . .",
			". . . . x . . .",
			". . . . x . . .",
			". . . . x . . .",
			". . x x * . . .",
			". . . . . . . .",
			". . . . . . . .",
		}},
		{"open four is legal", false, ComboFlexFour, []string{
			". . . . . . . .",
			". x x x * . . .",
			". . . . . . . .",
		}},
		// The horizontal line's own four points (2,7) and (6,7) are
		// overlines, so x x * is no real three; (8,7) does make a
		// straight four on that line (8..11), but one without *, so it
		// does not make * a three. With the vertical three, * has one
		// three.
		{"three borrowed from another group on the line is no three", false, ComboDoubleThree, []string{
			". . . . . . . . . . . . . . .",
			". . . . . . . . . . . . . . .",
			". . . . . . . . . . . . . . .",
			". . . . . . . . . . . . . . .",
			". . x . . . x . . . . . . . .",
			". . x . . x x . . . . . . . .",
			". . x . . x x . . . . . . . .",
			". . . x x * . . . x x x . . .",
			". . x . . . x . . . . . . . .",
			". . x . . . x . . . . . . . .",
			". . . . . . . . . . . . . . .",
			". . . . . . . . . . . . . . .",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, at := boardFrom(t, 15, 15, Renju, tc.rows...)
			if at == NoPos {
				t.Fatal("no * in the diagram")
			}
			x, y := b.XY(at)
			ref := refForbidden(gridOf(b), x, y)
			got := b.IsForbidden(at)
			if got != tc.forbidden || ref != tc.forbidden {
				t.Errorf("IsForbidden(%d,%d) = %v, reference %v, want %v\n%s", x, y, got, ref, tc.forbidden, gridOf(b))
			}
			if cb := b.Combo(at, Black); cb != tc.combo {
				t.Errorf("Combo(%d,%d) = %v, want %v", x, y, cb, tc.combo)
			}
			// ForbiddenCells agrees with IsForbidden everywhere.
			fc := map[Pos]bool{}
			for _, p := range b.ForbiddenCells() {
				fc[p] = true
			}
			for _, p := range b.Cells() {
				if b.IsEmpty(p) && fc[p] != b.IsForbidden(p) {
					t.Errorf("ForbiddenCells and IsForbidden disagree at %v", p)
				}
			}
			// No rule but renju forbids anything.
			for _, r := range []Rule{Freestyle, Standard, CaroFree, CaroExact} {
				o, _ := boardFrom(t, 15, 15, r, tc.rows...)
				if o.IsForbidden(o.Pos(x, y)) || len(o.ForbiddenCells()) != 0 {
					t.Errorf("%v forbids a move", r)
				}
			}
		})
	}
}

// playMoves plays "x,y;x,y;..." in order from an empty board.
func playMoves(t *testing.T, b *Board, moves string) {
	t.Helper()
	for _, m := range strings.Split(moves, ";") {
		var x, y int
		if _, err := fmt.Sscanf(m, "%d,%d", &x, &y); err != nil || !b.Inside(x, y) || !b.IsEmpty(b.Pos(x, y)) {
			t.Fatalf("bad move %q", m)
		}
		b.Play(b.Pos(x, y))
	}
}

// TestRuleChecks answers, at the board level, the positions Gomocup checks
// every entry with (testdata/rule_checks.tsv).
func TestRuleChecks(t *testing.T) {
	fourRow := "7,7;7,8;8,7;8,8;9,7;9,8;10,7;10,8"
	for _, tc := range []struct {
		name  string
		rule  Rule
		size  int
		moves string
		check func(t *testing.T, b *Board)
	}{
		{"freestyle-20-all", Freestyle, 20, fourRow, wantWins(Black, [2]int{6, 7}, [2]int{11, 7})},
		{"freestyle-15-all", Freestyle, 15, fourRow, wantWins(Black, [2]int{6, 7}, [2]int{11, 7})},
		{"standard-15-all", Standard, 15, fourRow, wantWins(Black, [2]int{6, 7}, [2]int{11, 7})},
		{"renju-15-all", Renju, 15, fourRow, wantWins(Black, [2]int{6, 7}, [2]int{11, 7})},
		{"caro-15-all", CaroFree, 15, fourRow, wantWins(Black, [2]int{6, 7}, [2]int{11, 7})},
		{"standard-15-specific", Standard, 15, "7,7;7,8;8,7;7,9;6,7;7,10;9,12;7,11;6,13;7,13;8,14", func(t *testing.T, b *Board) {
			// White's h13 makes six: no win under exact five; Black's
			// open three must be blocked at 5,7 or 9,7.
			if b.SideToMove() != White || b.WinsAt(b.Pos(7, 12), White) {
				t.Errorf("7,12 must not win for White under standard")
			}
			for _, p := range [][2]int{{5, 7}, {9, 7}} {
				if cb := b.Combo(b.Pos(p[0], p[1]), Black); cb != ComboFlexFour {
					t.Errorf("Black's combo at %v = %v, want an open four", p, cb)
				}
			}
			if b.ComboCount(White, ComboFive) != 0 {
				t.Errorf("White has a five cell under standard")
			}
		}},
		{"renju-15-specific", Renju, 15, "7,7;7,8;8,6;8,8;7,9;8,5;8,10;8,11", func(t *testing.T, b *Board) {
			if !b.IsForbidden(b.Pos(6, 8)) {
				t.Errorf("g9 (6,8) must be forbidden for Black")
			}
		}},
		{"caro-15-specific", CaroFree, 15, "7,7;5,7;6,7;5,8;8,7;5,6;9,7;11,7", func(t *testing.T, b *Board) {
			// k8 gives a five blocked at both ends: no win in caro.
			if b.WinsAt(b.Pos(10, 7), Black) {
				t.Errorf("10,7 must not win for Black under caro")
			}
			if b.Pattern(b.Pos(10, 7), 0, Black) == F5 || b.Combo(b.Pos(10, 7), Black) == ComboFive {
				t.Errorf("10,7 classified as a five under caro")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBoard(tc.size, tc.size, tc.rule)
			if err != nil {
				t.Fatal(err)
			}
			playMoves(t, b, tc.moves)
			tc.check(t, b)
		})
	}
	// The same caro position under freestyle: k8 wins.
	b, _ := NewBoard(15, 15, Freestyle)
	playMoves(t, b, "7,7;5,7;6,7;5,8;8,7;5,6;9,7;11,7")
	if !b.WinsAt(b.Pos(10, 7), Black) {
		t.Errorf("10,7 must win for Black under freestyle")
	}
}

// wantWins checks that c wins at exactly the given cells, both by WinsAt
// and by the combos (two cells with ComboFive).
func wantWins(c Color, cells ...[2]int) func(t *testing.T, b *Board) {
	return func(t *testing.T, b *Board) {
		t.Helper()
		if b.SideToMove() != c {
			t.Fatalf("side to move %v, want %v", b.SideToMove(), c)
		}
		want := map[Pos]bool{}
		for _, xy := range cells {
			want[b.Pos(xy[0], xy[1])] = true
		}
		for _, p := range b.Cells() {
			if !b.IsEmpty(p) {
				continue
			}
			if b.WinsAt(p, c) != want[p] || (b.Combo(p, c) == ComboFive) != want[p] {
				x, y := b.XY(p)
				t.Errorf("%d,%d: WinsAt %v, combo %v, want win %v", x, y, b.WinsAt(p, c), b.Combo(p, c), want[p])
			}
		}
		if n := b.ComboCount(c, ComboFive); n != len(cells) {
			t.Errorf("ComboCount five = %d, want %d", n, len(cells))
		}
	}
}
