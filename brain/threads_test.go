package brain

import (
	"context"
	"testing"

	"wuzi/protocol"
	"wuzi/search"
)

// TestThreadNum: INFO thread_num sets the search threads, 0 goes back to
// the configured count, a huge count is clamped, and a bad value is an
// error that changes nothing.
func TestThreadNum(t *testing.T) {
	br := New(Config{HashMB: 8, Threads: 2})
	if got := br.Searcher().Threads(); got != 2 {
		t.Fatalf("Config.Threads 2 gave %d threads", got)
	}
	steps := []struct {
		value   string
		want    int
		wantErr bool
	}{
		{"4", 4, false},
		{"1", 1, false},
		{"0", 2, false},
		{"1000000", search.MaxThreads, false},
		{"-1", search.MaxThreads, true},
		{"two", search.MaxThreads, true},
		{"3", 3, false},
	}
	for _, st := range steps {
		err := br.SetInfo("thread_num", st.value)
		if (err != nil) != st.wantErr {
			t.Errorf("thread_num %q: error %v, want error %v", st.value, err, st.wantErr)
		}
		if got := br.Searcher().Threads(); got != st.want {
			t.Errorf("after thread_num %q: %d threads, want %d", st.value, got, st.want)
		}
	}
	// A move is still answered with several threads.
	if err := br.Start(15, 15); err != nil {
		t.Fatal(err)
	}
	if err := br.SetInfo("timeout_turn", "200"); err != nil {
		t.Fatal(err)
	}
	stones := []protocol.Stone{{Move: protocol.Move{X: 7, Y: 7}, Field: protocol.FieldOwn}, {Move: protocol.Move{X: 8, Y: 8}, Field: protocol.FieldOpponent}}
	if err := br.SetPosition(stones); err != nil {
		t.Fatal(err)
	}
	m, err := br.Think(context.Background(), 1, nil)
	if err != nil || m.X < 0 || m.Y < 0 || m.X >= 15 || m.Y >= 15 || br.Board().Ply() != 3 {
		t.Fatalf("Think with 3 threads: %v %v, ply %d", m, err, br.Board().Ply())
	}
}
