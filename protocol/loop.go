package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Defaults for the Run options.
const (
	// DefaultEndGrace is how long END waits for a cancelled search to
	// return before Run returns anyway. Managers kill a brain 0.5–1 s after
	// END. A cancelled search returns within milliseconds natively, but the
	// Windows build under Wine once took over 200 ms (a session piped in
	// whole lost its last answers in CI), so the grace keeps twice that.
	DefaultEndGrace = 400 * time.Millisecond
	// DefaultMaxQueuedLines bounds the commands kept while the brain thinks.
	DefaultMaxQueuedLines = 4096
	// maxQueuedBytes bounds the bytes of the commands kept while the brain
	// thinks, so a flood of long lines cannot eat the memory budget.
	maxQueuedBytes = 1 << 20
	// maxBlockLines bounds the lines of one BOARD, YXBOARD or SWAP2BOARD
	// block (a 32×32 board has 1024 cells).
	maxBlockLines = 2048
	// maxEcho is how much of a bad line an ERROR or UNKNOWN line repeats.
	maxEcho = 64
)

// Option changes how Run behaves.
type Option func(*config)

type config struct {
	maxLine   int
	endGrace  time.Duration
	maxQueued int
}

// WithMaxLineBytes sets the longest input line kept (DefaultMaxLineBytes
// when n <= 0). The excess of a longer line is discarded and the line is
// answered as a bad command.
func WithMaxLineBytes(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxLine = n
		}
	}
}

// WithEndGrace sets how long END (or EOF, or a cancelled context) waits for
// a cancelled search to return before Run returns anyway.
func WithEndGrace(d time.Duration) Option {
	return func(c *config) {
		if d >= 0 {
			c.endGrace = d
		}
	}
}

// WithMaxQueuedLines sets how many command lines are kept while the brain
// thinks; further lines are dropped with a DEBUG line.
func WithMaxQueuedLines(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxQueued = n
		}
	}
}

// Run serves the protocol: it reads commands from in, drives brain, and
// writes every answer through w. The caller makes w with NewWriter and may
// point the log package at w.DebugLogger() before calling Run.
//
// One goroutine reads lines; Run's goroutine handles them in order. BEGIN,
// TURN, BOARD, YXNBEST and SWAP2BOARD start Think or Swap2 in a goroutine of
// its own; while it runs, END, STOP and YXSTOP act at once and every other
// line waits, in order, until the answer is written. STOP and YXSTOP cancel
// the search's context so the brain answers its best move so far. END (or
// the end of input) cancels it too: its move is written, any lines sent
// before END are answered with their searches stopped at once, and Run
// returns — within the end grace time even if the brain does not stop.
//
// Run returns nil after END or at the end of input, the read error if
// reading failed, or ctx.Err() if ctx is cancelled. It never writes after it
// returns. Brain panics are recovered and answered with an ERROR line
// ("internal: …"), a last resort so one bad position does not lose a
// tournament game by crash.
func Run(ctx context.Context, in io.Reader, w *Writer, brain Brain, opts ...Option) error {
	if in == nil || w == nil || brain == nil {
		return errors.New("protocol: Run needs an input, a Writer and a Brain")
	}
	cfg := config{maxLine: DefaultMaxLineBytes, endGrace: DefaultEndGrace, maxQueued: DefaultMaxQueuedLines}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	var closed atomic.Bool
	defer closed.Store(true)
	s := &session{ctx: ctx, cfg: cfg, w: w, brain: brain, rep: gatedReporter{w: w, closed: &closed}}

	lines := make(chan rawLine)
	quit := make(chan struct{})
	defer close(quit)
	var readErr error // set before lines is closed
	go func() {
		defer close(lines)
		defer func() {
			if p := recover(); p != nil {
				readErr = fmt.Errorf("protocol: reading input panicked: %v", p)
			}
		}()
		lr := newLineReader(in, cfg.maxLine)
		for {
			l, err := lr.next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = err
				}
				return
			}
			select {
			case lines <- l:
			case <-quit:
				return
			}
		}
	}()

	var queue []rawLine
	queued := 0 // bytes in queue
	input := lines
	// ending is armed by END or the end of input: from then on every
	// search is stopped at once so that what was sent before gets its
	// answer, and Run returns when a search has not answered within the
	// grace time, whatever a stubborn brain does.
	var ending <-chan time.Time
	var graced *job // the search the ending grace was last armed for
	startEnding := func() {
		s.hurry = true
		if s.job != nil {
			s.job.cancel()
		}
		if ending == nil {
			ending = time.After(cfg.endGrace)
			graced = s.job
		}
	}
	for {
		for s.job == nil && len(queue) > 0 {
			l := queue[0]
			queue[0] = rawLine{}
			queue = queue[1:]
			queued -= len(l.text)
			if s.handle(l) {
				return nil
			}
		}
		if input == nil && s.job == nil {
			// End of input, and everything before it is answered.
			return readErr
		}
		if ending != nil && s.job != nil && s.job != graced {
			// Each stopped search gets its own grace from its start: the
			// commands handled before it (a table resize, a new board)
			// do not eat into it.
			graced = s.job
			ending = time.After(cfg.endGrace)
		}
		var done chan jobResult
		if s.job != nil {
			done = s.job.done
		}
		select {
		case <-ctx.Done():
			s.abort()
			return ctx.Err()
		case <-ending:
			s.abort()
			if input == nil {
				return readErr
			}
			return nil
		case l, ok := <-input:
			if !ok {
				// End of input works like END: the answers to what was
				// sent come out (a script piping a session in gets them
				// all), with every search stopped at once.
				input = nil
				startEnding()
				continue
			}
			if s.job != nil {
				switch urgentKind(l) {
				case KindEnd:
					// END while thinking: the search stops and its move
					// is written (a manager that sent END ignores it; a
					// script gets its answer), then the queued commands
					// and END itself are handled in order.
					startEnding()
				case KindStop, KindYXStop:
					s.job.cancel()
					continue
				}
				if len(queue) >= cfg.maxQueued || queued+len(l.text) > maxQueuedBytes {
					s.w.Debug("too many commands while thinking, dropped: " + excerpt(l.text))
					continue
				}
			}
			queue = append(queue, l)
			queued += len(l.text)
		case r := <-done:
			s.finish(r)
			if ending != nil {
				// Progress: the next stopped search gets its own grace.
				ending = time.After(cfg.endGrace)
			}
		}
	}
}

