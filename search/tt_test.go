package search

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"wuzi/eval"
)

// TestTTReserve: a table starts on a small prefix of its slots, grows to
// the next power of two at or above what is asked, never shrinks and
// never passes its size; entries whose bucket is the same under the longer
// index are still found after a growth.
func TestTTReserve(t *testing.T) {
	tt := NewTT(64) // 4 Mi slots
	full := len(tt.slots)
	if tt.Used() != ttMinUsed {
		t.Fatalf("a new table uses %d slots, want %d", tt.Used(), ttMinUsed)
	}
	const low = 0x1234_5678_0000_1234 // bit 16 and up of the index clear
	tt.store(low, 42, 100, 5, boundExact, false)
	for _, c := range []struct{ ask, want int }{
		{1, ttMinUsed},
		{ttMinUsed + 1, 2 * ttMinUsed},
		{300_000, 1 << 19},
		{1000, 1 << 19},
		{math.MaxInt, full},
	} {
		tt.Reserve(uint64(c.ask))
		if tt.Used() != c.want {
			t.Fatalf("Reserve(%d): %d slots in use, want %d", c.ask, tt.Used(), c.want)
		}
		if e, ok := tt.probe(low); !ok || e.move != 42 {
			t.Fatalf("after Reserve(%d) the entry stored before reads %+v, %v", c.ask, e, ok)
		}
	}
	// A key stored under the full index lands in the upper half, which the
	// first searches never touched.
	const high = 0x1234_5678_0020_1234
	tt.store(high, 7, 1, 3, boundLower, true)
	if e, ok := tt.probe(high); !ok || e.move != 7 {
		t.Fatalf("entry stored in the grown table reads %+v, %v", e, ok)
	}
	tt.Clear()
	if _, ok := tt.probe(high); ok {
		t.Fatal("Clear left an entry of the grown part")
	}
}

// TestTableWant: a timed search gets room for its time, a node-limited one
// for its nodes, and one limited by neither (bench, analysis by depth) the
// whole table.
func TestTableWant(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name string
		lim  Limits
		want uint64
	}{
		{"1 s", Limits{Hard: now.Add(time.Second)}, ttSlotsPerSecond},
		{"3,000 nodes", Limits{MaxNodes: 3000}, 6000},
		{"3,000 nodes in 1 s", Limits{MaxNodes: 3000, Hard: now.Add(time.Second)}, 6000},
		{"hard limit passed", Limits{Hard: now.Add(-time.Second)}, 0},
		{"depth only", Limits{MaxDepth: 7}, math.MaxUint64},
		{"a century", Limits{Hard: now.Add(100 * 365 * 24 * time.Hour)}, math.MaxUint64},
	} {
		if got := tableWant(c.lim, now); got != c.want {
			t.Errorf("%s: %d slots, want %d", c.name, got, c.want)
		}
	}
}

// TestTableTarget: a search gets its need at once and, over a game, room
// for the earlier searches' entries, doubling the table at most a search
// up to the room times the need; without room (no huge pages) the need
// alone; a search limited by depth alone gets the whole table.
func TestTableTarget(t *testing.T) {
	const need = 1 << 21
	for _, c := range []struct {
		room uint64
		want []uint64
	}{
		{ttGameRoom, []uint64{need, 2 * need, 4 * need, 8 * need, 8 * need, 8 * need}},
		{1, []uint64{need, need, need, need, need, need}},
	} {
		used := uint64(ttMinUsed)
		var got []uint64
		for range 6 {
			used = max(used, tableTarget(need, used, c.room))
			got = append(got, used)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("room %d: slots over six searches %v, want %v", c.room, got, c.want)
		}
		if g := tableTarget(math.MaxUint64, ttMinUsed, c.room); g != math.MaxUint64 {
			t.Errorf("room %d: a search by depth alone reserves %d slots, want them all", c.room, g)
		}
	}
	if g := tableTarget(need/4, 16*need, ttGameRoom); g != 2*need {
		t.Errorf("a short search after long ones asks for %d slots, want %d (its own need times the room)", g, 2*need)
	}
}

