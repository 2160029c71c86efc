package search

import (
	"context"
	"testing"

	"wuzi/eval"
)

// The correction table's entries stay within the clamp however large
// and however often the gaps it is taught, move towards each gap's sign,
// and a Clear forgets them.
func TestCorrectionStaysBounded(t *testing.T) {
	s := New(1)
	s.Options.Params.CorrWeight = 200
	s.prepare(setup(t, eval.Freestyle, 15, [2]int{7, 7}), Limits{})
	const k = 12345
	for range 100_000 {
		s.updateCorrection(eval.Black, k, Win, -Win, 40)
	}
	if e := s.corr[eval.Black-1][k]; e <= 0 || e > corrClamp*corrUnit {
		t.Fatalf("after 100,000 gaps of +2 wins: entry %d, want in (0, %d]", e, corrClamp*corrUnit)
	}
	if c := s.correction(eval.Black, k); c <= 0 || c > 2*corrClamp {
		t.Fatalf("correction %d at weight 200, want in (0, %d]", c, 2*corrClamp)
	}
	top := s.corr[eval.Black-1][k]
	s.updateCorrection(eval.Black, k, -50, 0, 1)
	if e := s.corr[eval.Black-1][k]; e >= top {
		t.Errorf("a result below the evaluation left the entry at %d (was %d)", e, top)
	}
	if e := s.corr[eval.White-1][k]; e != 0 {
		t.Errorf("the other side's entry changed: %d", e)
	}
	s.Clear()
	if e := s.corr[eval.Black-1][k]; e != 0 {
		t.Errorf("Clear left the entry at %d", e)
	}
}

// The correction key is the shape of stones around the last move: the
// same shape elsewhere on the board, or with other stones farther than two
// cells away, has the same key; a stone more inside the square, or the
// same stones in other colours, another.
func TestCorrectionKeyIsLocal(t *testing.T) {
	key := func(moves ...[2]int) uint32 {
		s := New(1)
		s.b = setup(t, eval.Freestyle, 15, moves...)
		return s.corrKey()
	}
	base := key([2]int{7, 7}, [2]int{8, 8}, [2]int{6, 8})
	if k := key([2]int{3, 4}, [2]int{4, 5}, [2]int{2, 5}); k != base {
		t.Errorf("the same shape moved: key %d, want %d", k, base)
	}
	if k := key([2]int{7, 7}, [2]int{8, 8}, [2]int{12, 12}, [2]int{1, 1}, [2]int{6, 8}); k != base {
		t.Errorf("stones added far away: key %d, want %d", k, base)
	}
	if k := key([2]int{7, 7}, [2]int{8, 8}, [2]int{5, 9}, [2]int{6, 8}); k == base {
		t.Errorf("a stone added inside the square: the same key %d", k)
	}
	if k := key([2]int{8, 8}, [2]int{7, 7}, [2]int{0, 14}, [2]int{6, 8}); k == base {
		t.Errorf("colours swapped: the same key %d", k)
	}
	// At the edge the square reads the wall, not the row before's end.
	if k, w := key([2]int{5, 5}, [2]int{14, 6}, [2]int{0, 7}), key([2]int{5, 5}, [2]int{9, 9}, [2]int{0, 7}); k != w {
		t.Errorf("a stone across the edge counted: key %d, want %d", k, w)
	}
	if k, w := key([2]int{5, 5}, [2]int{1, 6}, [2]int{0, 7}), key([2]int{5, 5}, [2]int{9, 9}, [2]int{0, 7}); k == w {
		t.Errorf("a stone inside the square at the edge not counted: the same key %d", k)
	}
}

// With the correction on, a search learns entries, searches another tree
// than without it, and the same tree again from a cleared table.
func TestCorrectionChangesTheSearch(t *testing.T) {
	b := setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{8, 8}, [2]int{8, 6}, [2]int{6, 9})
	run := func(weight int) (uint64, *Searcher) {
		s := New(16)
		s.Options.Params.CorrWeight = weight
		c := new(eval.Board)
		*c = *b
		return s.Search(context.Background(), c, Limits{MaxDepth: 9}, nil).Nodes, s
	}
	off, _ := run(0)
	on, s := run(100)
	if on == off {
		t.Errorf("the correction on searched the same %d nodes", on)
	}
	learnt := 0
	for _, side := range s.corr {
		for _, e := range side {
			if e != 0 {
				learnt++
			}
		}
	}
	if learnt == 0 {
		t.Fatal("a depth-9 search left every correction entry at 0")
	}
	if again, _ := run(100); again != on {
		t.Errorf("the same search with the correction: %d then %d nodes", on, again)
	}
}
