package protocol

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// lineEnds are the line ends a manager may send.
var lineEnds = map[string]string{"CRLF": "\r\n", "LF": "\n", "CR": "\r"}

// TestSessionEveryCommand walks through every command with each line end,
// in upper and lower case, with spaces around and empty lines between.
func TestSessionEveryCommand(t *testing.T) {
	for name, nl := range lineEnds {
		for _, lower := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/lower=%v", name, lower), func(t *testing.T) {
				b := newFake()
				b.forbidden = []Move{{7, 7}, {10, 3}}
				h := newHarness(t, b)
				send := func(s string) {
					if lower {
						s = strings.ToLower(s)
					}
					h.send(nl + "  " + s + " \t" + nl + nl)
				}
				send("START 15")
				h.expect("OK")
				send("INFO timeout_turn 1000")
				send("INFO time_left -150")
				send("ABOUT")
				h.expect(aboutLine)
				send("BEGIN")
				h.expect("0,0")
				send("TURN 7 , 7")
				h.expect("1,0")
				send("RESTART")
				h.expect("OK")
				send("BOARD")
				send("7,7,1")
				send(" 8 , 8 , 2 ")
				send("DONE")
				h.expect("0,0")
				send("BOARD")
				send("DONE")
				h.expect("0,0")
				send("TAKEBACK 0,0")
				h.expect("OK")
				send("PLAY 0,0")
				h.expect("0,0")
				send("YXBOARD")
				send("3,3,2")
				send("DONE")
				send("YXSHOWFORBID")
				h.expect("FORBID 07071003.")
				send("YXHASHCLEAR")
				send("YXNBEST 3")
				h.expect("0,0")
				send("STOP")
				send("YXSTOP")
				send("RECTSTART 20,15")
				h.expect("OK")
				send("SWAP2BOARD")
				send("DONE")
				h.expect("7,7 7,8 8,8")
				send("SWAP2BOARD")
				send("1,1")
				send("2,2")
				send("3,3")
				send("DONE")
				h.expect("SWAP")
				send("SWAP2BOARD")
				for _, s := range []string{"1,1", "2,2", "3,3", "4,4", "5,5"} {
					send(s)
				}
				send("DONE")
				h.expect("9,9")
				send("INFO folder C:\\My Games\\wuzi  data")
				if err := h.end(false, time.Second); err != nil {
					t.Fatal(err)
				}
				wantCalls := []string{
					"Start 15 15",
					"SetInfo timeout_turn=1000",
					"SetInfo time_left=-150",
					"Think 1",
					"OpponentMove 7,7",
					"Think 1",
					"Restart",
					"SetPosition [7,7,1 8,8,2]",
					"Think 1",
					"SetPosition []",
					"Think 1",
					"Takeback 0,0",
					"OwnMove 0,0",
					"SetPosition [3,3,2]",
					"Forbidden",
					"ClearHash",
					"Analyze 3",
					"Start 20 15",
					"Swap2 0",
					"Swap2 3",
					"Swap2 5",
				}
				folder := "SetInfo folder=C:\\My Games\\wuzi  data"
				if lower {
					folder = "SetInfo folder=c:\\my games\\wuzi  data"
				}
				wantCalls = append(wantCalls, folder)
				if got := b.Calls(); !slices.Equal(got, wantCalls) {
					t.Errorf("calls:\n got %q\nwant %q", got, wantCalls)
				}
			})
		}
	}
}