// urgentKind returns END, STOP or YXSTOP for a line naming one of them, and
// KindUnknown for any other line.
func urgentKind(l rawLine) Kind {
	if l.tooLong {
		return KindUnknown
	}
	word, _ := splitWord(l.text)
	switch k := kindOf(word); k {
	case KindEnd, KindStop, KindYXStop:
		return k
	}
	return KindUnknown
}

// session is the state of one Run.
type session struct {
	ctx   context.Context
	cfg   config
	w     *Writer
	brain Brain
	rep   Reporter
	block *block // the BOARD/YXBOARD/SWAP2BOARD block being read, if any
	job   *job   // the running Think or Swap2, if any
	// hurry is set when END or the end of input came while thinking:
	// every search from then on is stopped at once, so that the commands
	// before END get their answers and END is obeyed without delay.
	hurry bool
}

// block collects the lines of a BOARD, YXBOARD or SWAP2BOARD block. A bad
// line does not end the block: the rest is read up to DONE, then one ERROR
// names the first bad line and the position stays as it was. A line naming
// a known command ends the block early the same way and is then handled, so
// a lost DONE cannot swallow the rest of the session.
type block struct {
	kind   Kind
	stones []Stone // BOARD, YXBOARD
	moves  []Move  // SWAP2BOARD
	lines  int
	bad    string // the first problem, "" if none
}

// job is a running Think or Swap2.
type job struct {
	cancel  context.CancelFunc
	done    chan jobResult
	swap2   bool
	nStones int
}

type jobResult struct {
	move Move
	swap Swap2Answer
	err  error
}

