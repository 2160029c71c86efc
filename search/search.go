// Package search finds moves: root shortcuts (win now, block a five), a
// threat-space search for forced wins by continuous fours (VCF), and an
// iterative-deepening principal-variation alpha-beta search with a
// transposition table, ordered by the board's score grid.
//
// Scores are from the side to move's view. A win is Win minus the number of
// plies to the five, so shorter wins score higher and longer losses score
// less badly; anything beyond ±(Win-MaxPly) is a proven result.
//
// The search never prints: it reports Info values through a callback.
package search

import (
	"context"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"wuzi/eval"
)

// Score bounds.
const (
	// Win is the score of a five on the board for the side that made it,
	// seen from the ply it was made.
	Win = 30000
	// MaxPly is the deepest the search goes from the root.
	MaxPly = 128
	// winBound: scores at or beyond it are proven wins or losses.
	winBound = Win - MaxPly
	infinity = Win + 1
	// maxGamePly bounds the moves the search stacks on the root position
	// (alpha-beta plies plus VCF plies beyond them).
	maxGamePly = 2 * MaxPly
)

// Root threat-search budgets: plies and nodes. Without a deadline (bench,
// fixed-depth analysis) the node budgets alone bound them, so that bench
// stays deterministic; under a clock each also gets a share of the soft
// time (vctTimeShare) and its node budget grows by vctTimedNodesFactor.
// The budgets are a quarter of what they were until the 78th session
// (40,000 nodes; half the soft time for our own VCT, a quarter for the
// opponent's, an eighth for each check of a best move): at 1 s those
// searches took a fifth of the move in gauntlet positions (up to half
// where our own VCT ran out), and the smaller budgets scored about
// +23 ± 25 Elo against Rapfi (Wuzi at 300 ms a move, Rapfi at 30,000
// nodes, two seeds of 400 games: +36 ± 38 and +13 ± 33;
// docs/evidence.md).
const (
	vctPlies            = 35
	vctNodes            = 10000
	vcfDefenceNodes     = 10000
	vctDefencePlies     = 25
	vctDefenceMoves     = 24
	vctDefenceNodes     = 10000
	vctTimeShare        = 16 // the opponent's threat searches get 1/16 of the soft time each (or of a node limit)
	ownVCTTimeShare     = 8  // except our own VCT, which gets an eighth: its long wins are worth the time
	minThreatNodes      = 64
	vctTimedNodesFactor = 100
	// Each finished iteration's best move is checked for a VCT of the
	// opponent's after it (vctVerifyPlies plies, vctVerifyNodes nodes,
	// under a clock at most 1/vctVerifyTimeShare of the soft time); a
	// move that loses so is dropped, up to vctVerifyMoves a time, and a
	// move the check did not find lost is not checked again in the same
	// search. The opponent's VCTs that Wuzi let in against other engines
	// were mostly 17-25 plies long: 15 and 17 plies missed them.
	vctVerifyPlies     = 25
	vctVerifyNodes     = 10000
	vctVerifyMoves     = 4
	vctVerifyTimeShare = 32
)

// IsMate reports whether score is a proven win or loss.
func IsMate(score int) bool { return score >= winBound || score <= -winBound }

// MatePlies returns, for a proven score, the plies to the five (positive
// when the side to move wins, negative when it loses).
func MatePlies(score int) int {
	if score >= winBound {
		return Win - score
	}
	if score <= -winBound {
		return -(Win + score)
	}
	return 0
}

// Limits bound one search. Zero values mean no limit, except that a search
// with neither a deadline nor a depth or node limit stops at MaxDepth.
type Limits struct {
	// Soft: do not start a new iteration after this time.
	Soft time.Time
	// Hard: abort the search at this time.
	Hard time.Time
	// MaxDepth limits the iteration depth.
	MaxDepth int
	// MaxNodes limits the nodes searched (checked between iterations and
	// at the polling interval).
	MaxNodes uint64
	// NBest > 1 reports that many root lines each iteration.
	NBest int
}

// Info is one progress report.
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int // 1-based line index when NBest > 1, else 0
	Score    int
	Nodes    uint64
	Elapsed  time.Duration
	PV       []eval.Pos
}

