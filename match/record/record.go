// Package record writes finished games to disk in the formats other tools
// read: Piskvork's PSQ (one game a file) and SGF (GM[4], any number of games
// in a collection), and draws a final position as text for a terminal.
//
// It knows nothing of rules or engines: a Game is plain data the referee
// fills in.
package record

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Move is one stone of a game: X is the column and Y the row, 0-based from
// the top-left corner; Time is the thinking time (0 for opening stones).
type Move struct {
	X, Y int
	Time time.Duration
}

// Outcome says who won a game.
type Outcome int

// The outcomes of a game.
const (
	Draw Outcome = iota
	BlackWins
	WhiteWins
)

// Game is a finished game.
type Game struct {
	Width, Height int
	RuleName      string    // e.g. "freestyle", written to SGF RU
	Black, White  string    // engine names
	Date          time.Time // when the game started
	Opening       int       // how many of Moves are opening stones
	Moves         []Move    // every stone in play order, Black first
	Outcome       Outcome
	// Reason is how the game ended, e.g. "five", "foul", "time-out".
	Reason string
	// Failure is true when the loser lost by a time-out, crash, illegal or
	// unparseable answer rather than on the board.
	Failure bool
}

// cleanName keeps a name on one line; PSQ readers take the whole line.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	if s == "" {
		return "unnamed"
	}
	return s
}

// WritePSQ writes g in Piskvork's PSQ format:
//
//	Piskvorky 15x15, 11:11, 0
//	8,8,0            one line per stone: x,y,milliseconds, 1-based
//	...
//	black name
//	white name
//	0                0 after a regular end (five, foul, draw), -1 after a failure
//
// The header holds the board size, the two players' levels (11 marks a
// computer player, as tournament files carry) and 0 (the first listed
// player, Black, moved first).
func WritePSQ(w io.Writer, g *Game) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Piskvorky %dx%d, 11:11, 0\n", g.Width, g.Height)
	for _, m := range g.Moves {
		fmt.Fprintf(&b, "%d,%d,%d\n", m.X+1, m.Y+1, m.Time.Milliseconds())
	}
	fmt.Fprintf(&b, "%s\n%s\n", cleanName(g.Black), cleanName(g.White))
	code := 0
	if g.Failure {
		code = -1
	}
	fmt.Fprintf(&b, "%d\n", code)
	_, err := io.WriteString(w, b.String())
	return err
}

// sgfCoord is one SGF coordinate letter: a–z, then A–Z (FF[4]).
func sgfCoord(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

// sgfText escapes a text value.
func sgfText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `]`, `\]`)
	return r.Replace(s)
}

// SGFResult is the RE value of g: "B+" or "W+" after a win on the board,
// with "T" for a time-out and "F" for a forfeit (foul, crash, illegal or
// unparseable answer); "0" for a draw.
func SGFResult(g *Game) string {
	var side string
	switch g.Outcome {
	case BlackWins:
		side = "B+"
	case WhiteWins:
		side = "W+"
	default:
		return "0"
	}
	switch {
	case g.Reason == "time-out":
		return side + "T"
	case g.Failure || g.Reason == "foul":
		return side + "F"
	}
	return side
}

// WriteSGF writes g as one SGF game tree (GM[4], Gomoku and Renju). Opening
// stones are ordinary moves, so the tree replays the game from an empty
// board; the root comment says how it ended and how many stones were the
// opening. Several calls on one file make a valid collection.
func WriteSGF(w io.Writer, g *Game) error {
	var b strings.Builder
	b.WriteString("(;FF[4]GM[4]CA[UTF-8]AP[wuzi-match]")
	if g.Width == g.Height {
		fmt.Fprintf(&b, "SZ[%d]", g.Width)
	} else {
		fmt.Fprintf(&b, "SZ[%d:%d]", g.Width, g.Height)
	}
	if g.RuleName != "" {
		fmt.Fprintf(&b, "RU[%s]", sgfText(g.RuleName))
	}
	fmt.Fprintf(&b, "PB[%s]PW[%s]", sgfText(g.Black), sgfText(g.White))
	if !g.Date.IsZero() {
		fmt.Fprintf(&b, "DT[%s]", g.Date.Format("2006-01-02"))
	}
	fmt.Fprintf(&b, "RE[%s]C[%s; opening %d stones]", SGFResult(g), sgfText(g.Reason), g.Opening)
	for i, m := range g.Moves {
		if i%10 == 0 {
			b.WriteByte('\n')
		}
		c := byte('B')
		if i%2 == 1 {
			c = 'W'
		}
		fmt.Fprintf(&b, ";%c[%c%c]", c, sgfCoord(m.X), sgfCoord(m.Y))
	}
	b.WriteString(")\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Text draws the final position of g: X for Black, O for White, the last
// stone in brackets, columns lettered and rows numbered from 1 at the top,
// as Piskvork shows them.
func Text(g *Game) string {
	cells := make([]byte, g.Width*g.Height)
	for i := range cells {
		cells[i] = '.'
	}
	for i, m := range g.Moves {
		if m.X < 0 || m.Y < 0 || m.X >= g.Width || m.Y >= g.Height {
			continue
		}
		c := byte('X')
		if i%2 == 1 {
			c = 'O'
		}
		cells[m.Y*g.Width+m.X] = c
	}
	lastX, lastY := -1, -1
	if n := len(g.Moves); n > 0 {
		lastX, lastY = g.Moves[n-1].X, g.Moves[n-1].Y
	}
	var b strings.Builder
	b.WriteString("   ")
	for x := 0; x < g.Width; x++ {
		fmt.Fprintf(&b, " %c", sgfCoord(x))
	}
	b.WriteByte('\n')
	for y := 0; y < g.Height; y++ {
		fmt.Fprintf(&b, "%3d", y+1)
		for x := 0; x < g.Width; x++ {
			sep, c := byte(' '), cells[y*g.Width+x]
			if x == lastX && y == lastY {
				sep = '['
			} else if x == lastX+1 && y == lastY {
				sep = ']'
			}
			b.WriteByte(sep)
			b.WriteByte(c)
		}
		if y == lastY && lastX == g.Width-1 {
			b.WriteByte(']')
		}
		b.WriteByte('\n')
	}
	return b.String()
}
