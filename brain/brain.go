// Package brain is Wuzi's engine behind the protocol: the game state, the
// rule, the clock and memory limits, and the root decisions (moves, swap2
// choices) it asks the search for. It implements protocol.Brain.
package brain

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"wuzi/eval"
	"wuzi/protocol"
	"wuzi/search"
)

// Version is the engine's version, shown by ABOUT and --version.
const Version = "0.1.0"

// Config is how the command line sets the brain up.
type Config struct {
	// HashMB is the transposition table size in MiB before any
	// max_memory limit shrinks it.
	HashMB int
	// Threads is how many goroutines search (lazy SMP); 0 or 1 means
	// one, as Gomocup assumes. A manager's INFO thread_num overrides it.
	Threads int
	// Params, when set, replaces the search's tunable numbers
	// (search.DefaultParams): for tuning matches only.
	Params *search.Params
	// Debug, when set, receives diagnostic text (written as DEBUG lines
	// or to a log file by the caller).
	Debug func(string)
	// Started, when set, is when the process began by the operating
	// system's record (the program's own code runs some time later: the
	// binary is loaded and the runtime set up first, which on a loaded
	// machine takes hundreds of milliseconds). The managers charge the
	// first move from the process's creation, so start-up is measured
	// from Started when it is earlier than New and by less than
	// maxStartupAge; otherwise from New.
	Started time.Time
	// Stall, when set, receives the stacks of a search the watchdog
	// abandoned (see runSearch): many lines, for stderr or a log file,
	// never for the manager.
	Stall func(string)
}

// newSearcher makes a searcher with a table of mb MiB and the configured
// parameters.
func (br *Brain) newSearcher(mb int) *search.Searcher {
	s := search.New(mb)
	if br.cfg.Params != nil {
		s.Options.Params = *br.cfg.Params
	}
	return s
}

// Table sizes in MiB: the default, and the most any flag or INFO may ask
// for (a larger request is clamped: allocating more than the machine has
// would kill the process).
const (
	DefaultHashMB = 128
	MaxHashMB     = 1024
)

// Brain is the engine. Its methods are called from one goroutine at a time.
type Brain struct {
	cfg      Config
	board    *eval.Board
	rule     eval.Rule
	width    int
	height   int
	clock    Clock
	maxMem   int64 // bytes; 0 = no limit
	maxDepth int
	maxNodes uint64
	hashMB   int
	searcher *search.Searcher
	// created, startup and thought: the managers charge start-up to the
	// first move, so the first search of the process starts its clock
	// earlier by startup: the time from creation to the end of the last
	// START before it, plus the time INFO commands took after that (a table
	// resize). The time in between, when the brain waits for its first
	// turn (the opponent thinks, or GomocupJudge has suspended it), is on
	// nobody's clock and is not charged.
	created time.Time
	startup time.Duration
	thought bool
	// started is set by the first START: the board made by New only keeps
	// the methods safe, and a game command before START is refused.
	started bool
	// threads is the searchers' thread count (0: the configured one).
	threads int
	// work is the copy of board a search runs on, so that a search the
	// watchdog abandons leaves board alone; stuck is that search until
	// its searcher is taken back (see watchdog.go).
	work  *eval.Board
	stuck *stalled
	// stall, set by tests only, runs in the search's goroutine before the
	// search: it stands for a search that overruns its limit.
	stall func(context.Context)
}

// errNoGame is the answer to a game command before any START.
var errNoGame = errors.New("no game started: send START first")

// needGame refuses a game command before START.
func (br *Brain) needGame() error {
	if !br.started {
		return errNoGame
	}
	return nil
}

var _ protocol.Brain = (*Brain)(nil)

// New returns a brain with a 15×15 freestyle board.
func New(cfg Config) *Brain {
	if cfg.HashMB <= 0 {
		cfg.HashMB = DefaultHashMB
	}
	cfg.HashMB = min(cfg.HashMB, MaxHashMB)
	created := time.Now()
	if age := created.Sub(cfg.Started); !cfg.Started.IsZero() && age > 0 && age < maxStartupAge {
		created = cfg.Started
	}
	br := &Brain{cfg: cfg, rule: eval.Freestyle, clock: NewClock(), hashMB: cfg.HashMB, created: created, threads: cfg.Threads}
	br.searcher = br.newSearcher(br.tableMB())
	br.searcher.SetThreads(cfg.Threads)
	_ = br.Start(15, 15)
	br.started = false
	return br
}

func (br *Brain) debugf(format string, args ...any) {
	if br.cfg.Debug != nil {
		br.cfg.Debug(fmt.Sprintf(format, args...))
	}
}

// Board returns the current position (for tests and tools).
func (br *Brain) Board() *eval.Board { return br.board }