// Result is what a search found.
type Result struct {
	Move  eval.Pos
	Score int
	// Depth is the iteration that chose Move: the last finished one, or
	// the unfinished one after it when a later root move beat the first
	// there.
	Depth int
	Nodes uint64
	PV    []eval.Pos
	// Reason says how the move was chosen: "five", "block", "vcf",
	// "search", "only move".
	Reason string
}

// Options switch techniques on and off, for A/B matches.
type Options struct {
	UseVCF       bool // prove wins by continuous fours at the root and horizon
	UseLMR       bool // late-move reductions
	UseThreatGen bool // when the opponent threatens an open four, search only answers to it
	QuiesceVCF   bool // run VCF at the horizon
	UseLMP       bool // late-move (move-count) pruning once a node has a move that does not lose
	UseVCT       bool // prove wins by continuous threats at the root
	VerifyVCT    bool // drop a best move after which the opponent has a VCT
	// UseStaticPrune: razoring and reverse futility pruning at quiet
	// non-PV nodes.
	UseStaticPrune bool
	// Params are the search's tunable numbers (DefaultParams unless a
	// tuning match sets others).
	Params Params
}

// DefaultOptions are the settings the engine plays with.
func DefaultOptions() Options {
	return Options{UseVCF: true, UseLMR: true, UseThreatGen: true, QuiesceVCF: true, UseLMP: true, UseVCT: true, VerifyVCT: true, UseStaticPrune: true, Params: DefaultParams()}
}

// Searcher holds what persists between searches: the transposition table
// and the ordering heuristics. It is not safe for concurrent use.
type Searcher struct {
	TT      *TT
	Options Options
	// OnLeaf, when set, is called with the board at each horizon node of
	// this searcher's tree (not the helper threads'), before its static
	// evaluation: tools sample there the positions the evaluation is
	// asked about. It must leave the board as it found it.
	OnLeaf func(b *eval.Board)
	// CutStats, when set, counts where this searcher's alpha-beta nodes
	// fail high (not the helper threads').
	CutStats *CutStats
	// ptab tabulates Options.Params (rebuilt by prepare when they change).
	ptab paramTables

	b        *eval.Board
	nodes    uint64
	stop     atomic.Bool // raised by Stop, the deadline or a node limit
	stopped  atomic.Bool // raised by Stop only
	hard     time.Time
	maxNodes uint64
	// nodeLimit is the whole search's node limit (Limits.MaxNodes; 0 =
	// none), which bounds each threat search's share.
	nodeLimit uint64
	start     time.Time
	selDepth  int

	killers [MaxPly + 2][2]eval.Pos
	// evalStack holds each ply's static evaluation (noEval if none).
	evalStack [MaxPly + 2]int
	// expectCut[ply] says whether the node at ply is an expected cut node
	// (a non-PV node whose parent expects it to fail high): set by the
	// parent before each call, as Stockfish and Rapfi pass cutNode.
	expectCut [MaxPly + 2]bool
	// blockFrac[ply] is the fraction of a ply, in tenths, that the forced
	// blocks on the path to the node at ply have earned and not yet spent
	// (see blockExt): set by the parent before each call.
	blockFrac [MaxPly + 2]int8
	// history and attHistory are each side's history of quiet moves and
	// of attacks (a three or better for the side playing it): see
	// cutStats.
	history    [2][historySize]int32
	attHistory [2][historySize]int32
	// corr is the correction history (nil while Params.CorrWeight is 0);
	// corrAt and rawEval keep each ply's key and uncorrected evaluation
	// for its update.
	corr     *corrTable
	corrAt   [MaxPly + 2]uint32
	rawEval  [MaxPly + 2]int
	verified []eval.Pos // root moves dropLosingMoves has cleared in this search
	improved rootMove   // a root move that beat the first one in an unfinished iteration
	// mustFinish is set while the first iteration runs: even a search
	// stopped before it starts answers with a move searched to depth 1.
	mustFinish bool
	moveBuf    [MaxPly + 2][]scoredMove
	// candBuf holds genMoves' candidate cells (eval.Board.Candidates)
	// while it scores them.
	candBuf []eval.Pos
	// flexBuf[ply] lists, when genMoves made the moves of a node under an
	// open-three threat, the cells where the opponent makes an open four
	// (see BlocksOpenFours).
	flexBuf   [MaxPly + 2][]eval.Pos
	pv        [MaxPly + 2][MaxPly + 2]eval.Pos
	pvLen     [MaxPly + 2]int
	vcfBuf    [maxGamePly + 2][]eval.Pos
	area      [maxGamePly + 2]area
	areaTop   int
	vctBuf    [maxGamePly + 2][]scoredMove
	vctDefBuf [maxGamePly + 2][]eval.Pos
	vcfPath   []eval.Pos
	vcfWin    []eval.Pos
	vcfLen    int
	// vcfLocal limits the VCF search to fours near the attacker's last
	// stone (the horizon's quick check).
	vcfLocal   bool
	pnt        *pnTable
	pnAttacker eval.Color
	pnSalt     uint64
	pnBuf      [maxGamePly + 2][]pnKid
	pnFlexBuf  [maxGamePly + 2][]eval.Pos // the attacker's open-four cells (andKids)

	// Lazy SMP: the helper threads of a main searcher, and for a helper
	// its role and the depths it skips at the start.
	helpers     []*helper
	helperNodes uint64
	isHelper    bool
	depthSkew   int
}

