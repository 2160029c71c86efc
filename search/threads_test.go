package search

import (
	"context"
	"runtime"
	"testing"
	"time"

	"wuzi/eval"
)

// TestTTTornSlotIsMiss: a slot whose two words come from different
// writers (as two threads storing at once can leave it) must read as a
// miss, never as another position's result.
func TestTTTornSlotIsMiss(t *testing.T) {
	tt := NewTT(1)
	const k1, k2 = 0x1234_5678_9abc_0000, 0x0fed_cba9_8765_0000 // same bucket
	tt.store(k1, 42, 100, 5, boundExact, false)
	e, ok := tt.probe(k1)
	if !ok || e.move != 42 || e.score != 100 || e.depth != 5 || bound(e.flags&3) != boundExact {
		t.Fatalf("stored entry reads back as %+v, %v", e, ok)
	}
	// Tear it: the data word of another entry with k1's check word.
	other := ttEntry{key: k2, move: 7, score: -3, depth: 9, flags: uint8(boundLower)}
	sl := &tt.slots[k1&tt.mask]
	sl.data.Store(other.pack())
	if e, ok := tt.probe(k1); ok {
		t.Fatalf("torn slot read as a hit for k1: %+v", e)
	}
	if e, ok := tt.probe(k2); ok {
		t.Fatalf("torn slot read as a hit for k2: %+v", e)
	}
}

// TestTTPackRoundTrip: every field survives packing, negative values too.
func TestTTPackRoundTrip(t *testing.T) {
	for _, e := range []ttEntry{
		{key: 1, move: eval.NoPos, score: -Win, depth: -1, flags: 3 | 63<<2},
		{key: ^uint64(0), move: 1000, score: Win, depth: 127, flags: 1},
		{key: 77, move: 0, score: 0, depth: 0, flags: 2},
	} {
		if got := unpack(e.key, e.pack()); got != e {
			t.Errorf("round trip of %+v gave %+v", e, got)
		}
	}
}

// TestThreadsSearch: with helper threads a search still answers a legal
// move, counts every thread's nodes, and leaves no goroutine behind,
// whether it ends by depth, by deadline or by cancellation.
func TestThreadsSearch(t *testing.T) {
	base := runtime.NumGoroutine()
	positions := []*eval.Board{
		setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{8, 8}, [2]int{8, 6}, [2]int{6, 8}, [2]int{9, 7}, [2]int{7, 8}),
		setup(t, eval.Renju, 15, [2]int{7, 7}, [2]int{8, 6}, [2]int{9, 7}, [2]int{8, 8}, [2]int{8, 7}),
		setup(t, eval.Freestyle, 20, [2]int{10, 10}, [2]int{11, 11}, [2]int{10, 13}),
	}
	s := New(8)
	s.SetThreads(3)
	if s.Threads() != 3 {
		t.Fatalf("Threads() = %d, want 3", s.Threads())
	}
	check := func(name string, b *eval.Board, r Result) {
		t.Helper()
		if r.Move == eval.NoPos || !b.IsEmpty(r.Move) || (b.SideToMove() == eval.Black && b.IsForbidden(r.Move)) {
			t.Errorf("%s: illegal move %v", name, r.Move)
		}
		if r.Nodes != s.Nodes() || s.Nodes() <= s.nodes {
			t.Errorf("%s: result nodes %d, all threads %d, main thread %d: helpers' nodes not counted", name, r.Nodes, s.Nodes(), s.nodes)
		}
	}
	for i, b := range positions {
		before := b.Hash()
		check("depth", b, s.Search(context.Background(), b, Limits{MaxDepth: 4}, nil))
		now := time.Now()
		check("deadline", b, s.Search(context.Background(), b, Limits{Soft: now.Add(50 * time.Millisecond), Hard: now.Add(100 * time.Millisecond)}, nil))
		ctx, cancel := context.WithTimeout(context.Background(), 80*time.Millisecond)
		check("cancel", b, s.Search(ctx, b, Limits{}, nil))
		cancel()
		if b.Hash() != before {
			t.Errorf("position %d: the board was not given back unchanged", i)
		}
	}
	// The helpers have all returned by the time Search does.
	for i := 0; runtime.NumGoroutine() > base && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines left after the searches (%d before)", n, base)
	}
	s.SetThreads(1)
	if s.Threads() != 1 || len(s.helpers) != 0 {
		t.Errorf("SetThreads(1) left %d helpers", len(s.helpers))
	}
}

// TestOneThreadUnchanged: SetThreads(1) searches exactly as a searcher
// never given threads (same nodes, same move), and a searcher that had
// helpers and went back to one thread does too.
func TestOneThreadUnchanged(t *testing.T) {
	b := setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{8, 8}, [2]int{8, 6}, [2]int{6, 8}, [2]int{9, 7})
	plain := New(8)
	r1 := plain.Search(context.Background(), b, Limits{MaxDepth: 4}, nil)
	again := New(8)
	again.SetThreads(2)
	again.Search(context.Background(), b, Limits{MaxDepth: 3}, nil)
	again.SetThreads(1)
	again.Clear()
	r2 := again.Search(context.Background(), b, Limits{MaxDepth: 4}, nil)
	if r1.Move != r2.Move || r1.Nodes != r2.Nodes || r1.Score != r2.Score {
		t.Errorf("one thread after helpers: move %v nodes %d score %d; never threaded: move %v nodes %d score %d",
			r2.Move, r2.Nodes, r2.Score, r1.Move, r1.Nodes, r1.Score)
	}
}

// TestThreatShareOfNodeLimit: under a node limit a threat search gets at
// most a share of it (not its own larger budget), and the limit comes
// back afterwards; without a node limit it gets its whole budget.
func TestThreatShareOfNodeLimit(t *testing.T) {
	b := setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{8, 8})
	s := New(1)
	s.prepare(b, Limits{MaxNodes: 4000})
	s.nodes = 100
	restore := s.nodeBudget(40000)
	if s.maxNodes != 100+4000/vctTimeShare {
		t.Errorf("under a 4000-node limit a 40000-node threat search may reach %d nodes, want %d", s.maxNodes, 100+4000/vctTimeShare)
	}
	restore()
	if s.maxNodes != 4000 {
		t.Errorf("limit after the threat search %d, want 4000", s.maxNodes)
	}
	s.prepare(b, Limits{})
	restore = s.nodeBudget(40000)
	if s.maxNodes != 40000 {
		t.Errorf("without a node limit: %d, want the budget of 40000", s.maxNodes)
	}
	restore()
}
