package brain

import (
	"context"
	"fmt"
	"testing"
	"time"

	"wuzi/protocol"
)

// selfPlayLatency plays a game of the brain against itself under the given
// INFO limits and returns the slowest move time and the number of moves.
func selfPlayLatency(t *testing.T, rule string, turnMS, leftMS int64, maxMoves int) (time.Duration, int) {
	t.Helper()
	br := startedBrain(t, map[string]string{"rule": rule, "timeout_turn": fmt.Sprint(turnMS), "timeout_match": "0"})
	var worst time.Duration
	n := 0
	for ; n < maxMoves && br.Board().Empties() > 0; n++ {
		if leftMS >= 0 {
			_ = br.SetInfo("time_left", fmt.Sprint(leftMS))
		}
		start := time.Now()
		m, err := br.Think(context.Background(), 1, nil)
		d := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if !br.Board().Inside(m.X, m.Y) {
			t.Fatalf("move %v off the board", m)
		}
		worst = max(worst, d)
		if br.Board().LastMoveWins() {
			n++
			break
		}
	}
	return worst, n
}

// TestMoveLatency checks that no move overruns the turn limit or its share
// of the time left, at the limits managers use. Under the race detector
// the limits widen (see raceSlowdown); CI also runs it without.
func TestMoveLatency(t *testing.T) {
	cases := []struct {
		turn, left int64
		moves      int
	}{
		{100, -1, 30},
		{1000, -1, 8},
		{5000, 300, 20}, // 300 ms left in the game: each move must take a sliver of it
		{0, -1, 30},     // timeout_turn 0: answer at once
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("turn=%d,left=%d", c.turn, c.left), func(t *testing.T) {
			worst, n := selfPlayLatency(t, "0", c.turn, c.left, c.moves)
			limit := time.Duration(c.turn) * time.Millisecond
			if c.left >= 0 {
				limit = min(limit, time.Duration(c.left)*time.Millisecond)
			}
			if c.turn == 0 {
				limit = 100 * time.Millisecond
			}
			limit *= raceSlowdown
			t.Logf("%d moves, worst %v, limit %v", n, worst, limit)
			if worst > limit {
				t.Errorf("worst move took %v, over the %v limit", worst, limit)
			}
		})
	}
}

// TestFirstMoveSpendsItsTurn: the wait between START and the first turn
// (the opponent thinking, or a manager holding the brain suspended) is not
// start-up: a brain that waited 400 ms still searches its first move for
// most of a 300 ms turn. (Start-up was once taken as all the time since the
// process began, up to 300 ms, and Black's first move in a match was then
// made at once.)
func TestFirstMoveSpendsItsTurn(t *testing.T) {
	br := startedBrain(t, map[string]string{"timeout_turn": "300", "timeout_match": "0"})
	time.Sleep(400 * time.Millisecond)
	d := timeFirstMove(t, br)
	// The real start-up (New and START) is charged, and under the race
	// detector, in a process whose rule tables are not built yet, it
	// takes 160 ms: the search plus that charge must still be most of
	// the turn, which it cannot be if the 400 ms wait were charged too.
	if br.startup >= 400*time.Millisecond {
		t.Fatalf("start-up %v includes the 400 ms wait for the first turn", br.startup)
	}
	charged := min(br.startup, maxStartupCharge)
	if d+charged < 150*time.Millisecond {
		t.Errorf("first move after a 400 ms wait searched %v of a 300 ms turn (start-up charged %v)", d, charged)
	}
}

// TestStartupFromProcessStart: a process the system began 400 ms before
// the brain was made (a slow exec and runtime start on a loaded machine)
// has that time on its first move's clock, as the managers count it; a
// Started older than maxStartupAge (a brain made later in a long-running
// process) is not start-up.
func TestStartupFromProcessStart(t *testing.T) {
	const age = 400 * time.Millisecond
	for _, c := range []struct {
		started time.Duration // before New
		least   time.Duration // start-up at least
		most    time.Duration // and below
	}{
		{age, age, 10 * time.Second},
		{2 * maxStartupAge, 0, age},
	} {
		br := New(Config{HashMB: 16, Started: time.Now().Add(-c.started)})
		if err := br.Start(15, 15); err != nil {
			t.Fatal(err)
		}
		if br.startup < c.least || br.startup >= c.most {
			t.Errorf("Started %v before New: start-up %v, want at least %v and below %v", c.started, br.startup, c.least, c.most)
		}
	}
	// The first move of the 400 ms process at a 1 s turn: its search
	// ends 400 ms sooner than a turn's hard limit (950 ms).
	br := New(Config{HashMB: 16, Started: time.Now().Add(-age)})
	for _, kv := range [][2]string{{"timeout_turn", "1000"}, {"timeout_match", "0"}} {
		if err := br.SetInfo(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := br.Start(15, 15); err != nil {
		t.Fatal(err)
	}
	if d, limit := timeFirstMove(t, br), 950*time.Millisecond-age+100*time.Millisecond*raceSlowdown; d > limit {
		t.Errorf("first move of a process 400 ms old took %v, over %v", d, limit)
	}
}

// timeFirstMove sets up the 3-stone opening and White's reply, Black to
// move (no forced line ends the search early), and returns how long the
// brain's move took.
func timeFirstMove(t *testing.T, br *Brain) time.Duration {
	t.Helper()
	stones := []protocol.Stone{
		{Move: protocol.Move{X: 8, Y: 9}, Field: protocol.FieldOwn},
		{Move: protocol.Move{X: 8, Y: 8}, Field: protocol.FieldOpponent},
		{Move: protocol.Move{X: 6, Y: 8}, Field: protocol.FieldOwn},
		{Move: protocol.Move{X: 6, Y: 9}, Field: protocol.FieldOpponent},
	}
	if err := br.SetPosition(stones); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := br.Think(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}