// New returns a searcher with a transposition table of hashMB mebibytes.
func New(hashMB int) *Searcher { return newSearcher(NewTT(hashMB)) }

// newSearcher returns a searcher using the table tt.
func newSearcher(tt *TT) *Searcher {
	s := &Searcher{TT: tt, Options: DefaultOptions()}
	s.ptab.build(s.Options.Params)
	for i := range s.moveBuf {
		s.moveBuf[i] = make([]scoredMove, 0, 64)
	}
	for i := range s.vcfBuf {
		s.vcfBuf[i] = make([]eval.Pos, 0, 32)
	}
	s.candBuf = make([]eval.Pos, 0, eval.MaxSize*eval.MaxSize)
	return s
}

// Resize replaces the transposition table with one of hashMB mebibytes.
// The threat search's proof table, sized from it, is made anew on its
// next use.
func (s *Searcher) Resize(hashMB int) {
	s.TT = NewTT(hashMB)
	s.pnt = nil
}

// Clear forgets everything learnt: table and ordering heuristics.
func (s *Searcher) Clear() {
	s.TT.Clear()
	if s.pnt != nil {
		s.pnt.clear()
	}
	s.history = [2][historySize]int32{}
	s.attHistory = [2][historySize]int32{}
	if s.corr != nil {
		*s.corr = corrTable{}
	}
	s.killers = [MaxPly + 2][2]eval.Pos{}
}

// Stop asks a running search to return as soon as it can.
func (s *Searcher) Stop() {
	s.stopped.Store(true)
	s.stop.Store(true)
}

// nodeBudget limits the search to n more nodes until the function it
// returns is called, which restores the limit and resumes the search if
// only this budget stopped it.
func (s *Searcher) nodeBudget(n uint64) func() {
	if s.nodeLimit > 0 {
		// A node-limited search (max_node, fixed-node self-play) gives
		// each threat search at most a share of its nodes, so that the
		// alpha-beta iterations get the rest.
		n = min(n, max(s.nodeLimit/vctTimeShare, minThreatNodes))
	}
	saved := s.maxNodes
	if limit := s.nodes + n; saved == 0 || limit < saved {
		s.maxNodes = limit
	}
	return func() {
		s.maxNodes = saved
		s.resume()
	}
}

// threatBudget bounds a root threat search: n nodes, and under a clock
// also 1/share of the time to the soft deadline (with more nodes). The
// function it returns restores the limits.
func (s *Searcher) threatBudget(n uint64, soft time.Time, share time.Duration) func() {
	if soft.IsZero() {
		return s.nodeBudget(n)
	}
	saved := s.hard
	if until := time.Now().Add(soft.Sub(s.start) / share); saved.IsZero() || until.Before(saved) {
		s.hard = until
	}
	restore := s.nodeBudget(n * vctTimedNodesFactor)
	return func() {
		s.hard = saved
		restore()
	}
}