// TestSessionBadInput sends every kind of bad input; each must get its one
// answer and the next valid command must be served as usual.
func TestSessionBadInput(t *testing.T) {
	huge := "TURN " + strings.Repeat("7", 1<<20)
	cases := []struct {
		name  string
		input []string
		want  []string
	}{
		{"occupied TURN", []string{"TURN 0,0"}, []string{"ERROR 0,0 is occupied"}},
		{"off-board TURN", []string{"TURN 15,3"}, []string{"ERROR 15,3 is off the board"}},
		{"letters TURN", []string{"TURN a,b"}, []string{"ERROR TURN: not a non-negative number"}},
		{"one number TURN", []string{"TURN 3"}, []string{"ERROR TURN: want 2 comma-separated numbers"}},
		{"three numbers TURN", []string{"TURN 1,2,3"}, []string{"ERROR TURN: want 2 comma-separated numbers"}},
		{"negative TURN", []string{"TURN -1,2"}, []string{"ERROR TURN: not a non-negative number"}},
		{"empty TURN", []string{"TURN"}, []string{"ERROR TURN: want 2 comma-separated numbers"}},
		{"huge number TURN", []string{"TURN 99999999999999999999,1"}, []string{"ERROR TURN: number out of range"}},
		{"START 0", []string{"START 0"}, []string{"ERROR START: unsupported board size 0"}},
		{"START 10000", []string{"START 10000"}, []string{"ERROR START: unsupported board size 10000"}},
		{"START 100", []string{"START 100"}, []string{"ERROR unsupported size 100x100"}},
		{"START abc", []string{"START abc"}, []string{"ERROR START: not a non-negative number"}},
		{"RECTSTART 0,5", []string{"RECTSTART 0,5"}, []string{"ERROR RECTSTART: unsupported board size 0x5"}},
		{"BEGIN with args", []string{"BEGIN now"}, []string{"ERROR BEGIN: takes no arguments"}},
		{"YXNBEST 0", []string{"YXNBEST 0"}, []string{"ERROR YXNBEST: the number of best moves must be at least 1"}},
		{"duplicate stones", []string{"BOARD", "3,3,1", "3,3,2", "DONE"}, []string{"ERROR 3,3 is occupied"}},
		{"garbage in BOARD", []string{"BOARD", "3,3,1", "hello", "4,4,2", "DONE"},
			[]string{`ERROR BOARD: bad line "hello": want 3 comma-separated numbers; position unchanged`}},
		{"bad field in BOARD", []string{"BOARD", "3,3,4", "DONE"},
			[]string{`ERROR BOARD: bad line "3,3,4": field 4 is not 1, 2 or 3; position unchanged`}},
		{"BOARD cut by a command", []string{"BOARD", "3,3,1", "ABOUT"},
			[]string{"ERROR BOARD: ABOUT before DONE; position unchanged", aboutLine}},
		{"garbage in YXBOARD", []string{"YXBOARD", "1,1,1,1", "DONE"},
			[]string{`ERROR YXBOARD: bad line "1,1,1,1": want 3 comma-separated numbers; position unchanged`}},
		{"two stones in SWAP2BOARD", []string{"SWAP2BOARD", "1,1", "2,2", "DONE"},
			[]string{"ERROR SWAP2BOARD: 2 stones, want 0, 3 or 5"}},
		{"garbage in SWAP2BOARD", []string{"SWAP2BOARD", "1,1,1", "DONE"},
			[]string{`ERROR SWAP2BOARD: bad line "1,1,1": want 2 comma-separated numbers; position unchanged`}},
		{"DONE alone", []string{"DONE"}, []string{"ERROR DONE without BOARD, YXBOARD or SWAP2BOARD"}},
		{"1 MB line", []string{huge}, []string{"UNKNOWN TURN " + strings.Repeat("7", 59) + "... (line too long)"}},
		{"1 MB INFO line", []string{"INFO timeout_turn " + huge}, []string{"~DEBUG INFO ignored: line too long: .*"}},
		{"1 MB YXHASHCLEAR line", []string{"yxhashclear " + huge}, []string{"~DEBUG yxhashclear ignored: line too long: .*"}},
		{"binary bytes", []string{"\x00\x01\xff\xfe\x1b[2J7,7"}, []string{"UNKNOWN ~?[ ]+\\[2J7,7"}},
		{"unknown command", []string{"SUGGEST 1,1"}, []string{"UNKNOWN SUGGEST 1,1"}},
		{"stone outside a block", []string{"7,7,1"}, []string{"UNKNOWN 7,7,1"}},
		{"takeback of nothing", []string{"TAKEBACK 9,9"}, []string{"ERROR no stone at 9,9"}},
		{"negative timeout", []string{"INFO timeout_turn -5"}, []string{"DEBUG INFO timeout_turn ignored: negative timeout_turn"}},
		{"INFO without key", []string{"INFO"}, []string{"DEBUG INFO  ignored: INFO: missing key"}},
		{"unicode lookalike", []string{"ſtart 15"}, []string{"UNKNOWN ſtart 15"}},
	}
	for _, c := range cases {
		for name, nl := range lineEnds {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				b := newFake()
				h := newHarness(t, b)
				h.send("START 15" + nl + "BEGIN" + nl)
				h.expect("OK", "0,0")
				for _, l := range c.input {
					h.send(l + nl)
				}
				want := c.want
				if strings.HasPrefix(want[0], "UNKNOWN ~") {
					want = []string{"~UNKNOWN " + want[0][len("UNKNOWN ~"):]}
				}
				h.expect(want...)
				// The session goes on: the position is what it was.
				h.send("TURN 5,5" + nl)
				h.expect("1,0")
				h.send("ABOUT" + nl)
				h.expect(aboutLine)
				if err := h.end(false, time.Second); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func TestMissingDoneAtEOF(t *testing.T) {
	b := newFake()
	h := newHarness(t, b)
	h.send("START 15\nBOARD\n1,1,1\n2,2,2")
	h.expect("OK")
	if err := h.end(true, time.Second); err != nil {
		t.Fatal(err)
	}
	if calls := b.Calls(); len(calls) != 1 {
		t.Errorf("calls %q, want only Start", calls)
	}
}

func TestThinkErrorsAndPanics(t *testing.T) {
	b := newFake()
	h := newHarness(t, b)
	h.send("BEGIN\r\n")
	h.expect("ERROR no game started")
	h.send("START 5\r\n")
	h.expect("OK")
	b.mu.Lock()
	b.thinkErr = errors.New("board is full")
	b.panicAt = &Move{4, 4}
	b.mu.Unlock()
	h.send("BEGIN\r\n")
	h.expect("ERROR board is full")
	h.send("TURN 4,4\r\n")
	h.expect("ERROR internal: fake brain broke")
	b.mu.Lock()
	b.thinkErr = nil
	b.fixed = &Move{-1, 3}
	b.mu.Unlock()
	h.send("BEGIN\r\n")
	h.expect("ERROR internal: brain chose an invalid move -1,3")
	b.mu.Lock()
	b.fixed = nil
	b.swap = Swap2Answer{Swap: true}
	b.mu.Unlock()
	h.send("SWAP2BOARD\r\nDONE\r\n")
	h.expect("ERROR internal: brain chose SWAP where it may not")
	b.mu.Lock()
	b.swap = Swap2Answer{Moves: []Move{{1, 1}}}
	b.mu.Unlock()
	h.send("SWAP2BOARD\r\nDONE\r\n")
	h.expect("ERROR internal: brain gave 1 swap2 moves after 0 stones")
	h.send("ABOUT\r\n")
	h.expect(aboutLine)
	if err := h.end(false, time.Second); err != nil {
		t.Fatal(err)
	}
}

type panicThink struct{ *fakeBrain }

func (panicThink) Think(context.Context, int, Reporter) (Move, error) { panic("boom") }

func TestThinkPanic(t *testing.T) {
	b := newFake()
	out := &syncBuffer{}
	err := Run(context.Background(), strings.NewReader("START 15\nBEGIN\n"), NewWriter(out), panicThink{b})
	if err != nil {
		t.Fatal(err)
	}
	// EOF may cancel the search before or after it panics; either way the
	// session survives and nothing but allowed lines comes out.
	checkOutput(t, out.String())
	if !strings.HasPrefix(out.String(), "OK\n") {
		t.Errorf("output %q", out.String())
	}
}

func TestReports(t *testing.T) {
	b := newFake()
	b.report = true
	h := newHarness(t, b)
	h.send("START 15\nBEGIN\n")
	h.expect("OK", "MESSAGE depth 3-5 ev 12 n 1.5k n/s 1.5k tm 1000 pv h8 i9", "MESSAGE thinking hard", "0,0")
	h.end(false, time.Second)
}

func TestStopWhileThinking(t *testing.T) {
	for _, stop := range []string{"STOP", "YXSTOP", "yxstop", "  Stop  "} {
		t.Run(stop, func(t *testing.T) {
			b, h := thinking(t, "START 15\r\nTURN 7,7\r\n")
			// Commands that arrive while thinking wait for the move.
			h.send("ABOUT\r\nINFO time_left 1000\r\nTURN 3,3\r\n")
			time.Sleep(20 * time.Millisecond)
			if n := len(h.lines()); n != 1 {
				t.Fatalf("answered while thinking: %q", h.lines())
			}
			start := time.Now()
			h.send(stop + "\r\n")
			h.expect("0,0")
			if d := time.Since(start); d > 300*time.Millisecond {
				t.Errorf("move came %v after %s", d, stop)
			}
			h.expect(aboutLine)
			h.waitThinking()
			h.send(stop + "\r\n")
			h.expect("1,0")
			if err := h.end(false, time.Second); err != nil {
				t.Fatal(err)
			}
			want := []string{"Start 15 15", "OpponentMove 7,7", "Think 1", "SetInfo time_left=1000", "OpponentMove 3,3", "Think 1"}
			if got := b.Calls(); !slices.Equal(got, want) {
				t.Errorf("calls %q, want %q", got, want)
			}
		})
	}
}

func TestEndWhileThinking(t *testing.T) {
	for _, eof := range []bool{false, true} {
		t.Run(fmt.Sprintf("eof=%v", eof), func(t *testing.T) {
			_, h := thinking(t, "START 15\nBEGIN\n")
			h.send("ABOUT\n")
			// END (or the end of input) with ABOUT still queued stops the
			// search at once, answers the move and ABOUT, then returns.
			start := time.Now()
			if eof {
				h.in.Close()
			} else {
				h.send("END\r\n")
			}
			select {
			case <-h.done:
			case <-time.After(300 * time.Millisecond):
				t.Fatal("Run did not return within 300ms")
			}
			h.ended = true
			if d := time.Since(start); d > 300*time.Millisecond {
				t.Errorf("took %v to end", d)
			}
			h.expect("0,0", aboutLine)
		})
	}
}

func TestEndWithStubbornBrain(t *testing.T) {
	b := newFake()
	b.block = true
	b.ignoreCtx = 5 * time.Second
	h := newHarness(t, b, WithEndGrace(50*time.Millisecond))
	h.send("START 15\nBEGIN\n")
	h.expect("OK")
	h.waitThinking()
	if err := h.end(false, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := newFake()
	b.block = true
	h := newHarnessCtx(t, ctx, b)
	h.send("START 15\nBEGIN\n")
	h.expect("OK")
	h.waitThinking()
	cancel()
	select {
	case err := <-h.done:
		h.ended = true
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestQueueLimit(t *testing.T) {
	b := newFake()
	b.block = true
	h := newHarness(t, b, WithMaxQueuedLines(1))
	h.send("START 15\nBEGIN\n")
	h.expect("OK")
	h.waitThinking()
	h.send("ABOUT\nABOUT\n")
	h.expect("DEBUG too many commands while thinking, dropped: ABOUT")
	h.send("STOP\n")
	h.expect("0,0", aboutLine)
	h.end(false, time.Second)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestReadError(t *testing.T) {
	err := Run(context.Background(), errReader{}, NewWriter(&syncBuffer{}), newFake())
	if err == nil || err.Error() != "broken pipe" {
		t.Errorf("Run returned %v", err)
	}
	if err := Run(context.Background(), nil, nil, nil); err == nil {
		t.Error("Run accepted nil arguments")
	}
}

func TestQueueByteLimit(t *testing.T) {
	_, h := thinking(t, "START 15\nBEGIN\n")
	long := "X" + strings.Repeat("y", 70000) + "\n"
	for i := 0; i < 18; i++ {
		h.send(long)
	}
	dropped := "DEBUG too many commands while thinking, dropped: X" + strings.Repeat("y", 63)
	h.expect(dropped, dropped)
	h.send("STOP\n")
	want := []string{"0,0"}
	for i := 0; i < 16; i++ {
		want = append(want, "UNKNOWN X"+strings.Repeat("y", 63)+"... (line too long)")
	}
	h.expect(want...)
	h.end(false, time.Second)
}

// thinking starts a session with a brain whose Think blocks until its
// context is cancelled, sends input (a START and a move request), and
// waits until the search has started.
func thinking(t *testing.T, input string) (*fakeBrain, *harness) {
	t.Helper()
	b := newFake()
	b.block = true
	h := newHarness(t, b)
	h.send(input)
	h.expect("OK")
	h.waitThinking()
	return b, h
}