// Searcher returns the search engine (for tests and tools).
func (br *Brain) Searcher() *search.Searcher { return br.reclaim() }

// newBoard makes an empty width×height board under rule r, its
// evaluation scaled as Config.Params say (tuning matches only).
func (br *Brain) newBoard(width, height int, r eval.Rule) (*eval.Board, error) {
	return br.cfg.Params.NewBoard(width, height, r)
}

// Start sets up an empty width×height board under the current rule.
func (br *Brain) Start(width, height int) error {
	if width < eval.MinSize || width > eval.MaxSize || height < eval.MinSize || height > eval.MaxSize {
		return fmt.Errorf("unsupported size %dx%d: sides must be %d to %d", width, height, eval.MinSize, eval.MaxSize)
	}
	b, err := br.newBoard(width, height, br.rule)
	if err != nil {
		return err
	}
	br.board, br.width, br.height = b, width, height
	br.started = true
	if !br.thought {
		br.startup = time.Since(br.created)
	}
	return nil
}

// Restart empties the board.
func (br *Brain) Restart() error {
	if err := br.needGame(); err != nil {
		return err
	}
	br.board.Clear()
	return nil
}

// SetInfo applies one INFO key.
func (br *Brain) SetInfo(key, value string) error {
	if !br.thought {
		defer func(t0 time.Time) { br.startup += time.Since(t0) }(time.Now())
	}
	key = strings.ToLower(strings.TrimSpace(key))
	value = strings.TrimSpace(value)
	num := func() (int64, error) {
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("INFO %s: %q is not a whole number", key, value)
		}
		return n, nil
	}
	switch key {
	case "timeout_turn", "timeout_match", "max_memory":
		n, err := num()
		if err != nil {
			return err
		}
		if n < 0 {
			return fmt.Errorf("INFO %s: %d is negative", key, n)
		}
		switch key {
		case "timeout_turn":
			br.clock.TurnMS = n
		case "timeout_match":
			br.clock.MatchMS = n
		case "max_memory":
			br.setMaxMemory(n)
		}
	case "time_left":
		n, err := num()
		if err != nil {
			return err
		}
		br.clock.SetLeft(n) // negative means: out of time, move at once
	case "rule":
		n, err := num()
		if err != nil {
			return err
		}
		r, err := eval.ParseRule(int(n))
		if err != nil {
			return err
		}
		return br.setRule(r)
	case "max_depth":
		n, err := num()
		if err != nil || n < 0 {
			return fmt.Errorf("INFO max_depth: bad value %q", value)
		}
		br.maxDepth = int(n)
	case "max_node":
		n, err := num()
		if err != nil || n < 0 {
			return fmt.Errorf("INFO max_node: bad value %q", value)
		}
		br.maxNodes = uint64(n)
	case "hash_size":
		// Yixin-Board sends the table size in KiB; 0 means the default.
		n, err := num()
		if err != nil || n < 0 {
			return fmt.Errorf("INFO hash_size: bad value %q", value)
		}
		mb := br.cfg.HashMB
		if n > 0 {
			mb = int(min(max(n/1024, 1), MaxHashMB))
		}
		if mb != br.hashMB {
			br.hashMB = mb
			br.reclaim().Resize(br.tableSize())
		}
	case "thread_num":
		// Yixin-Board's thread count; 0 means the configured one.
		n, err := num()
		if err != nil || n < 0 {
			return fmt.Errorf("INFO thread_num: bad value %q", value)
		}
		t := br.cfg.Threads
		if n > 0 {
			t = int(min(n, search.MaxThreads))
		}
		br.threads = t
		br.reclaim().SetThreads(t)
	}
	// game_type, folder, evaluate, pondering, strength,
	// caution_factor and unknown keys change nothing here.
	return nil
}

// setMaxMemory sizes the table to fit max_memory with room for the rest
// of the process, and tells the Go runtime the limit: it collects garbage
// before its memory (the table included) reaches max_memory less half the
// room tableMB keeps, so garbage never pushes the process over.
func (br *Brain) setMaxMemory(n int64) {
	if n == br.maxMem {
		return
	}
	br.maxMem = n
	if n > 0 {
		room := max(24<<20, n/8)
		debug.SetMemoryLimit(max(n-room/2, n/2))
	} else {
		debug.SetMemoryLimit(-1)
	}
	br.reclaim().Resize(br.tableSize())
}