// resume clears a stop raised by a sub-search's own node limit, unless the
// caller stopped the search or its deadline or node limit has passed.
func (s *Searcher) resume() {
	if s.stopped.Load() {
		return
	}
	if !s.hard.IsZero() && !time.Now().Before(s.hard) {
		return
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		return
	}
	s.stop.Store(false)
}

// errAbort marks a search unwound by the stop flag; its scores are never
// trusted or stored.
func (s *Searcher) aborted() bool { return s.stop.Load() && !s.mustFinish }

// poll checks the clock and node limit every 256 nodes.
func (s *Searcher) poll() {
	s.nodes++
	if s.nodes&255 != 0 {
		return
	}
	if (!s.hard.IsZero() && time.Now().After(s.hard)) || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
		s.stop.Store(true)
	}
}

// ttSlotsPerSecond is how many table slots a search may use per second
// of its hard limit: several times the entries a search stores in that
// time (under a million a second on this project's machine).
const ttSlotsPerSecond = 2 << 20

// tableWant is how many table slots a search within lim, started at start,
// may use: room for a node limit twice over or for the time to the hard
// limit at ttSlotsPerSecond, whichever is less; the whole table without
// either.
func tableWant(lim Limits, start time.Time) uint64 {
	want := uint64(math.MaxUint64)
	if lim.MaxNodes > 0 {
		want = 2 * lim.MaxNodes
	}
	if !lim.Hard.IsZero() {
		if sec := max(lim.Hard.Sub(start).Seconds(), 0); sec < 1e6 {
			want = min(want, uint64(sec*ttSlotsPerSecond))
		}
	}
	return want
}

// ttGameRoom is how many times its own need (tableWant) a timed or
// node-limited search may find in use where huge pages back the table
// (TT.room): the room keeps the entries of the game's earlier searches for
// the later ones, whose positions lie in the same tree. Beyond the need
// the table at most doubles a search, so the page faults of memory not
// touched before are spread over a game's first moves instead of slowing
// its first search (see TT). Against Rapfi at fixed nodes (Wuzi at
// 400,000 a move: 8 Mi slots against the 1 Mi of its need) the room
// leaned ahead, about +9 Elo over four runs of 400 games (+5 to +20
// each, ±31-33), and at 1 s a move on Linux the iterations reach the
// same depth; the Windows build under Wine, whose table has only 4 KiB
// pages, reached 0.7 of a ply less with it (docs/evidence.md, 94th
// session), so there the need alone is kept. Gomocup's longer moves fill
// the whole table anyway.
const ttGameRoom = 8

// tableTarget is how many slots a search that needs want reserves on a
// table that has used in use and room (ttGameRoom or 1): want at once,
// and up to room times it, doubling the slots in use at most.
func tableTarget(want, used, room uint64) uint64 {
	if room <= 1 || want > math.MaxUint64/room {
		return want
	}
	return max(want, min(2*used, room*want))
}

