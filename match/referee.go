package match

import (
	"fmt"

	"wuzi/eval"
)

// Verdict is the referee's judgement of one move.
type Verdict int

// The judgements of a move.
const (
	Legal   Verdict = iota // the game goes on
	Five                   // the move made a winning row: the mover wins
	Foul                   // renju: Black played a forbidden cell and loses
	Illegal                // off the board or on an occupied cell: the mover loses
)

// Referee keeps the position of one game and judges every move under the
// game's rule with package eval, the project's one implementation of the
// rules.
type Referee struct {
	b *eval.Board
}

// NewReferee returns a referee for an empty width×height board.
func NewReferee(width, height int, rule eval.Rule) (*Referee, error) {
	b, err := eval.NewBoard(width, height, rule)
	if err != nil {
		return nil, err
	}
	return &Referee{b: b}, nil
}

// Judge decides the fate of the side to move playing (x, y) and, unless
// the move is Illegal, plays it. The detail says why in words.
func (r *Referee) Judge(x, y int) (Verdict, string) {
	w, h := r.b.Width(), r.b.Height()
	if !r.b.Inside(x, y) {
		return Illegal, fmt.Sprintf("played %d,%d off the %dx%d board", x, y, w, h)
	}
	p := r.b.Pos(x, y)
	if r.b.At(p) != eval.Empty {
		return Illegal, fmt.Sprintf("played %d,%d on an occupied cell", x, y)
	}
	if r.b.SideToMove() == eval.Black && r.b.IsForbidden(p) {
		r.b.Play(p)
		return Foul, fmt.Sprintf("Black played the forbidden cell %d,%d", x, y)
	}
	r.b.Play(p)
	if r.b.LastMoveWins() {
		return Five, fmt.Sprintf("%d,%d made five", x, y)
	}
	return Legal, ""
}

// SideToMove is the colour to play next.
func (r *Referee) SideToMove() eval.Color { return r.b.SideToMove() }

// Stones is how many stones are on the board.
func (r *Referee) Stones() int { return r.b.Ply() }

// Full reports whether no empty cell is left.
func (r *Referee) Full() bool { return r.b.Empties() == 0 }

// At reports the colour on (x, y), which must be inside the board.
func (r *Referee) At(x, y int) eval.Color { return r.b.At(r.b.Pos(x, y)) }
