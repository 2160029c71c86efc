package search

import (
	"sync"
	"time"

	"wuzi/eval"
)

// MaxThreads is the most search threads SetThreads allows.
const MaxThreads = 64

// helper is one extra search thread of lazy SMP: a searcher of its own
// (ordering heuristics, stacks) on its own copy of the board, sharing the
// main searcher's transposition table.
type helper struct {
	s     *Searcher
	board *eval.Board
}

// SetThreads sets how many goroutines search a position (1 to
// MaxThreads; the default is 1). With more than one, helper threads search
// the same root moves at staggered depths and share what they find
// through the transposition table (lazy SMP); the main thread's search
// alone chooses the move, so a one-thread search is exactly as before.
func (s *Searcher) SetThreads(n int) {
	n = max(1, min(n, MaxThreads))
	for len(s.helpers) < n-1 {
		s.helpers = append(s.helpers, &helper{s: newSearcher(nil), board: new(eval.Board)})
	}
	s.helpers = s.helpers[:n-1]
}

// Threads is the number of goroutines a search uses.
func (s *Searcher) Threads() int { return len(s.helpers) + 1 }

// startHelpers starts every helper thread on the current position, with
// the root moves legal, and returns the function that stops them, waits
// for them and counts their nodes into the search's.
func (s *Searcher) startHelpers(lim Limits, legal []eval.Pos) func() {
	if len(s.helpers) == 0 {
		return func() {}
	}
	var wg sync.WaitGroup
	for i, h := range s.helpers {
		hs := h.s
		// Everything the helper reads is set here, before it starts, so
		// that a Stop sent right after cannot be lost.
		*h.board = *s.b
		hs.TT = s.TT
		hs.Options = s.Options
		hs.Options.VerifyVCT = false
		hs.isHelper = true
		hs.depthSkew = 1 + i%2
		hs.prepare(h.board, Limits{Hard: lim.Hard, MaxDepth: lim.MaxDepth})
		wg.Add(1)
		go func() {
			defer wg.Done()
			hs.iterate(Limits{Hard: lim.Hard, MaxDepth: lim.MaxDepth}, legal, nil)
		}()
	}
	return func() {
		for _, h := range s.helpers {
			h.s.Stop()
		}
		wg.Wait()
		for _, h := range s.helpers {
			s.helperNodes += h.s.nodes
		}
	}
}

// prepare resets the per-search state for a search of b within lim.
func (s *Searcher) prepare(b *eval.Board, lim Limits) {
	s.b = b
	s.start = time.Now()
	s.nodes = 0
	s.helperNodes = 0
	s.verified = s.verified[:0]
	s.stop.Store(false)
	s.stopped.Store(false)
	s.hard = lim.Hard
	s.maxNodes = lim.MaxNodes
	s.nodeLimit = lim.MaxNodes
	for c := range s.history {
		for i := range s.history[c] {
			s.history[c][i] /= 8
			s.attHistory[c][i] /= 8
		}
	}
	s.resetArea()
	switch on := s.Options.Params.CorrWeight > 0; {
	case on && s.corr == nil:
		s.corr = new(corrTable)
	case !on:
		s.corr = nil
	}
	if s.ptab.of != s.Options.Params {
		s.ptab.build(s.Options.Params)
	}
}