// Search chooses a move for the side to move on b. The board is used as
// scratch space and is returned to its position. It returns NoPos only
// when the board has no empty cell. ctx cancellation stops the search; the
// best move of the last finished iteration (or of the root shortcuts) is
// returned, or a root move that beat it in the unfinished iteration after
// it (then reported too, with that iteration's depth).
func (s *Searcher) Search(ctx context.Context, b *eval.Board, lim Limits, onInfo func(Info)) (res Result) {
	s.prepare(b, lim)
	s.TT.Reserve(tableTarget(tableWant(lim, s.start), uint64(s.TT.Used()), s.TT.room))
	s.TT.NewSearch()
	defer context.AfterFunc(ctx, s.Stop)()

	if b.Empties() == 0 {
		return Result{Move: eval.NoPos, Reason: "board full"}
	}
	us := b.SideToMove()
	them := us.Opp()
	report := func(r Result) Result {
		if onInfo != nil {
			onInfo(Info{Depth: r.Depth, Score: r.Score, Nodes: s.nodes, Elapsed: time.Since(s.start), PV: r.PV})
		}
		return r
	}

	// 1. A five of our own.
	if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
		return report(Result{Move: p, Score: Win - 1, Depth: 1, PV: []eval.Pos{p}, Reason: "five"})
	}
	legal := s.rootMoves()
	if len(legal) == 0 {
		// Only forbidden cells are left for Black: any empty cell.
		for _, p := range b.Cells() {
			if b.IsEmpty(p) {
				return Result{Move: p, Score: -Win, Reason: "no legal move"}
			}
		}
	}
	// 2. The opponent's five must be blocked.
	if p := s.findCombo(them, eval.ComboFive); p != eval.NoPos {
		if s.forbidden(p) {
			// Renju Black cannot block at a foul point: the game is lost,
			// but a legal move loses it later than the foul would.
			return report(Result{Move: legal[0], Score: -Win + 2, Depth: 1, PV: []eval.Pos{legal[0]}, Reason: "lost"})
		}
		if len(legal) == 1 || b.ComboCount(them, eval.ComboFive) > 1 {
			return report(Result{Move: p, Score: -Win + 2, Depth: 1, PV: []eval.Pos{p}, Reason: "block"})
		}
		legal = []eval.Pos{p}
	}
	if len(legal) == 1 {
		// The move is decided: no search, and the score is that of a
		// one-ply search (the static evaluation after it), not a level 0.
		return report(Result{Move: legal[0], Score: s.evalAfter(legal[0]), Depth: 1, PV: []eval.Pos{legal[0]}, Reason: "only move"})
	}
	// Helper threads, if any, search from here on while the main thread
	// runs the threat searches and then the iterations.
	stopHelpers := s.startHelpers(lim, legal)
	defer func() {
		stopHelpers()
		res.Nodes = s.Nodes()
	}()
	// 3. A win by continuous fours.
	if s.Options.UseVCF && b.ComboCount(them, eval.ComboFive) == 0 {
		if seq, ok := s.vcfRoot(0); ok {
			return report(Result{Move: seq[0], Score: Win - len(seq), Depth: len(seq), PV: seq, Reason: "vcf"})
		}
	}
	// 4. A win by continuous threats, within a node budget.
	rootVCT := s.Options.UseVCT && s.Options.Params.NoRootThreats == 0
	if rootVCT && b.ComboCount(them, eval.ComboFive) == 0 {
		if p, ok := s.vctRootTimed(vctPlies, vctNodes, lim.Soft); ok {
			return report(Result{Move: p, Score: Win - vctPlies, Depth: vctPlies, PV: []eval.Pos{p}, Reason: "vct"})
		}
	}
	// 5. If the opponent has a win by continuous fours, keep only the
	// moves that refute it (all of them when none does).
	if s.Options.UseVCF && len(legal) > 1 {
		legal = s.refuteOpponentVCF(legal)
		if len(legal) == 1 {
			return report(Result{Move: legal[0], Score: s.evalAfter(legal[0]), Depth: 1, PV: []eval.Pos{legal[0]}, Reason: "only defence"})
		}
	}
	if rootVCT && len(legal) > 1 {
		legal = s.refuteOpponentVCT(legal, lim.Soft)
	}
	// 6. Iterative deepening (its first iteration runs even when stopped).
	return s.iterate(lim, legal, onInfo)
}

// evalAfter is the side to move's static evaluation of the position
// after p: the score of a one-ply search.
func (s *Searcher) evalAfter(p eval.Pos) int {
	s.play(p)
	v := -s.staticEval()
	s.undo()
	return v
}

// rootMoves lists the moves worth considering at the root, best first.
func (s *Searcher) rootMoves() []eval.Pos {
	ms := s.genMoves(0, eval.NoPos, false)
	sortMoves(ms)
	out := make([]eval.Pos, len(ms))
	for i, m := range ms {
		out[i] = m.pos
	}
	return out
}

// forbidden reports whether the side to move may not play p (renju Black).
func (s *Searcher) forbidden(p eval.Pos) bool {
	return s.b.SideToMove() == eval.Black && s.b.IsForbidden(p)
}

type rootMove struct {
	pos   eval.Pos
	score int
	pv    []eval.Pos
}

