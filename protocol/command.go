package protocol

import (
	"errors"
	"fmt"
	"strings"
)

// Kind names a protocol command.
type Kind int

// The commands the loop understands. KindUnknown is any other line.
const (
	KindUnknown      Kind = iota
	KindStart             // START n
	KindRectStart         // RECTSTART w,h
	KindRestart           // RESTART
	KindBegin             // BEGIN
	KindTurn              // TURN x,y
	KindBoard             // BOARD, then lines x,y,f, then DONE
	KindDone              // DONE (ends a block)
	KindInfo              // INFO key value
	KindEnd               // END
	KindAbout             // ABOUT
	KindTakeback          // TAKEBACK x,y
	KindPlay              // PLAY x,y
	KindSwap2Board        // SWAP2BOARD, then 0, 3 or 5 lines x,y, then DONE
	KindYXBoard           // YXBOARD, then lines x,y,f, then DONE
	KindYXStop            // YXSTOP
	KindStop              // STOP
	KindYXShowForbid      // YXSHOWFORBID
	KindYXHashClear       // YXHASHCLEAR
	KindYXNBest           // YXNBEST n
)

var kindWords = [...]string{
	KindUnknown:      "",
	KindStart:        "START",
	KindRectStart:    "RECTSTART",
	KindRestart:      "RESTART",
	KindBegin:        "BEGIN",
	KindTurn:         "TURN",
	KindBoard:        "BOARD",
	KindDone:         "DONE",
	KindInfo:         "INFO",
	KindEnd:          "END",
	KindAbout:        "ABOUT",
	KindTakeback:     "TAKEBACK",
	KindPlay:         "PLAY",
	KindSwap2Board:   "SWAP2BOARD",
	KindYXBoard:      "YXBOARD",
	KindYXStop:       "YXSTOP",
	KindStop:         "STOP",
	KindYXShowForbid: "YXSHOWFORBID",
	KindYXHashClear:  "YXHASHCLEAR",
	KindYXNBest:      "YXNBEST",
}

// String returns the command word in upper case ("" for KindUnknown).
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindWords) {
		return ""
	}
	return kindWords[k]
}

// maxDigits bounds every number the parser accepts, so no value overflows
// an int; whether a value makes sense (board size, coordinate) is the
// Brain's call.
const maxDigits = 9

// maxBoardSide is a sanity bound on START/RECTSTART sizes; real limits are
// the Brain's.
const maxBoardSide = 1000

// Command is one parsed command line.
type Command struct {
	Kind          Kind
	Width, Height int    // START (both n) and RECTSTART
	Move          Move   // TURN, TAKEBACK, PLAY
	N             int    // YXNBEST
	Key, Value    string // INFO: key in lower case, value is the rest of the line
	Text          string // the line as read (trimmed)
}

// kindOf returns the command a word names, matched ASCII case-insensitively.
func kindOf(word string) Kind {
	if len(word) == 0 || len(word) > 16 {
		return KindUnknown
	}
	var buf [16]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	up := string(buf[:len(word)])
	for k, w := range kindWords {
		if w != "" && w == up {
			return Kind(k)
		}
	}
	return KindUnknown
}

// splitWord splits a trimmed line into its first word and the trimmed rest.
func splitWord(line string) (word, rest string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], trimBlankString(line[i+1:])
}

// ParseCommand parses one trimmed, non-empty command line. A line whose first
// word is no known command gives KindUnknown and no error. A known command
// with bad arguments gives its Kind and an error saying what is wrong.
// Block commands (BOARD, YXBOARD, SWAP2BOARD) are parsed alone; their lines
// are parsed with ParseStone and ParseMove.
func ParseCommand(line string) (Command, error) {
	word, rest := splitWord(line)
	c := Command{Kind: kindOf(word), Text: line}
	var err error
	switch c.Kind {
	case KindUnknown:
	case KindStart:
		var n int
		n, err = parseNumber(rest)
		if err == nil && (n < 1 || n > maxBoardSide) {
			err = fmt.Errorf("unsupported board size %d", n)
		}
		c.Width, c.Height = n, n
	case KindRectStart:
		var m Move
		m, err = ParseMove(rest)
		if err == nil && (m.X < 1 || m.Y < 1 || m.X > maxBoardSide || m.Y > maxBoardSide) {
			err = fmt.Errorf("unsupported board size %dx%d", m.X, m.Y)
		}
		c.Width, c.Height = m.X, m.Y
	case KindTurn, KindTakeback, KindPlay:
		c.Move, err = ParseMove(rest)
	case KindYXNBest:
		c.N, err = parseNumber(rest)
		if err == nil && c.N < 1 {
			err = errors.New("the number of best moves must be at least 1")
		}
	case KindInfo:
		c.Key, c.Value = splitWord(rest)
		c.Key = strings.ToLower(c.Key)
		if c.Key == "" {
			err = errors.New("missing key")
		}
	case KindEnd, KindStop, KindYXStop:
		// Acted on whatever follows: the manager wants out.
	default:
		if rest != "" {
			err = errors.New("takes no arguments")
		}
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", c.Kind, err)
	}
	return c, err
}

// ParseMove parses "x,y": two non-negative decimal numbers and one comma,
// with optional spaces or tabs around each number.
func ParseMove(s string) (Move, error) {
	var v [2]int
	if err := parseNumbers(s, v[:]); err != nil {
		return Move{}, err
	}
	return Move{X: v[0], Y: v[1]}, nil
}

// ParseStone parses a BOARD line "x,y,f" with f 1, 2 or 3.
func ParseStone(s string) (Stone, error) {
	var v [3]int
	if err := parseNumbers(s, v[:]); err != nil {
		return Stone{}, err
	}
	f := Field(v[2])
	if f != FieldOwn && f != FieldOpponent && f != FieldBlocked {
		return Stone{}, fmt.Errorf("field %d is not 1, 2 or 3", v[2])
	}
	return Stone{Move: Move{X: v[0], Y: v[1]}, Field: f}, nil
}

// parseNumbers fills out from exactly len(out) comma-separated numbers.
func parseNumbers(s string, out []int) error {
	if strings.Count(s, ",") != len(out)-1 {
		return fmt.Errorf("want %d comma-separated numbers", len(out))
	}
	for i := range out {
		part := s
		if j := strings.IndexByte(s, ','); j >= 0 {
			part, s = s[:j], s[j+1:]
		}
		n, err := parseNumber(part)
		if err != nil {
			return err
		}
		out[i] = n
	}
	return nil
}

// parseNumber parses one non-negative decimal number with optional spaces
// or tabs around it.
func parseNumber(s string) (int, error) {
	s = trimBlankString(s)
	if s == "" {
		return 0, errors.New("missing number")
	}
	if len(s) > maxDigits {
		return 0, errors.New("number out of range")
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, errors.New("not a non-negative number")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