// TestTTRoom: a table takes the game room exactly where huge pages back
// it.
func TestTTRoom(t *testing.T) {
	want := uint64(1)
	if hugePagesOn() {
		want = ttGameRoom
	}
	if r := NewTT(1).room; r != want {
		t.Errorf("room %d, want %d (huge pages on: %v)", r, want, hugePagesOn())
	}
}

// TestSearchSizesTable: a short timed search on a fresh large table uses a
// small part of it, and a search by depth alone the whole of it.
func TestSearchSizesTable(t *testing.T) {
	b, err := eval.NewBoard(15, 15, eval.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, xy := range [][2]int{{7, 7}, {8, 8}, {8, 6}, {6, 8}} {
		b.Play(b.Pos(xy[0], xy[1]))
	}
	s := New(256)
	full := len(s.TT.slots)
	now := time.Now()
	s.Search(context.Background(), b, Limits{Soft: now.Add(50 * time.Millisecond), Hard: now.Add(100 * time.Millisecond)}, nil)
	if u := s.TT.Used(); u > ttSlotsPerSecond/4 || u >= full {
		t.Errorf("a 100 ms search uses %d of %d slots, want at most %d", u, full, ttSlotsPerSecond/4)
	}
	s.Search(context.Background(), b, Limits{MaxDepth: 2}, nil)
	if u := s.TT.Used(); u != full {
		t.Errorf("a search by depth uses %d of %d slots", u, full)
	}
}

// TestTTPVFlag: an entry keeps the PV flag it was stored with, beside
// every other field, and a store over the same key replaces it.
func TestTTPVFlag(t *testing.T) {
	for _, e := range []ttEntry{
		{key: 1, move: 300, score: -29000, depth: 60, flags: uint8(boundUpper) | 63<<2, pv: true},
		{key: 2, move: eval.NoPos, score: 32767, depth: -1, flags: uint8(boundExact), pv: false},
	} {
		if got := unpack(e.key, e.pack()); got != e {
			t.Errorf("unpack(pack(%+v)) = %+v", e, got)
		}
	}
	tt := NewTT(1)
	tt.store(99, 5, 10, 4, boundLower, true)
	if e, ok := tt.probe(99); !ok || !e.pv || e.move != 5 || e.depth != 4 {
		t.Fatalf("stored with the flag, read %+v, %v", e, ok)
	}
	tt.store(99, 6, 10, 5, boundLower, false)
	if e, _ := tt.probe(99); e.pv || e.move != 6 {
		t.Fatalf("stored again without the flag, read %+v", e)
	}
}

// TestSearchMarksPV: after a search the position after the root's best
// move, a PV node, is stored with the PV flag, and the cut-node and PV
// reductions each change the tree.
func TestSearchMarksPV(t *testing.T) {
	b, err := eval.NewBoard(15, 15, eval.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, xy := range [][2]int{{7, 7}, {8, 8}, {8, 6}, {6, 9}, {9, 7}} {
		b.Play(b.Pos(xy[0], xy[1]))
	}
	search := func(p Params) (*Searcher, Result) {
		s := New(16)
		s.Options.Params = p
		c := new(eval.Board)
		*c = *b
		return s, s.Search(context.Background(), c, Limits{MaxDepth: 12}, nil)
	}
	s, res := search(DefaultParams())
	if res.Reason != "search" || len(res.PV) < 2 {
		t.Fatalf("want a searched line, got %+v", res)
	}
	if e, ok := s.TT.probe(b.HashAfter(res.Move)); !ok || !e.pv {
		t.Errorf("the position after the best move %v: entry %+v, %v; want the PV flag", res.Move, e, ok)
	}
	for _, name := range []string{"cutred=0", "pvred=0"} {
		p := DefaultParams()
		if err := p.Set(name); err != nil {
			t.Fatal(err)
		}
		if _, r := search(p); r.Nodes == res.Nodes {
			t.Errorf("%s searched the same %d nodes as the default", name, r.Nodes)
		}
	}
}