func (s *Searcher) iterate(lim Limits, legal []eval.Pos, onInfo func(Info)) Result {
	maxDepth := lim.MaxDepth
	if maxDepth <= 0 || maxDepth > MaxPly-8 {
		maxDepth = MaxPly - 8
	}
	moves := make([]rootMove, len(legal))
	for i, p := range legal {
		moves[i] = rootMove{pos: p, score: -infinity}
	}
	best := Result{Move: legal[0], PV: []eval.Pos{legal[0]}, Reason: "search"}
	nBest := max(1, lim.NBest)
	prevScore := 0
	for depth := 1 + s.depthSkew; depth <= maxDepth; depth++ {
		s.selDepth = 0
		s.improved = rootMove{pos: eval.NoPos}
		alpha, beta := -infinity, infinity
		window := s.Options.Params.AspWindow
		if depth >= 5 && nBest == 1 && !IsMate(prevScore) {
			alpha, beta = prevScore-window, prevScore+window
		}
		var score int
		s.mustFinish = depth == 1 && !s.isHelper
		for {
			score = s.searchRoot(moves, depth, alpha, beta, nBest)
			if s.aborted() {
				break
			}
			if score <= alpha && alpha > -infinity {
				alpha = max(-infinity, alpha-4*window)
				window *= 4
				continue
			}
			if score >= beta && beta < infinity {
				beta = min(infinity, beta+4*window)
				window *= 4
				continue
			}
			break
		}
		if s.aborted() {
			// An unfinished iteration still improves the choice when a
			// move searched to the end beat the one searched first.
			if s.improved.pos != eval.NoPos && depth > 1 {
				best = Result{Move: s.improved.pos, Score: s.improved.score, Depth: depth, PV: s.improved.pv, Reason: "search"}
				// Reported, so that the last line a manager or an
				// analysis tool shows is the move played. (With several
				// lines a report would stand for the whole list.)
				if onInfo != nil && nBest == 1 {
					onInfo(Info{Depth: depth, SelDepth: s.selDepth, Score: best.Score, Nodes: s.nodes,
						Elapsed: time.Since(s.start), PV: best.PV})
				}
			}
			break
		}
		if s.Options.VerifyVCT && s.Options.Params.NoRootThreats == 0 && !IsMate(score) {
			moves = s.dropLosingMoves(moves, lim.Soft)
			if s.aborted() {
				break
			}
			if moves[0].score <= -infinity+1 {
				// Failed low in this iteration: its true score is below
				// the old best one; show that until the next iteration.
				moves[0].score = score
			}
		}
		prevScore = score
		changed := depth > 1 && moves[0].pos != best.Move
		best = Result{Move: moves[0].pos, Score: moves[0].score, Depth: depth, PV: moves[0].pv, Reason: "search"}
		if onInfo != nil {
			for i := 0; i < min(nBest, len(moves)); i++ {
				mpv := 0
				if nBest > 1 {
					mpv = i + 1
				}
				onInfo(Info{Depth: depth, SelDepth: s.selDepth, MultiPV: mpv, Score: moves[i].score, Nodes: s.nodes,
					Elapsed: time.Since(s.start), PV: moves[i].pv})
			}
		}
		if IsMate(score) && MatePlies(score) <= depth {
			break // a proven result will not change with depth
		}
		if !lim.Soft.IsZero() && !s.timeForAnotherIteration(lim.Soft, changed) {
			break
		}
		if lim.MaxNodes > 0 && s.nodes >= lim.MaxNodes {
			break
		}
	}
	best.Nodes = s.nodes
	return best
}

// Nodes is the number of nodes of the current or last search: while it
// runs the main thread's, once it has returned every thread's.
func (s *Searcher) Nodes() uint64 { return s.nodes + s.helperNodes }

