package protocol

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseCommand(t *testing.T) {
	cases := []struct {
		line string
		want Command
		err  string
	}{
		{"START 15", Command{Kind: KindStart, Width: 15, Height: 15}, ""},
		{"start\t 20", Command{Kind: KindStart, Width: 20, Height: 20}, ""},
		{"RECTSTART 20 , 15", Command{Kind: KindRectStart, Width: 20, Height: 15}, ""},
		{"TURN 7,8", Command{Kind: KindTurn, Move: Move{7, 8}}, ""},
		{"Turn  7 ,\t8", Command{Kind: KindTurn, Move: Move{7, 8}}, ""},
		{"TAKEBACK 1,2", Command{Kind: KindTakeback, Move: Move{1, 2}}, ""},
		{"PLAY 3,4", Command{Kind: KindPlay, Move: Move{3, 4}}, ""},
		{"YXNBEST 5", Command{Kind: KindYXNBest, N: 5}, ""},
		{"INFO Timeout_Turn 5000", Command{Kind: KindInfo, Key: "timeout_turn", Value: "5000"}, ""},
		{"INFO folder  C:\\a  b ", Command{Kind: KindInfo, Key: "folder", Value: "C:\\a  b"}, ""},
		{"INFO evaluate", Command{Kind: KindInfo, Key: "evaluate"}, ""},
		{"END", Command{Kind: KindEnd}, ""},
		{"END now", Command{Kind: KindEnd}, ""},
		{"yxstop", Command{Kind: KindYXStop}, ""},
		{"BOARD", Command{Kind: KindBoard}, ""},
		{"BOARD 1", Command{Kind: KindBoard}, "BOARD: takes no arguments"},
		{"SUGGEST 1,1", Command{Kind: KindUnknown}, ""},
		{"7,7", Command{Kind: KindUnknown}, ""},
		{"START", Command{Kind: KindStart}, "START: missing number"},
		{"START +15", Command{Kind: KindStart}, "START: not a non-negative number"},
		{"START 1000000000", Command{Kind: KindStart}, "START: number out of range"},
		{"TURN 1,", Command{Kind: KindTurn}, "TURN: missing number"},
		{"TURN 1,,2", Command{Kind: KindTurn}, "TURN: want 2 comma-separated numbers"},
		{"TURN 1 2", Command{Kind: KindTurn}, "TURN: want 2 comma-separated numbers"},
		{"TURN 1 ,2 3", Command{Kind: KindTurn}, "TURN: not a non-negative number"},
		{"INFO", Command{Kind: KindInfo}, "INFO: missing key"},
	}
	for _, c := range cases {
		got, err := ParseCommand(c.line)
		c.want.Text = c.line
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != c.err {
			t.Errorf("ParseCommand(%q) error %q, want %q", c.line, gotErr, c.err)
		}
		if err == nil && got != c.want {
			t.Errorf("ParseCommand(%q) = %+v, want %+v", c.line, got, c.want)
		}
		if got.Kind != c.want.Kind {
			t.Errorf("ParseCommand(%q) kind %v, want %v", c.line, got.Kind, c.want.Kind)
		}
	}
}

func TestParseStone(t *testing.T) {
	if s, err := ParseStone(" 3 , 4 , 2 "); err != nil || s != (Stone{Move{3, 4}, FieldOpponent}) {
		t.Errorf("got %+v, %v", s, err)
	}
	for _, bad := range []string{"3,4", "3,4,0", "3,4,4", "a,b,c", "3,4,1,1", "", ",,"} {
		if _, err := ParseStone(bad); err == nil {
			t.Errorf("ParseStone(%q) accepted", bad)
		}
	}
}

func TestKindString(t *testing.T) {
	if KindSwap2Board.String() != "SWAP2BOARD" || Kind(-1).String() != "" || Kind(99).String() != "" {
		t.Error("Kind.String")
	}
}

func readAll(t *testing.T, r io.Reader, max int) []rawLine {
	t.Helper()
	lr := newLineReader(r, max)
	var out []rawLine
	for {
		l, err := lr.next()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			return out
		}
		out = append(out, l)
	}
}

func TestLineReader(t *testing.T) {
	in := "\uFEFFSTART 15\r\n\r\n  BEGIN \t\rTURN 1,2\n\n\n\t \nEND"
	want := []rawLine{{text: "START 15"}, {text: "BEGIN"}, {text: "TURN 1,2"}, {text: "END"}}
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.DataErrReader(strings.NewReader(in))} {
		got := readAll(t, r, 0)
		if len(got) != len(want) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("line %d: got %+v, want %+v", i, got[i], want[i])
			}
		}
	}
	got := readAll(t, strings.NewReader("ABCDEFGHIJ\nabc\n"+strings.Repeat(" ", 20)+"x\n"), 8)
	want = []rawLine{{text: "ABCDEFGH", tooLong: true}, {text: "abc"}, {text: "", tooLong: true}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
