package webboard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/engine"
	"wuzi/match/record"
)

// pollInterval is how often a game's worker looks at the page's commands
// and the engine's MESSAGE lines while an engine thinks.
const pollInterval = 100 * time.Millisecond

// logLines bounds the engine log a page is shown.
const logLines = 60

// The phases of a swap2 opening. phaseNone is ordinary play.
const (
	phaseNone    = ""
	phasePlace3  = "swap2-place3"  // the first player places three stones
	phaseChoose3 = "swap2-choose3" // the second player: take Black, take White, or place two more
	phasePlace2  = "swap2-place2"  // the second player places the 4th and 5th stones
	phaseChoose5 = "swap2-choose5" // the first player picks a colour
)

// userError is a request the game refuses; the page is told why with a
// 4xx status.
type userError struct {
	status int
	msg    string
}

func (e *userError) Error() string { return e.msg }

func refuse(format string, args ...any) error {
	return &userError{status: 409, msg: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return &userError{status: 400, msg: fmt.Sprintf(format, args...)}
}

// errClosed ends a game's worker.
var errClosed = errors.New("game closed")

// side is one player of a game: a human at the page or an engine process.
type side struct {
	human bool
	spec  engine.Spec
	proc  *engine.Process
	// known is how many of the game's moves the engine's own board holds
	// (it has seen moves[:known] and nothing else); -1 when unknown, and
	// the next request sends the whole position.
	known   int
	left    time.Duration // match time left
	carry   time.Duration // start-up time, charged to the first move
	startAt time.Time
	peak    int64
}

func (s *side) name() string {
	if s.human {
		return "Human"
	}
	return s.spec.Name
}

// command is one request of a page, carried out by the game's worker.
type command struct {
	kind   string // move, undo, redo, stop, pause, resume, hint, swap2, setup, load, close
	x, y   int
	n      int
	choice string
	moves  []record.Move
	w, h   int
	rule   *eval.Rule
	reply  chan error // buffered: the worker never waits on it
}

// Settings are what a page chooses for a new game.
type Settings struct {
	Width, Height int
	Rule          eval.Rule
	TurnTime      time.Duration
	MatchTime     time.Duration // 0 = no limit
	Black, White  int           // -1 for a human, else an index into the server's engines
	Analyst       int           // engine for hints when no player is an engine
	Swap2         bool
}

// game is one board. Its worker goroutine owns everything but the
// published snapshot, which HTTP handlers read under mu.
type game struct {
	id   string
	srv  *Server
	cmds chan *command
	done chan struct{}

	mu       sync.Mutex
	snap     *Snapshot
	changed  chan struct{} // closed and replaced on every publish
	lastSeen time.Time

	// Owned by the worker.
	set       Settings
	players   [2]*side // by colour: 0 Black, 1 White
	analyst   *side
	moves     []record.Move
	redo      []record.Move
	ref       *match.Referee
	bd        *eval.Board
	over      bool
	winner    eval.Color
	reason    string
	detail    string
	output    []string
	phase     string
	opening   int // stones of the swap2 opening
	paused    bool
	thinking  string // "black", "white" or "hint"
	info      *InfoView
	nbest     []Candidate
	nbestPly  int
	log       []string
	notice    string
	stopAsked bool // the page asked the thinking engine to move now
	stopSent  bool // YXSTOP has been sent for the current request
	requested bool // the current request (a move, hint) has been sent
	version   uint64
	forbidKey uint64
	forbidOK  bool
	forbid    [][2]int
}

func colorIndex(c eval.Color) int {
	if c == eval.White {
		return 1
	}
	return 0
}

func colorName(c eval.Color) string {
	switch c {
	case eval.Black:
		return "black"
	case eval.White:
		return "white"
	}
	return ""
}

// newGame sets a game up; the caller starts its worker.
func newGame(srv *Server, id string, set Settings) (*game, error) {
	g := &game{
		id: id, srv: srv, set: set,
		cmds:     make(chan *command),
		done:     make(chan struct{}),
		changed:  make(chan struct{}),
		lastSeen: time.Now(),
		nbestPly: -1,
	}
	for i, e := range [2]int{set.Black, set.White} {
		g.players[i] = srv.newSide(e)
		g.players[i].left = set.MatchTime
	}
	if g.players[0].human && g.players[1].human {
		g.analyst = srv.newSide(set.Analyst)
	}
	if err := g.reset(set.Width, set.Height); err != nil {
		return nil, err
	}
	if set.Swap2 {
		g.phase = phasePlace3
	}
	g.publish()
	return g, nil
}

// reset empties the board (a new size is allowed).
func (g *game) reset(w, h int) error {
	ref, err := match.NewReferee(w, h, g.set.Rule)
	if err != nil {
		return badRequest("%v", err)
	}
	bd, err := eval.NewBoard(w, h, g.set.Rule)
	if err != nil {
		return badRequest("%v", err)
	}
	g.set.Width, g.set.Height = w, h
	g.ref, g.bd = ref, bd
	g.moves, g.redo = nil, nil
	g.over, g.winner, g.reason, g.detail, g.output = false, eval.Empty, "", "", nil
	g.opening, g.phase = 0, phaseNone
	g.info, g.nbest, g.nbestPly, g.forbidOK = nil, nil, -1, false
	return nil
}

func (g *game) sides() []*side {
	out := []*side{g.players[0], g.players[1]}
	if g.analyst != nil {
		out = append(out, g.analyst)
	}
	return out
}

// toMove is the colour to play next.
func (g *game) toMove() eval.Color { return g.ref.SideToMove() }

// actor is the side that acts next: in a swap2 opening, the player whose
// decision or stones are awaited; otherwise the side to move.
func (g *game) actor() *side {
	switch g.phase {
	case phasePlace3, phaseChoose5:
		return g.players[0]
	case phaseChoose3, phasePlace2:
		return g.players[1]
	}
	return g.players[colorIndex(g.toMove())]
}

// run is the game's worker: it asks engines to move when it is their turn
// and carries out the page's commands in between.
func (g *game) run(ctx context.Context) {
	defer close(g.done)
	defer g.closeEngines()
	for {
		if ctx.Err() != nil {
			return
		}
		if a := g.actor(); !a.human && !g.over && !g.paused {
			pending, err := g.engineAct(ctx, a)
			g.publish()
			if err != nil {
				return
			}
			if pending != nil {
				if g.apply(ctx, pending) == errClosed {
					return
				}
				g.publish()
			}
			continue
		}
		select {
		case c := <-g.cmds:
			if g.apply(ctx, c) == errClosed {
				return
			}
			g.publish()
		case <-ctx.Done():
			return
		}
	}
}

// apply carries out a command while no engine thinks and replies to it.
func (g *game) apply(ctx context.Context, c *command) error {
	err := g.do(ctx, c)
	if err == errClosed {
		c.reply <- nil
		return errClosed
	}
	if err == nil {
		g.notice = ""
	}
	// The page reads the snapshot as soon as it has the reply.
	g.publish()
	c.reply <- err
	return nil
}

func (g *game) do(ctx context.Context, c *command) error {
	switch c.kind {
	case "close":
		return errClosed
	case "move":
		return g.humanMove(c.x, c.y)
	case "undo":
		return g.undo()
	case "redo":
		return g.redoMove()
	case "stop":
		return refuse("no engine is thinking")
	case "pause":
		g.paused = true
		return nil
	case "resume":
		g.paused = false
		return nil
	case "hint":
		return g.hint(ctx, c.n)
	case "swap2":
		return g.swap2Choice(c.choice)
	case "setup", "load":
		return g.setPosition(c)
	}
	return badRequest("unknown command %q", c.kind)
}

// during handles a command that arrives while an engine thinks. It returns
// the command when the thought must be abandoned first (it is then applied
// once the engine is stopped), or errClosed.
func (g *game) during(c *command, s *side) (*command, error) {
	switch c.kind {
	case "close":
		c.reply <- nil
		return nil, errClosed
	case "stop":
		g.stopAsked = true
		c.reply <- nil
		return nil, nil
	case "move", "hint", "swap2":
		c.reply <- refuse("%s is thinking; wait, or press Stop", s.name())
		return nil, nil
	case "pause", "resume":
		// The move being thought about is played; what follows waits.
		g.paused = c.kind == "pause"
		g.publish()
		c.reply <- nil
		return nil, nil
	}
	// undo, redo, setup, load: end the thought first.
	return c, nil
}

// humanMove plays a stone for the human whose turn it is.
func (g *game) humanMove(x, y int) error {
	if g.over {
		return refuse("the game is over (%s); undo or start a new game", g.reason)
	}
	if a := g.actor(); !a.human {
		return refuse("it is %s's turn", a.name())
	}
	switch g.phase {
	case phaseChoose3, phaseChoose5:
		return refuse("choose a colour first")
	}
	if x < 0 || y < 0 || x >= g.set.Width || y >= g.set.Height {
		return badRequest("%d,%d is off the %dx%d board", x, y, g.set.Width, g.set.Height)
	}
	if g.ref.At(x, y) != eval.Empty {
		return refuse("%d,%d is occupied", x, y)
	}
	g.redo = nil
	g.play(x, y, 0)
	switch g.phase {
	case phasePlace3:
		if len(g.moves) == 3 {
			g.phase = phaseChoose3
		}
	case phasePlace2:
		if len(g.moves) == 5 {
			g.phase = phaseChoose5
		}
	}
	if g.phase != phaseNone && g.over {
		g.phase = phaseNone
	}
	return nil
}

// play judges and plays a stone with the match referee and ends the game
// when the referee says so. An Illegal move is not played.
func (g *game) play(x, y int, used time.Duration) match.Verdict {
	mover := g.toMove()
	v, detail := g.ref.Judge(x, y)
	if v == match.Illegal {
		return v
	}
	g.bd.Play(g.bd.Pos(x, y))
	g.moves = append(g.moves, record.Move{X: x, Y: y, Time: used})
	switch v {
	case match.Foul:
		g.finish(mover.Opp(), string(match.ReasonFoul), detail, nil)
	case match.Five:
		g.finish(mover, string(match.ReasonFive), detail, nil)
	default:
		if g.ref.Full() {
			g.finish(eval.Empty, string(match.ReasonFull), "no empty cell is left", nil)
		}
	}
	return v
}

func (g *game) finish(winner eval.Color, reason, detail string, output []string) {
	g.over, g.winner, g.reason, g.detail, g.output = true, winner, reason, detail, output
	g.logf("game over: %s", g.resultText())
}

func (g *game) resultText() string {
	if !g.over {
		return ""
	}
	var who string
	switch g.winner {
	case eval.Black:
		who = "Black (" + g.players[0].name() + ") wins"
	case eval.White:
		who = "White (" + g.players[1].name() + ") wins"
	default:
		who = "draw"
	}
	s := who + " by " + g.reason
	if g.winner == eval.Empty {
		s = "draw: " + g.reason
	}
	if g.detail != "" {
		s += ": " + g.detail
	}
	return s
}

// replay rebuilds the referee and board from moves, which must all have
// been legal; it stops at the first move that ends the game.
func (g *game) replay(moves []record.Move) error {
	keep := g.opening
	phase := g.phase
	if err := g.reset(g.set.Width, g.set.Height); err != nil {
		return err
	}
	g.opening, g.phase = keep, phase
	for i, m := range moves {
		if g.over {
			return badRequest("move %d comes after the game ended (%s)", i+1, g.reason)
		}
		if m.X < 0 || m.Y < 0 || m.X >= g.set.Width || m.Y >= g.set.Height {
			return badRequest("move %d (%d,%d) is off the %dx%d board", i+1, m.X, m.Y, g.set.Width, g.set.Height)
		}
		if g.play(m.X, m.Y, m.Time) == match.Illegal {
			return badRequest("move %d (%d,%d) is on an occupied cell", i+1, m.X, m.Y)
		}
	}
	return nil
}

// undo takes back the last move, and one more when that leaves an engine
// to move against a human, so that the human is to move again.
func (g *game) undo() error {
	if len(g.moves) <= g.opening || g.phase != phaseNone {
		if g.phase != phaseNone && len(g.moves) > 0 {
			// An unfinished swap2 opening starts again.
			g.redo = nil
			err := g.replay(nil)
			g.phase = phasePlace3
			g.syncLost()
			return err
		}
		return refuse("nothing to undo")
	}
	n := 1
	if len(g.moves)-1 > g.opening && g.mixed() {
		prev := g.players[colorIndex(g.colorAt(len(g.moves)-1))]
		if !prev.human {
			n = 2
		}
	}
	taken := g.moves[len(g.moves)-n:]
	keep := append([]record.Move(nil), g.moves[:len(g.moves)-n]...)
	redo := append(append([]record.Move(nil), g.redo...), reversed(taken)...)
	if err := g.replay(keep); err != nil {
		return err
	}
	g.redo = redo
	g.takeback(taken)
	if !g.mixed() {
		g.paused = g.paused || g.bothEngines()
	}
	return nil
}

func reversed(ms []record.Move) []record.Move {
	out := make([]record.Move, len(ms))
	for i, m := range ms {
		out[len(ms)-1-i] = m
	}
	return out
}

// colorAt is the colour of the i-th move (0-based).
func (g *game) colorAt(i int) eval.Color {
	if i%2 == 0 {
		return eval.Black
	}
	return eval.White
}

// mixed reports a human against an engine.
func (g *game) mixed() bool { return g.players[0].human != g.players[1].human }

func (g *game) bothEngines() bool { return !g.players[0].human && !g.players[1].human }

// takeback tells every engine that holds the taken moves to remove them
// with TAKEBACK; an engine that does not answer OK is sent the whole
// position before its next move instead.
func (g *game) takeback(taken []record.Move) {
	n := len(g.moves)
	for _, s := range g.sides() {
		if s.proc == nil || s.known < 0 {
			continue
		}
		if s.known != n+len(taken) {
			s.known = -1
			continue
		}
		ok := true
		for i := len(taken) - 1; i >= 0 && ok; i-- {
			m := taken[i]
			if err := s.proc.Send(fmt.Sprintf("TAKEBACK %d,%d", m.X, m.Y)); err != nil {
				ok = false
				break
			}
			line, _, err := s.proc.ReadLine(context.Background(), time.Now().Add(g.srv.cfg.Tolerance))
			if err != nil || !strings.EqualFold(line, "OK") {
				ok = false
				if err != nil {
					g.logf("%s: TAKEBACK failed (%v); it gets the whole position next time", s.name(), err)
					g.dropIfDead(s, err)
				} else {
					g.logf("%s answered %q to TAKEBACK; it gets the whole position next time", s.name(), line)
				}
			}
		}
		if ok {
			s.known = n
			g.logf("%s: TAKEBACK of %d stone(s) answered OK", s.name(), len(taken))
		} else {
			s.known = -1
		}
	}
}

// dropIfDead closes an engine whose failure means its process is gone.
func (g *game) dropIfDead(s *side, err error) {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Kind == engine.Crash {
		g.closeSide(s)
	}
}

// redoMove plays back what undo took, up to the next human turn.
func (g *game) redoMove() error {
	if len(g.redo) == 0 {
		return refuse("nothing to redo")
	}
	if g.over {
		return refuse("the game is over")
	}
	for {
		m := g.redo[len(g.redo)-1]
		g.redo = g.redo[:len(g.redo)-1]
		if g.play(m.X, m.Y, m.Time) == match.Illegal {
			g.redo = nil
			return refuse("cannot redo %d,%d", m.X, m.Y)
		}
		if g.over || len(g.redo) == 0 || !g.mixed() || g.actor().human {
			break
		}
	}
	g.syncLost()
	if g.bothEngines() {
		g.paused = true
	}
	return nil
}

// syncLost makes every engine get the whole position next time.
func (g *game) syncLost() {
	for _, s := range g.sides() {
		s.known = -1
	}
}

// setPosition replaces the game by the given stones (set up by hand, or
// loaded from a record), played in order from Black.
func (g *game) setPosition(c *command) error {
	if len(c.moves) > c.w*c.h && c.w > 0 {
		return badRequest("%d stones do not fit a %dx%d board", len(c.moves), c.w, c.h)
	}
	oldW, oldH, oldRule := g.set.Width, g.set.Height, g.set.Rule
	oldMoves := append([]record.Move(nil), g.moves...)
	w, h := g.set.Width, g.set.Height
	if c.w > 0 {
		w, h = c.w, c.h
	}
	if w < eval.MinSize || h < eval.MinSize || w > eval.MaxSize || h > eval.MaxSize {
		return badRequest("board %dx%d: sides must be %d to %d", w, h, eval.MinSize, eval.MaxSize)
	}
	restart := w != oldW || h != oldH
	if c.rule != nil && *c.rule != g.set.Rule {
		g.set.Rule = *c.rule
		restart = true
	}
	g.set.Width, g.set.Height = w, h
	g.phase, g.opening = phaseNone, 0
	if err := g.replay(c.moves); err != nil {
		// Put the old game back.
		g.set.Width, g.set.Height, g.set.Rule = oldW, oldH, oldRule
		_ = g.replay(oldMoves)
		return err
	}
	if restart {
		// The engines were started for another board or rule.
		for _, s := range g.sides() {
			g.closeSide(s)
		}
	}
	g.syncLost()
	g.redo = nil
	if !g.over && !g.actor().human {
		g.paused = true
	}
	g.logf("position set: %d stones on %dx%d, %s", len(g.moves), w, h, g.set.Rule)
	return nil
}

// swap2Choice carries out a human's decision in a swap2 opening: "black"
// (take Black), "white" (take White and play next) or "two" (place the
// 4th and 5th stones and let the opponent choose).
func (g *game) swap2Choice(choice string) error {
	if a := g.actor(); !a.human {
		return refuse("it is %s's decision", a.name())
	}
	switch g.phase {
	case phaseChoose3:
		switch choice {
		case "black":
			g.swapPlayers()
			g.phase = phaseNone
		case "white":
			g.phase = phaseNone
		case "two":
			g.phase = phasePlace2
		default:
			return badRequest("choice %q: want black, white or two", choice)
		}
	case phaseChoose5:
		switch choice {
		case "black":
			g.phase = phaseNone
		case "white":
			g.swapPlayers()
			g.phase = phaseNone
		default:
			return badRequest("choice %q: want black or white", choice)
		}
	default:
		return refuse("no swap2 decision is due")
	}
	if g.phase == phaseNone {
		g.opening = len(g.moves)
		g.logf("swap2: the opening is %d stones; Black is %s, White is %s", g.opening, g.players[0].name(), g.players[1].name())
	}
	return nil
}

// swapPlayers exchanges the colours of the two players.
func (g *game) swapPlayers() {
	g.players[0], g.players[1] = g.players[1], g.players[0]
	g.syncLost()
	g.logf("swap: %s now plays Black, %s White", g.players[0].name(), g.players[1].name())
}

func (g *game) logf(format string, args ...any) {
	g.log = append(g.log, fmt.Sprintf(format, args...))
	if len(g.log) > logLines {
		g.log = append(g.log[:0], g.log[len(g.log)-logLines:]...)
	}
}

// closeSide ends a side's engine process, if it runs.
func (g *game) closeSide(s *side) {
	if s.proc == nil {
		return
	}
	s.proc.Close()
	s.proc = nil
	s.known = -1
	g.srv.releaseEngine()
}

func (g *game) closeEngines() {
	var wg sync.WaitGroup
	for _, s := range g.sides() {
		if s.proc != nil {
			wg.Add(1)
			go func() { defer wg.Done(); g.closeSide(s) }()
		}
	}
	wg.Wait()
}

// limit is the time an engine may take for its next move before the
// tolerance.
func (g *game) limit(s *side) time.Duration {
	if g.set.MatchTime > 0 && s.left < g.set.TurnTime {
		return max(s.left, 0)
	}
	return g.set.TurnTime
}

func (g *game) timeLeft(s *side) string {
	if g.set.MatchTime <= 0 {
		return "2147483647"
	}
	return strconv.FormatInt(s.left.Milliseconds(), 10)
}
