package brain

import (
	"context"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"wuzi/protocol"
)

// TestTableFitsMaxMemory: with max_memory the default table grows to what
// the limit allows, an asked-for size is kept when it fits, and the table
// always leaves room (everything else measured about 5 MiB) under the
// limit. The Go runtime's limit sits between the table and max_memory.
func TestTableFitsMaxMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	for _, c := range []struct {
		hash   int
		maxMem int64
		wantMB int
	}{
		{0, 0, DefaultHashMB},   // no limit: the default size
		{0, 367001600, 256},     // Gomocup's 350 MB: 512 MiB would not fit
		{0, 104857600, 64},      // 100 MiB
		{0, 100000000, 64},      // 100 MB
		{0, 67108864, 32},       // 64 MiB
		{16, 367001600, 16},     // an asked-for size that fits is kept
		{1024, 367001600, 256},  // one that does not is shrunk
		{512, 0, 512},           // no limit: as asked
		{0, 2 << 30, MaxHashMB}, // never more than MaxHashMB
		{0, 20 << 20, 0},        // a tiny limit: a table of at most 1 MiB
	} {
		br := New(Config{HashMB: c.hash})
		if c.maxMem > 0 {
			if err := br.SetInfo("max_memory", strconv.FormatInt(c.maxMem, 10)); err != nil {
				t.Fatal(err)
			}
		}
		got := br.Searcher().TT.SizeBytes()
		if want := c.wantMB << 20; got != want && (c.wantMB > 0 || got > 1<<20) {
			t.Errorf("hash %d, max_memory %d: table %d MiB, want %d", c.hash, c.maxMem, got>>20, c.wantMB)
		}
		if c.maxMem > 0 {
			if int64(got)+24<<20 > c.maxMem && c.maxMem >= 48<<20 {
				t.Errorf("max_memory %d: a %d MiB table leaves less than 24 MiB", c.maxMem, got>>20)
			}
			if limit := debug.SetMemoryLimit(-1); limit <= int64(got)+8<<20 || limit >= c.maxMem {
				t.Errorf("max_memory %d, table %d MiB: Go memory limit %d", c.maxMem, got>>20, limit)
			}
		}
	}
}

// TestMoveLatencyFirstMoveBigTable: allocating the table max_memory allows (256
// MiB at Gomocup's limit) does not delay the first move: the table's pages
// are the operating system's fresh zero pages, touched as the search
// fills them. CI runs this without the race detector too.
func TestMoveLatencyFirstMoveBigTable(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	// As in a fresh process: no garbage of earlier tests' tables, whose
	// reuse would have to be cleared.
	debug.FreeOSMemory()
	start := time.Now()
	br := New(Config{})
	if err := br.Start(15, 15); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"max_memory", "367001600"}, {"timeout_turn", "1000"},
		{"timeout_match", "180000"}, {"time_left", "180000"}} {
		if err := br.SetInfo(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	// The manager's clock starts when it sends TURN: the move is bounded by
	// the turn from there. START and INFO are not timed by the managers, but
	// allocating the table there must not stall either; they get their own
	// bound (they take about 30 ms) so that a stall of this shared machine
	// before TURN does not eat the move's margin.
	setup := time.Since(start)
	turn := time.Now()
	if err := br.OpponentMove(protocol.Move{X: 7, Y: 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := br.Think(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	move := time.Since(turn)
	t.Logf("table %d MiB; New, START and INFO %v; first move %v after TURN", br.Searcher().TT.SizeBytes()>>20, setup, move)
	if limit := raceSlowdown * time.Second; setup >= limit {
		t.Errorf("New, START and INFO took %v, over %v", setup, limit)
	}
	if limit := raceSlowdown * time.Second; move >= limit {
		t.Errorf("first move %v after TURN, over the 1000 ms turn", move)
	}
}
