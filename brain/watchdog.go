package brain

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"wuzi/eval"
	"wuzi/protocol"
	"wuzi/search"
)

// The watchdog. A search polls the clock every few hundred nodes and
// returns by its hard limit; should it ever fail to (four first moves in
// some 10,000 match games on the project's machine went silent for
// seconds after the first iteration, docs/evidence.md, Time safety), the
// brain does not wait for it past Budget.Watch: it answers with the best
// move of the last iteration the search reported, and the search is
// abandoned along with the board copy and the searcher (table and all)
// it still owns. The next search takes the searcher back if the
// abandoned one has returned by then, and otherwise makes a small
// replacement, so that a search that never returns neither blocks the
// engine nor doubles its memory.

// replacementMB is the table size of a searcher made while the abandoned
// one still holds its table: small, so the two fit in the room max_memory
// keeps beside the table (at least 24 MiB, see tableMB).
const replacementMB = 16

// watchFloor is the least time the watchdog gives a search from its
// start. A search always finishes its first iteration, even past its hard
// limit, which start-up charged to the first move can put in the past
// already (at a 300 ms turn a start-up of 300 ms does); the managers'
// tolerance of a second or more covers that, and the watchdog must not
// cut it short.
const watchFloor = 250 * time.Millisecond

// stalled is a search the watchdog abandoned.
type stalled struct {
	done     chan struct{}    // closed when the abandoned search returns
	searcher *search.Searcher // the searcher it owns until then
}

// reclaim makes sure br.searcher is not owned by an abandoned search:
// it takes the abandoned searcher back once its search has returned, and
// replaces it with a small one while it has not. Every use of br.searcher
// goes through it.
func (br *Brain) reclaim() *search.Searcher {
	st := br.stuck
	if st == nil {
		return br.searcher
	}
	select {
	case <-st.done:
		br.stuck = nil
		if br.searcher != st.searcher {
			// The replacement's settings go back with the searcher.
			st.searcher.SetThreads(br.threads)
			st.searcher.Resize(br.tableSize())
		}
		br.searcher = st.searcher
	default:
		if br.searcher == st.searcher {
			br.searcher = br.newSearcher(br.tableSize())
			br.searcher.SetThreads(br.threads)
		}
	}
	return br.searcher
}

// tableSize is the table size for br.searcher now: tableMB, or the
// replacement's size while an abandoned search holds the big table.
func (br *Brain) tableSize() int {
	if br.stuck != nil {
		return min(br.tableMB(), replacementMB)
	}
	return br.tableMB()
}

// runSearch searches a copy of the brain's board under lim, reporting each
// iteration to r, and returns the search's result, or what the watchdog
// answers when the search has not returned by watch.
func (br *Brain) runSearch(ctx context.Context, lim search.Limits, watch time.Time, r protocol.Reporter) (search.Result, error) {
	s := br.reclaim()
	if br.work == nil {
		br.work = new(eval.Board)
	}
	*br.work = *br.board // a Board holds no pointers to mutable data
	b := br.work
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var abandoned atomic.Bool
	var last atomic.Int32 // the last reported iteration's best move
	last.Store(int32(eval.NoPos))
	onInfo := func(in search.Info) {
		if abandoned.Load() {
			return
		}
		if in.MultiPV <= 1 && len(in.PV) > 0 {
			last.Store(int32(in.PV[0]))
		}
		if r != nil {
			r.Info(toProtocolInfo(b, in))
		}
	}
	type outcome struct {
		res search.Result
		err error
	}
	out := make(chan outcome, 1)
	done := make(chan struct{})
	stall := br.stall
	go func() {
		defer close(done)
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{err: fmt.Errorf("internal: %v", p)}
			}
			out <- o
		}()
		if stall != nil {
			stall(ctx)
		}
		o.res = s.Search(ctx, b, lim, onInfo)
	}()
	t := time.NewTimer(max(time.Until(watch), watchFloor))
	defer t.Stop()
	select {
	case o := <-out:
		return o.res, o.err
	case <-t.C:
	}
	// The search overran: answer without it.
	abandoned.Store(true)
	cancel()
	br.stuck = &stalled{done: done, searcher: s}
	br.work = nil
	m := eval.Pos(last.Load())
	reason := "watchdog, last iteration"
	if m == eval.NoPos || !br.board.IsEmpty(m) {
		m, reason = fallbackMove(br.board), "watchdog, no iteration"
	}
	late := time.Since(lim.Hard).Milliseconds()
	if r != nil {
		r.Message(fmt.Sprintf("watchdog: the search did not return %d ms after its hard limit; answering %s (%s)", late, br.name(m), reason))
	}
	if br.cfg.Stall != nil {
		// In a goroutine of its own: a manager that pipes stderr and never
		// reads it (once its buffer is full) must not block the answer.
		go br.cfg.Stall(searchStacks())
	}
	return search.Result{Move: m, Reason: reason}, nil
}

// fallbackMove is the watchdog's move when no iteration finished: a five,
// else the block of the opponent's five, else the candidate cell with the
// highest attack plus defence value that is legal for the side to move.
func fallbackMove(b *eval.Board) eval.Pos {
	us := b.SideToMove()
	them := us.Opp()
	legal := func(p eval.Pos) bool {
		return b.IsEmpty(p) && !(us == eval.Black && b.IsForbidden(p))
	}
	if p := b.FirstCombo(us, eval.ComboFive); p != eval.NoPos && legal(p) {
		return p
	}
	if p := b.FirstCombo(them, eval.ComboFive); p != eval.NoPos && legal(p) {
		return p
	}
	// Ties go to the cell nearest the last move.
	lx, ly := -1, -1
	if last := b.LastMove(); last != eval.NoPos {
		lx, ly = b.XY(last)
	}
	dist := func(p eval.Pos) int {
		x, y := b.XY(p)
		return max(x-lx, lx-x, y-ly, ly-y)
	}
	best, bestV, bestD := eval.NoPos, int32(0), 0
	for _, p := range b.Candidates(nil) {
		v, d := b.MoveValue(p, us)+b.MoveValue(p, them), dist(p)
		if (best == eval.NoPos || v > bestV || v == bestV && d < bestD) && legal(p) {
			best, bestV, bestD = p, v, d
		}
	}
	if best != eval.NoPos {
		return best
	}
	// An empty board, or no candidate is legal: the cell nearest the
	// centre that is, or any empty one.
	cx, cy := b.Width()/2, b.Height()/2
	bestD = -1
	anyEmpty := eval.NoPos
	for _, p := range b.Cells() {
		if !b.IsEmpty(p) {
			continue
		}
		anyEmpty = p
		x, y := b.XY(p)
		if d := (x-cx)*(x-cx) + (y-cy)*(y-cy); legal(p) && (bestD < 0 || d < bestD) {
			best, bestD = p, d
		}
	}
	if best == eval.NoPos {
		return anyEmpty
	}
	return best
}

// searchStacks returns the stacks of the goroutines inside a search, or
// of every goroutine when none is found: where an overrunning search was
// when the watchdog gave up on it.
func searchStacks() string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 1<<22 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var keep []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "wuzi/search.") {
			keep = append(keep, g)
		}
	}
	out := strings.Join(keep, "\n\n")
	if len(keep) == 0 {
		out = string(buf)
	}
	if len(out) > maxStacks {
		out = out[:maxStacks] + "\n..."
	}
	return out
}

// maxStacks bounds the stacks written for one abandoned search.
const maxStacks = 32 << 10
