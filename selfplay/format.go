package selfplay

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"wuzi/eval"
)

// Board sizes the generator plays: the openings need 11×11, and a column
// is written as one letter.
const (
	MinSize = 11
	MaxSize = 26
)

// Move is a cell: X the column, Y the row, both from 0 at the top-left
// corner, as the Gomocup protocol numbers them.
type Move struct {
	X, Y int
}

// String writes the move as its column letter ('a' is x 0) and its row
// number counted from 1 (row 1 is y 0): "h8" is (7, 7).
func (m Move) String() string {
	return string(rune('a'+m.X)) + strconv.Itoa(m.Y+1)
}

// Position is one line of a self-play file: a position reached in a game,
// what a search of it found and how the game ended.
type Position struct {
	Rule  eval.Rule
	Size  int    // the board is Size×Size
	Game  int    // the game's number in the run, from 0
	Moves []Move // every stone on the board in play order, Black first
	Score int    // the search's score, side to move's view (search units)
	Depth int    // the iteration that chose Best (see search.Result.Depth)
	Best  Move   // the search's best move
	// Result is the game's final result from the side to move's view:
	// 1 it won, 0 a draw, -1 it lost.
	Result int
}

// Ply is the number of stones on the board.
func (p Position) Ply() int { return len(p.Moves) }

// Side is the colour to move: Black after an even number of stones.
func (p Position) Side() eval.Color {
	if len(p.Moves)%2 == 0 {
		return eval.Black
	}
	return eval.White
}

// ParseRuleName reads a rule's name as the line format and the flags
// write it: freestyle, standard, renju, caro, caro-exact.
func ParseRuleName(s string) (eval.Rule, error) {
	for _, r := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree, eval.CaroExact} {
		if r.String() == s {
			return r, nil
		}
	}
	return 0, fmt.Errorf("unknown rule %q (want freestyle, standard, renju, caro or caro-exact)", s)
}

// AppendLine appends p as one line of the format, with its newline:
//
//	rule size game ply side score depth best result moves
func (p Position) AppendLine(dst []byte) []byte {
	dst = append(dst, p.Rule.String()...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Size), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Game), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(len(p.Moves)), 10)
	dst = append(dst, ' ')
	dst = append(dst, sideLetter(p.Side())...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Score), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Depth), 10)
	dst = append(dst, ' ')
	dst = append(dst, p.Best.String()...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.Result), 10)
	dst = append(dst, ' ')
	for _, m := range p.Moves {
		dst = append(dst, m.String()...)
	}
	return append(dst, '\n')
}

// String is the position's line without its newline.
func (p Position) String() string {
	b := p.AppendLine(nil)
	return string(b[:len(b)-1])
}

// ParseLine reads one line of the format (without its newline). It checks
// the fields' syntax and that they agree with one another (the ply and
// side with the moves, the cells with the size); Replay checks legality.
func ParseLine(line string) (Position, error) {
	f := strings.Fields(line)
	if len(f) != 10 {
		return Position{}, fmt.Errorf("%d fields, want 10", len(f))
	}
	var p Position
	var err error
	if p.Rule, err = ParseRuleName(f[0]); err != nil {
		return p, err
	}
	ints := make([]int, 0, 6)
	for _, i := range []int{1, 2, 3, 5, 6, 8} {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return p, fmt.Errorf("field %d: %q is not a number", i+1, f[i])
		}
		ints = append(ints, v)
	}
	var ply int
	p.Size, p.Game, ply, p.Score, p.Depth, p.Result = ints[0], ints[1], ints[2], ints[3], ints[4], ints[5]
	if p.Size < MinSize || p.Size > MaxSize {
		return p, fmt.Errorf("size %d outside %d..%d", p.Size, MinSize, MaxSize)
	}
	if p.Game < 0 {
		return p, fmt.Errorf("game %d is negative", p.Game)
	}
	if p.Result < -1 || p.Result > 1 {
		return p, fmt.Errorf("result %d, want -1, 0 or 1", p.Result)
	}
	if p.Best, err = parseMove(f[7], p.Size); err != nil || len(f[7]) == 0 {
		return p, fmt.Errorf("best move %q: %v", f[7], err)
	}
	if p.Moves, err = parseMoves(f[9], p.Size); err != nil {
		return p, err
	}
	if ply != len(p.Moves) {
		return p, fmt.Errorf("ply %d but %d moves", ply, len(p.Moves))
	}
	if want := sideLetter(p.Side()); f[4] != want {
		return p, fmt.Errorf("side %q after %d moves, want %q", f[4], ply, want)
	}
	return p, nil
}

// sideLetter is the side field: "b" for Black, "w" for White.
func sideLetter(c eval.Color) string {
	if c == eval.Black {
		return "b"
	}
	return "w"
}

// parseMove reads one whole cell such as "h8".
func parseMove(s string, size int) (Move, error) {
	ms, err := parseMoves(s, size)
	if err != nil {
		return Move{}, err
	}
	if len(ms) != 1 {
		return Move{}, errors.New("want one cell")
	}
	return ms[0], nil
}

// parseMoves reads cells written one after another ("h8i8j11").
func parseMoves(s string, size int) ([]Move, error) {
	out := make([]Move, 0, len(s)/2)
	for i := 0; i < len(s); {
		c := s[i]
		if c < 'a' || c > 'z' {
			return nil, fmt.Errorf("moves: %q at %d is not a column letter", c, i)
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		row, err := strconv.Atoi(s[i+1 : j])
		if err != nil {
			return nil, fmt.Errorf("moves: no row number after %q at %d", c, i)
		}
		m := Move{int(c - 'a'), row - 1}
		if m.X >= size || m.Y < 0 || m.Y >= size {
			return nil, fmt.Errorf("moves: %s is off the %dx%d board", s[i:j], size, size)
		}
		out = append(out, m)
		i = j
	}
	return out, nil
}

// Replay plays p's moves on a new board and checks that the game could
// have reached it: every move on an empty cell, no renju foul by Black, no
// five before the last stone and none made by it either (a decided
// position is never written), and the best move an empty cell that is not
// a foul for Black. It returns the board, with the side to move to play.
func (p Position) Replay() (*eval.Board, error) {
	b, err := eval.NewBoard(p.Size, p.Size, p.Rule)
	if err != nil {
		return nil, err
	}
	if err := replayOn(b, p); err != nil {
		return nil, err
	}
	return b, nil
}

// replayOn clears b (of p's size and rule) and replays p on it as Replay
// describes.
func replayOn(b *eval.Board, p Position) error {
	b.Clear()
	for i, m := range p.Moves {
		c := b.Pos(m.X, m.Y)
		if !b.IsEmpty(c) {
			return fmt.Errorf("move %d (%s) is on an occupied cell", i+1, m)
		}
		if b.SideToMove() == eval.Black && b.IsForbidden(c) {
			return fmt.Errorf("move %d (%s) is a renju foul", i+1, m)
		}
		b.Play(c)
		if b.LastMoveWins() {
			return fmt.Errorf("move %d (%s) made five", i+1, m)
		}
	}
	best := b.Pos(p.Best.X, p.Best.Y)
	if !b.IsEmpty(best) {
		return fmt.Errorf("best move %s is on an occupied cell", p.Best)
	}
	if b.SideToMove() == eval.Black && b.IsForbidden(best) {
		return fmt.Errorf("best move %s is a renju foul", p.Best)
	}
	return nil
}
