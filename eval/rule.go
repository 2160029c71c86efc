package eval

import "fmt"

// Rule is the winning and forbidden-move rule of a game. Its values are the
// protocol's `INFO rule` numbers.
type Rule uint8

// The rules Wuzi plays.
const (
	// Freestyle: five or more in a row wins (rule 0).
	Freestyle Rule = 0
	// Standard: exactly five wins; an overline is no win (rule 1).
	Standard Rule = 1
	// Renju: Black wins with exactly five and may not make an overline, a
	// double four or a double three; White wins with five or more (rule 4).
	Renju Rule = 4
	// CaroFree: a row of exactly five wins unless opponent stones block
	// both its ends (the board edge is no block); six or more wins however
	// it is blocked, as GomocupJudge referees rule 8.
	CaroFree Rule = 8
	// CaroExact: like CaroFree, but only exactly five wins (rule 9).
	CaroExact Rule = 9
)

// ParseRule maps an `INFO rule` value to a Rule. The value is a bit mask
// (1 exactly five, 2 continuous game, 4 renju, 8 caro); Yixin-Board sends 2
// for renju, so a lone 2 means renju. The continuous-game bit is otherwise
// ignored: it changes nothing about what wins.
func ParseRule(v int) (Rule, error) {
	if v < 0 || v > 15 {
		return 0, fmt.Errorf("unsupported rule %d", v)
	}
	if v == 2 {
		return Renju, nil
	}
	switch {
	case v&8 != 0 && v&4 != 0:
		return 0, fmt.Errorf("unsupported rule %d: renju and caro together", v)
	case v&8 != 0:
		if v&1 != 0 {
			return CaroExact, nil
		}
		return CaroFree, nil
	case v&4 != 0:
		return Renju, nil
	case v&1 != 0:
		return Standard, nil
	}
	return Freestyle, nil
}

// String names the rule.
func (r Rule) String() string {
	switch r {
	case Freestyle:
		return "freestyle"
	case Standard:
		return "standard"
	case Renju:
		return "renju"
	case CaroFree:
		return "caro"
	case CaroExact:
		return "caro-exact"
	}
	return fmt.Sprintf("rule(%d)", uint8(r))
}

// Valid reports whether r is one of the rules above.
func (r Rule) Valid() bool {
	switch r {
	case Freestyle, Standard, Renju, CaroFree, CaroExact:
		return true
	}
	return false
}

// exactFive reports whether only a row of exactly five wins for color c.
func (r Rule) exactFive(c Color) bool {
	switch r {
	case Standard, CaroExact:
		return true
	case Renju:
		return c == Black
	}
	return false
}

// caro reports whether a five blocked at both ends does not win.
func (r Rule) caro() bool { return r == CaroFree || r == CaroExact }

// Color is the content of a cell: empty, a stone, or the wall beyond the
// board's edge.
type Color uint8

// Cell contents. Black moves first.
const (
	Empty Color = 0
	Black Color = 1
	White Color = 2
	Wall  Color = 3
)

// Opp returns the other side's colour (Black for White and back).
func (c Color) Opp() Color { return c ^ 3 }

// String names the colour.
func (c Color) String() string {
	switch c {
	case Empty:
		return "empty"
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "wall"
}