// handle acts on one line while no search runs. It returns true on END.
func (s *session) handle(l rawLine) bool {
	if s.block != nil {
		return s.blockLine(l)
	}
	if l.tooLong {
		word, _ := splitWord(l.text)
		switch kindOf(word) {
		case KindInfo, KindEnd, KindStop, KindYXStop, KindYXHashClear:
			// A command that is never answered gets no answer even when
			// it is too long: Piskvork would take an UNKNOWN line here
			// for the answer to its next command. A DEBUG line is safe.
			s.w.Debug(word + " ignored: line too long: " + excerpt(l.text) + "...")
		default:
			s.w.Unknown(excerpt(l.text) + "... (line too long)")
		}
		return false
	}
	c, err := ParseCommand(l.text)
	if c.Kind == KindInfo {
		// INFO is never answered. An ERROR here would be unsafe: Piskvork
		// takes the first line that is not MESSAGE/DEBUG as the answer to
		// its next command, so it would read the ERROR as our move. See
		// infoProblem.
		if err == nil {
			err = s.call(func() error { return s.brain.SetInfo(c.Key, c.Value) })
		}
		if err != nil {
			s.infoProblem(c, err)
		}
		return false
	}
	if err != nil {
		s.w.Error(err.Error())
		return false
	}
	switch c.Kind {
	case KindUnknown:
		s.w.Unknown(excerpt(l.text))
	case KindEnd:
		return true
	case KindStop, KindYXStop:
		// Nothing is running: nothing to stop, nothing to say.
	case KindStart, KindRectStart:
		if s.do(func() error { return s.brain.Start(c.Width, c.Height) }) {
			s.w.OK()
		}
	case KindRestart:
		if s.do(s.brain.Restart) {
			s.w.OK()
		}
	case KindBegin:
		s.think(1)
	case KindTurn:
		if s.do(func() error { return s.brain.OpponentMove(c.Move) }) {
			s.think(1)
		}
	case KindYXNBest:
		s.analyze(c.N)
	case KindTakeback:
		if s.do(func() error { return s.brain.Takeback(c.Move) }) {
			s.w.OK()
		}
	case KindPlay:
		if s.do(func() error { return s.brain.OwnMove(c.Move) }) {
			s.w.Move(c.Move)
		}
	case KindBoard, KindYXBoard, KindSwap2Board:
		s.block = &block{kind: c.Kind}
	case KindDone:
		s.w.Error("DONE without BOARD, YXBOARD or SWAP2BOARD")
	case KindAbout:
		var a About
		if s.do(func() error { a = s.brain.About(); return nil }) {
			s.w.About(a)
		}
	case KindYXShowForbid:
		var f []Move
		if s.do(func() error { f = s.brain.Forbidden(); return nil }) {
			s.w.Forbid(f)
		}
	case KindYXHashClear:
		// No answer. Rapfi, the engine Yixin-Board users run most, answers
		// only with a MESSAGE line and never OK; an OK nobody waits for is
		// exactly the stray line a manager would take as the next answer.
		s.do(func() error { s.brain.ClearHash(); return nil })
	default:
		s.w.Unknown(excerpt(l.text))
	}
	return false
}

// infoProblem reports an INFO the parser or the brain rejected.
//
// What the managers do with an unexpected line: GomocupJudge
// (client/new_protocol.py, wait) reads the brain's lines through a queue,
// collects lines starting with "message", and tries every other line as
// "x,y", silently skipping any that does not parse, so an ERROR line is
// harmless there. Piskvork (source/protocol.cpp, readCommand) skips only
// lines starting with "DEBUG " or "MESSAGE "; any other line is the answer
// to the command it sends next — after INFO that is the TURN/BEGIN/BOARD,
// and "ERROR …" fails its x,y scan: "has not returned coordinates", a lost
// game. So an INFO problem is reported as a DEBUG line, never ERROR.
func (s *session) infoProblem(c Command, err error) {
	s.w.Debug("INFO " + c.Key + " ignored: " + err.Error())
}

// blockLine takes one line inside a block. It returns true on END.
func (s *session) blockLine(l rawLine) bool {
	b := s.block
	if !l.tooLong {
		word, _ := splitWord(l.text)
		switch k := kindOf(word); k {
		case KindDone:
			s.block = nil
			s.finishBlock(b)
			return false
		case KindUnknown:
		default:
			s.block = nil
			s.w.Error(fmt.Sprintf("%s: %s before DONE; position unchanged", b.kind, k))
			return s.handle(l)
		}
	}
	b.lines++
	switch {
	case b.bad != "":
	case l.tooLong:
		b.bad = "line too long: " + excerpt(l.text) + "..."
	case b.lines > maxBlockLines:
		b.bad = "too many lines"
	case b.kind == KindSwap2Board:
		m, err := ParseMove(l.text)
		if err != nil {
			b.bad = fmt.Sprintf("bad line %q: %v", excerpt(l.text), err)
		}
		b.moves = append(b.moves, m)
	default:
		st, err := ParseStone(l.text)
		if err != nil {
			b.bad = fmt.Sprintf("bad line %q: %v", excerpt(l.text), err)
		}
		b.stones = append(b.stones, st)
	}
	return false
}

// finishBlock acts on a block ended by DONE.
func (s *session) finishBlock(b *block) {
	if b.bad != "" {
		s.w.Error(fmt.Sprintf("%s: %s; position unchanged", b.kind, b.bad))
		return
	}
	switch b.kind {
	case KindBoard:
		if s.do(func() error { return s.brain.SetPosition(b.stones) }) {
			s.think(1)
		}
	case KindYXBoard:
		s.do(func() error { return s.brain.SetPosition(b.stones) })
	case KindSwap2Board:
		switch len(b.moves) {
		case 0, 3, 5:
			s.swap2(b.moves)
		default:
			s.w.Error(fmt.Sprintf("SWAP2BOARD: %d stones, want 0, 3 or 5", len(b.moves)))
		}
	}
}