// tableMB is the table size allowed. Without max_memory it is the
// configured size (--hash or hash_size). With max_memory, a table of the
// default size (DefaultHashMB, whether by default or asked for) grows to
// fill it, up to MaxHashMB, and any other size is kept if it fits; either
// way max_memory less a room of an eighth of it (at least 24 MiB) bounds
// the table. Measured as GomocupJudge does (USS, after 20 s searches),
// everything but the table takes about 5 MiB: Gomocup's 350 MB gets a 256
// MiB table (NewTT rounds down to a power of two) and peaks at 261 MB.
func (br *Brain) tableMB() int {
	mb := br.hashMB
	if br.maxMem > 0 {
		allowed := int((br.maxMem - max(24<<20, br.maxMem/8)) >> 20)
		if mb == DefaultHashMB {
			mb = MaxHashMB
		}
		mb = min(mb, max(allowed, 1))
	}
	return mb
}

// setRule changes the rule, keeping the stones on the board.
func (br *Brain) setRule(r eval.Rule) error {
	if r == br.rule {
		return nil
	}
	nb, err := br.newBoard(br.width, br.height, r)
	if err != nil {
		return err
	}
	replay(nb, br.board, eval.NoPos)
	br.board, br.rule = nb, r
	return nil
}

// replay plays every move of from onto the empty board to, except the
// stone at skip.
func replay(to, from *eval.Board, skip eval.Pos) {
	for i := 0; i < from.Ply(); i++ {
		p, c := from.MoveAt(i)
		if p == skip {
			continue
		}
		if c == eval.Wall {
			to.Block(p)
		} else {
			to.PlayColor(p, c)
		}
	}
	to.SetSideToMove(from.SideToMove())
}

func (br *Brain) cell(m protocol.Move) (eval.Pos, error) {
	if !br.board.Inside(m.X, m.Y) {
		return eval.NoPos, fmt.Errorf("%d,%d is off the %dx%d board", m.X, m.Y, br.width, br.height)
	}
	return br.board.Pos(m.X, m.Y), nil
}

func (br *Brain) emptyCell(m protocol.Move) (eval.Pos, error) {
	p, err := br.cell(m)
	if err != nil {
		return p, err
	}
	if !br.board.IsEmpty(p) {
		return p, fmt.Errorf("%d,%d is occupied", m.X, m.Y)
	}
	return p, nil
}

// OpponentMove plays the opponent's stone.
func (br *Brain) OpponentMove(m protocol.Move) error {
	if err := br.needGame(); err != nil {
		return err
	}
	p, err := br.emptyCell(m)
	if err != nil {
		return err
	}
	br.board.Play(p)
	return nil
}

// OwnMove plays a stone for the brain itself.
func (br *Brain) OwnMove(m protocol.Move) error { return br.OpponentMove(m) }

// SetPosition replaces the position. Stones come in play order with field
// 1 (ours), 2 (the opponent's) or 3 (blocked); the side to move is ours,
// and our colour is Black when the stones are even in number.
func (br *Brain) SetPosition(stones []protocol.Stone) error {
	if err := br.needGame(); err != nil {
		return err
	}
	seen := make(map[protocol.Move]bool, len(stones))
	var n int
	for _, s := range stones {
		if !br.board.Inside(s.X, s.Y) {
			return fmt.Errorf("stone %d,%d is off the %dx%d board", s.X, s.Y, br.width, br.height)
		}
		if seen[s.Move] {
			return fmt.Errorf("two stones at %d,%d", s.X, s.Y)
		}
		seen[s.Move] = true
		switch s.Field {
		case protocol.FieldOwn, protocol.FieldOpponent:
			n++
		case protocol.FieldBlocked:
		default:
			return fmt.Errorf("stone %d,%d has field %d; want 1, 2 or 3", s.X, s.Y, s.Field)
		}
	}
	own := eval.Black
	if n%2 == 1 {
		own = eval.White
	}
	b := br.board
	b.Clear()
	for _, s := range stones {
		p := b.Pos(s.X, s.Y)
		switch s.Field {
		case protocol.FieldOwn:
			b.PlayColor(p, own)
		case protocol.FieldOpponent:
			b.PlayColor(p, own.Opp())
		default:
			b.Block(p)
		}
	}
	b.SetSideToMove(own)
	return nil
}

// Takeback removes the stone at m (normally the last one played).
func (br *Brain) Takeback(m protocol.Move) error {
	if err := br.needGame(); err != nil {
		return err
	}
	p, err := br.cell(m)
	if err != nil {
		return err
	}
	b := br.board
	if b.At(p) == eval.Empty {
		return fmt.Errorf("no stone at %d,%d", m.X, m.Y)
	}
	if b.LastMove() == p {
		b.Undo()
		return nil
	}
	nb, err := br.newBoard(br.width, br.height, br.rule)
	if err != nil {
		return err
	}
	_, c := colorAt(b, p)
	replay(nb, b, p)
	if c != eval.Wall {
		// The removed stone's owner is to move again.
		nb.SetSideToMove(c)
	}
	br.board = nb
	return nil
}

