// Package protocol speaks the Gomocup/Piskvork brain protocol: it reads
// command lines from the manager, parses them into typed commands, drives a
// Brain, and writes every answer through one synchronized writer.
//
// The package never sees a board: everything about the game lives behind the
// Brain interface, which package brain implements. Only cmd/pbrain-wuzi wires
// the two together:
//
//	w := protocol.NewWriter(os.Stdout)
//	log.SetOutput(w.DebugLogger()) // log lines become DEBUG lines
//	err := protocol.Run(ctx, os.Stdin, w, b)
//
// Files: reader.go splits input into bounded lines; command.go parses them
// (ParseCommand, ParseMove, ParseStone); loop.go is Run, the command loop
// with its one search goroutine; writer.go is the Writer, the only way to
// stdout, which also formats SearchInfo as MESSAGE lines.
package protocol

import (
	"context"
	"time"
)

// Move is a board coordinate as the protocol writes it: X is the column and Y
// the row, both 0-based from the top-left corner.
type Move struct {
	X, Y int
}

// Field says whose stone a BOARD line describes.
type Field int

// The values of the third number of a BOARD line.
const (
	FieldOwn      Field = 1 // the brain's own stone
	FieldOpponent Field = 2 // the opponent's stone
	FieldBlocked  Field = 3 // a blocked cell (continuous game only)
)

// Stone is one line of a BOARD or YXBOARD block.
type Stone struct {
	Move
	Field Field
}

// Swap2Answer is the brain's choice for a SWAP2BOARD block. When Swap is true
// the brain takes the other colour and Moves is empty; otherwise Moves holds
// the stones it places (3 on an empty board; 1 or 2 after three stones; 1
// after five stones).
type Swap2Answer struct {
	Swap  bool
	Moves []Move
}

// SearchInfo is one progress report of a search, formatted by the protocol
// into a MESSAGE line. The search reports plain numbers; only this package
// turns them into text.
type SearchInfo struct {
	Depth    int           // nominal iteration depth
	SelDepth int           // deepest ply reached
	MultiPV  int           // 1-based index of this line with YXNBEST; 0 otherwise
	Score    int           // static units from the mover's view; ignored when Mate != 0
	Mate     int           // >0: the mover wins in Mate moves of its own; <0: loses in -Mate
	Nodes    uint64        // nodes searched so far
	Elapsed  time.Duration // time since the search started
	PV       []Move        // principal variation, best move first
}

// Reporter receives what a thinking brain wants to show: search progress,
// free-text MESSAGE lines and DEBUG lines. Implementations are safe for
// concurrent use.
type Reporter interface {
	Info(SearchInfo)
	Message(text string)
	Debug(text string)
}

// About describes the brain for the ABOUT answer. Values must not contain
// commas, equals signs or double quotes.
type About struct {
	Name, Version, Author, Country, WWW, Email string
}

// Brain is the engine behind the protocol. The loop calls its methods from a
// single goroutine at a time; Think and Swap2 may run while the loop keeps
// reading stdin, and their context is cancelled on STOP, YXSTOP or END.
// A method that rejects its arguments returns an error whose text becomes an
// ERROR line; the brain's state is then unchanged.
type Brain interface {
	// Start sets up an empty width×height board (START n is n×n).
	Start(width, height int) error
	// Restart clears the board, keeping its size.
	Restart() error
	// SetInfo takes one INFO key and its raw value. Unknown keys are ignored
	// and return nil.
	SetInfo(key, value string) error
	// OpponentMove places the opponent's stone (TURN).
	OpponentMove(m Move) error
	// OwnMove places the brain's own stone (PLAY).
	OwnMove(m Move) error
	// SetPosition replaces the position with the given stones in play order
	// (BOARD and YXBOARD).
	SetPosition(stones []Stone) error
	// Takeback removes the stone at m.
	Takeback(m Move) error
	// Think chooses, plays and returns the brain's move for the side to move.
	Think(ctx context.Context, nBest int, r Reporter) (Move, error)
	// Analyze searches the side to move's position like Think, reporting
	// the nBest best lines, and returns the best move without playing it
	// (YXNBEST: analysis GUIs set the position with YXBOARD each time).
	Analyze(ctx context.Context, nBest int, r Reporter) (Move, error)
	// Swap2 answers a SWAP2BOARD block holding the given stones in order.
	Swap2(ctx context.Context, stones []Move, r Reporter) (Swap2Answer, error)
	// Forbidden lists the cells where Black may not play now (YXSHOWFORBID).
	Forbidden() []Move
	// ClearHash empties the transposition table (YXHASHCLEAR).
	ClearHash()
	// About tells who the brain is.
	About() About
}