// think starts Think with nBest lines.
func (s *session) think(nBest int) {
	s.start(false, nil, func(ctx context.Context) (jobResult, error) {
		m, err := s.brain.Think(ctx, nBest, s.rep)
		return jobResult{move: m}, err
	})
}

// analyze starts Analyze with nBest lines (YXNBEST).
func (s *session) analyze(nBest int) {
	s.start(false, nil, func(ctx context.Context) (jobResult, error) {
		m, err := s.brain.Analyze(ctx, nBest, s.rep)
		return jobResult{move: m}, err
	})
}

// swap2 starts Swap2 on the given stones.
func (s *session) swap2(stones []Move) {
	s.start(true, stones, func(ctx context.Context) (jobResult, error) {
		a, err := s.brain.Swap2(ctx, stones, s.rep)
		return jobResult{swap: a}, err
	})
}

func (s *session) start(swap2 bool, stones []Move, f func(context.Context) (jobResult, error)) {
	ctx, cancel := context.WithCancel(s.ctx)
	j := &job{cancel: cancel, done: make(chan jobResult, 1), swap2: swap2, nStones: len(stones)}
	s.job = j
	if s.hurry {
		cancel()
	}
	go func() {
		var r jobResult
		defer func() {
			if p := recover(); p != nil {
				r = jobResult{err: panicError(p)}
			}
			j.done <- r
		}()
		var err error
		r, err = f(ctx)
		r.err = err
	}()
}

// finish writes the answer of a search that returned.
func (s *session) finish(r jobResult) {
	j := s.job
	s.job = nil
	j.cancel()
	if r.err != nil {
		s.w.Error(r.err.Error())
		return
	}
	if !j.swap2 {
		if !validMove(r.move) {
			s.w.Error(fmt.Sprintf("internal: brain chose an invalid move %d,%d", r.move.X, r.move.Y))
			return
		}
		s.w.Move(r.move)
		return
	}
	a := r.swap
	if a.Swap {
		if j.nStones == 0 || len(a.Moves) != 0 {
			s.w.Error("internal: brain chose SWAP where it may not")
			return
		}
		s.w.Swap()
		return
	}
	n := len(a.Moves)
	ok := (j.nStones == 0 && n == 3) || (j.nStones == 3 && (n == 1 || n == 2)) || (j.nStones == 5 && n == 1)
	for _, m := range a.Moves {
		ok = ok && validMove(m)
	}
	if !ok {
		s.w.Error(fmt.Sprintf("internal: brain gave %d swap2 moves after %d stones", n, j.nStones))
		return
	}
	s.w.Moves(a.Moves)
}

// abort cancels a running search and gives it the grace time to return.
func (s *session) abort() {
	j := s.job
	if j == nil {
		return
	}
	s.job = nil
	j.cancel()
	t := time.NewTimer(s.cfg.endGrace)
	defer t.Stop()
	select {
	case <-j.done:
	case <-t.C:
	}
}

// do runs a brain call and writes its error as an ERROR line. It reports
// whether the call succeeded.
func (s *session) do(f func() error) bool {
	if err := s.call(f); err != nil {
		s.w.Error(err.Error())
		return false
	}
	return true
}

// call runs a brain call, turning a panic into an error.
func (s *session) call(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicError(p)
		}
	}()
	return f()
}

// panicError describes a recovered panic in one line; the Writer makes sure
// it stays one line whatever the panic value holds.
func panicError(p any) error {
	return fmt.Errorf("internal: %v", p)
}

func validMove(m Move) bool {
	return m.X >= 0 && m.Y >= 0 && m.X < maxBoardSide && m.Y < maxBoardSide
}

// excerpt returns the start of a line for an ERROR or UNKNOWN answer.
func excerpt(s string) string {
	if len(s) > maxEcho {
		return s[:maxEcho]
	}
	return s
}

// gatedReporter passes reports to the Writer until Run returns.
type gatedReporter struct {
	w      *Writer
	closed *atomic.Bool
}

func (g gatedReporter) Info(si SearchInfo) {
	if !g.closed.Load() {
		g.w.Info(si)
	}
}

func (g gatedReporter) Message(text string) {
	if !g.closed.Load() {
		g.w.Message(text)
	}
}

func (g gatedReporter) Debug(text string) {
	if !g.closed.Load() {
		g.w.Debug(text)
	}
}