func colorAt(b *eval.Board, p eval.Pos) (int, eval.Color) {
	for i := 0; i < b.Ply(); i++ {
		if q, c := b.MoveAt(i); q == p {
			return i, c
		}
	}
	return -1, eval.Empty
}

// maxStartupCharge caps how much start-up time is taken off the first
// move's budget: at a 1 s turn the first move still searches 420 ms.
// A fresh process on a loaded machine can take 300 ms and more before
// its START is answered, most of it before the program's own code runs
// (Config.Started); the managers charge all of it.
const maxStartupCharge = 500 * time.Millisecond

// maxStartupAge bounds how long before New a Config.Started may lie: a
// brain made later in a long-running process (a test, a server) measures
// its start-up from New.
const maxStartupAge = 10 * time.Second

// ErrBoardFull is returned by Think when no empty cell is left.
var ErrBoardFull = errors.New("the board is full")

// Think searches the side to move's move within the clock, plays it and
// returns it.
func (br *Brain) Think(ctx context.Context, nBest int, r protocol.Reporter) (protocol.Move, error) {
	p, err := br.search(ctx, nBest, r)
	if err != nil {
		return protocol.Move{}, err
	}
	br.board.Play(p)
	x, y := br.board.XY(p)
	return protocol.Move{X: x, Y: y}, nil
}

// Analyze searches like Think, reporting nBest lines, and returns the best
// move without playing it (YXNBEST).
func (br *Brain) Analyze(ctx context.Context, nBest int, r protocol.Reporter) (protocol.Move, error) {
	p, err := br.search(ctx, nBest, r)
	if err != nil {
		return protocol.Move{}, err
	}
	x, y := br.board.XY(p)
	return protocol.Move{X: x, Y: y}, nil
}

// search runs one search on the current position under the clock.
func (br *Brain) search(ctx context.Context, nBest int, r protocol.Reporter) (eval.Pos, error) {
	if err := br.needGame(); err != nil {
		return eval.NoPos, err
	}
	b := br.board
	if b.Empties() == 0 {
		return eval.NoPos, ErrBoardFull
	}
	now := time.Now()
	clockStart := now
	if !br.thought {
		// Start-up counts on the first move's clock (GomocupJudge,
		// wuzi-match), the wait for the first turn does not (see
		// startup).
		br.thought = true
		clockStart = now.Add(-min(br.startup, maxStartupCharge))
	}
	budget := br.clock.Budget(clockStart, b.Empties())
	lim := search.Limits{Soft: budget.Soft, Hard: budget.Hard, MaxDepth: br.maxDepth, MaxNodes: br.maxNodes, NBest: nBest}
	if budget.Instant {
		lim.MaxDepth = 2
	}
	res, err := br.runSearch(ctx, lim, budget.Watch, r)
	if err != nil {
		return eval.NoPos, err
	}
	if res.Move == eval.NoPos {
		return eval.NoPos, ErrBoardFull
	}
	br.debugf("move %s reason %s depth %d score %d nodes %d time %dms", br.name(res.Move), res.Reason, res.Depth, res.Score, res.Nodes, time.Since(now).Milliseconds())
	return res.Move, nil
}

func (br *Brain) name(p eval.Pos) string {
	x, y := br.board.XY(p)
	return fmt.Sprintf("%d,%d", x, y)
}

// toProtocolInfo turns a search's report on board b into the protocol's.
func toProtocolInfo(b *eval.Board, in search.Info) protocol.SearchInfo {
	out := protocol.SearchInfo{Depth: in.Depth, SelDepth: in.SelDepth, MultiPV: in.MultiPV, Score: in.Score, Nodes: in.Nodes, Elapsed: in.Elapsed}
	if search.IsMate(in.Score) {
		plies := search.MatePlies(in.Score)
		if plies > 0 {
			out.Mate = (plies + 1) / 2
		} else {
			out.Mate = -(-plies + 1) / 2
			if out.Mate == 0 {
				out.Mate = -1
			}
		}
	}
	for _, p := range in.PV {
		if p == eval.NoPos {
			break
		}
		x, y := b.XY(p)
		out.PV = append(out.PV, protocol.Move{X: x, Y: y})
	}
	return out
}

// Forbidden lists Black's forbidden cells (renju only).
func (br *Brain) Forbidden() []protocol.Move {
	var out []protocol.Move
	for _, p := range br.board.ForbiddenCells() {
		x, y := br.board.XY(p)
		out = append(out, protocol.Move{X: x, Y: y})
	}
	return out
}

// ClearHash empties the transposition table.
func (br *Brain) ClearHash() { br.reclaim().Clear() }

// About tells who the brain is.
func (br *Brain) About() protocol.About {
	return protocol.About{Name: "Wuzi", Version: Version, Author: "The Wuzi developers", Country: "International"}
}