// dropLosingMoves checks the first root move for a VCT of the opponent's
// after it and drops it when there is one, then checks the next, up to
// vctVerifyMoves moves; the last move is never dropped. A VCT the threat
// search reports is a proven win, so no move that could save the game is
// lost.
//
// A move the check has cleared once in this search (s.verified) is not
// checked again: where the opponent's attack is strong but its win too
// long for the check, the same best move came back from every iteration
// and its check ran out its whole share each time, so that at 1 s a move
// the iterations got a fifth of the time and stopped at depth 5 instead of
// 11 (docs/evidence.md, 71st session).
func (s *Searcher) dropLosingMoves(moves []rootMove, soft time.Time) []rootMove {
	for n := 0; n < vctVerifyMoves && len(moves) > 1; n++ {
		if slices.Contains(s.verified, moves[0].pos) {
			break
		}
		s.play(moves[0].pos)
		restore := s.threatBudget(vctVerifyNodes, soft, vctVerifyTimeShare)
		_, lost := s.vctDeepen(1, vctVerifyPlies)
		restore()
		s.undo()
		if s.aborted() {
			break
		}
		if !lost {
			s.verified = append(s.verified, moves[0].pos)
			break
		}
		moves = moves[1:]
	}
	return moves
}

// Root late-move reductions: a root move at index rootReduce1 or later in
// the root order (the last iteration's scores, then the move order) that
// makes no three or four for either side is first searched a ply
// shallower, two plies from index rootReduce2; one that beats alpha so is
// searched again at full depth; as in the interior, a reduced move keeps a
// depth of at least 1. The root reduced nothing before: +21 ± 34 against
// Rapfi at 2,000 nodes, +3.5 and +33 in self-play (docs/evidence.md).
const (
	rootReduce1 = 3
	rootReduce2 = 10
)

// searchRoot searches every root move at depth and sorts them best first.
// With nBest > 1 the first nBest moves get exact scores.
func (s *Searcher) searchRoot(moves []rootMove, depth, alpha, beta, nBest int) int {
	bestScore := -infinity
	us := s.b.SideToMove()
	s.evalStack[0] = s.staticEval()
	s.blockFrac[1] = plyTenths / 2 // fractions round to the nearest ply
	for i := range moves {
		m := &moves[i]
		quiet := s.b.Combo(m.pos, us) < eval.ComboThree && s.b.Combo(m.pos, us.Opp()) < eval.ComboThree
		s.play(m.pos)
		s.nodes++
		s.CutStats.root()
		var score int
		if i < nBest {
			s.expectCut[1] = false
			score = -s.pvs(depth-1, 1, -beta, -alpha, true)
		} else {
			r := 0
			if depth >= 3 && i >= rootReduce1 && quiet {
				r = 1
				if i >= rootReduce2 {
					r = 2
				}
				// Never straight to the horizon, as in the interior.
				r = min(r, depth-2)
			}
			s.expectCut[1] = true
			score = -s.pvs(depth-1-r, 1, -alpha-1, -alpha, false)
			if score > alpha && r > 0 && !s.aborted() {
				s.expectCut[1] = true
				score = -s.pvs(depth-1, 1, -alpha-1, -alpha, false)
			}
			if score > alpha && score < beta && !s.aborted() {
				s.expectCut[1] = false
				score = -s.pvs(depth-1, 1, -beta, -alpha, true)
			}
		}
		s.undo()
		if s.aborted() {
			return bestScore
		}
		if score > alpha || i < nBest {
			m.score = score
			m.pv = append(append(m.pv[:0], m.pos), s.pv[1][:s.pvLen[1]]...)
			if i > 0 && score > bestScore && score > alpha {
				s.improved = rootMove{pos: m.pos, score: score, pv: slices.Clone(m.pv)}
			}
		} else {
			m.score = -infinity + 1 // below every move that raised alpha; the stable sort keeps the old order
		}
		if score > bestScore {
			bestScore = score
		}
		if nBest == 1 && score > alpha {
			alpha = score
			if score >= beta {
				for j := i + 1; j < len(moves); j++ {
					moves[j].score = -infinity + 1
				}
				break
			}
		}
	}
	slices.SortStableFunc(moves, func(a, b rootMove) int { return b.score - a.score })
	return bestScore
}

// timeForAnotherIteration decides, after an iteration, whether to start
// the next: while the soft deadline has not passed, and, when this
// iteration changed the best move, until half again as long (the hard
// deadline still aborts). Stopping early on a stable move lost matches
// (docs/evidence.md), so a stable move keeps the plain soft deadline.
func (s *Searcher) timeForAnotherIteration(soft time.Time, changed bool) bool {
	if changed {
		soft = s.start.Add(soft.Sub(s.start) * 3 / 2)
	}
	return time.Now().Before(soft)
}
