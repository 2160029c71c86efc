package webboard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/engine"
	"wuzi/match/record"
)

// errStartRefused is a start-up the server refused (too many engines).
var errStartRefused = errors.New("too many engines running")

// ensureProc starts the side's engine when it is not running: START (or
// RECTSTART), then the INFO lines of the game. The start-up time is
// charged to the engine's first move, as wuzi-match does.
func (g *game) ensureProc(ctx context.Context, s *side) (pending *command, err error) {
	if s.proc != nil {
		return nil, nil
	}
	if !g.srv.acquireEngine() {
		return nil, errStartRefused
	}
	s.startAt = time.Now()
	proc, err := engine.Start(s.spec)
	if err != nil {
		g.srv.releaseEngine()
		return nil, err
	}
	s.proc, s.known, s.carry = proc, -1, 0
	g.logf("%s: started (%s)", s.name(), s.spec.Command)
	start := "START " + strconv.Itoa(g.set.Width)
	if g.set.Width != g.set.Height {
		start = fmt.Sprintf("RECTSTART %d,%d", g.set.Width, g.set.Height)
	}
	if err := proc.Send(start); err != nil {
		return nil, err
	}
	deadline := s.startAt.Add(g.srv.cfg.Tolerance + g.limit(s))
	var at time.Time
	pending, err = g.await(ctx, s, deadline, func(ctx context.Context, dl time.Time, _ bool) error {
		var err error
		at, err = proc.WaitOK(ctx, dl)
		return err
	})
	if pending != nil || err != nil {
		return pending, err
	}
	s.carry = at.Sub(s.startAt)
	info := []string{
		"INFO timeout_turn " + strconv.FormatInt(g.set.TurnTime.Milliseconds(), 10),
		"INFO timeout_match " + strconv.FormatInt(g.set.MatchTime.Milliseconds(), 10),
		"INFO max_memory " + strconv.FormatInt(g.srv.cfg.MaxMemory, 10),
		"INFO game_type 0",
		"INFO rule " + strconv.Itoa(int(g.set.Rule)),
	}
	for _, o := range s.spec.Options {
		info = append(info, "INFO "+o.Key+" "+o.Value)
	}
	if err := proc.Send(info...); err != nil {
		return nil, err
	}
	s.known = 0
	return nil, nil
}

// await waits for an engine's answer with read, a little at a time, so
// that the page's commands and the engine's MESSAGE lines are seen while
// it thinks. A command that must end the thought (undo, a new position)
// comes back as pending after the engine has been closed; a close of the
// game comes back as errClosed.
func (g *game) await(ctx context.Context, s *side, deadline time.Time, read func(context.Context, time.Time, bool) error) (*command, error) {
	for {
		if g.stopAsked && g.requested && !g.stopSent && s.proc != nil {
			g.stopSent = true
			_ = s.proc.Send("YXSTOP")
			g.logf("%s: YXSTOP sent", s.name())
		}
		dl := time.Now().Add(pollInterval)
		if dl.After(deadline) {
			dl = deadline
		}
		err := read(ctx, dl, g.stopSent)
		if s.proc != nil {
			g.takeMessages(s)
		}
		var ee *engine.Error
		if err == nil || !errors.As(err, &ee) || ee.Kind != engine.Timeout || !time.Now().Before(deadline) {
			return nil, err
		}
		g.publish()
		for more := true; more; {
			select {
			case c := <-g.cmds:
				pending, err := g.during(c, s)
				if err != nil {
					return nil, err
				}
				if pending != nil {
					g.logf("%s: stopped, to %s", s.name(), pending.kind)
					g.closeSide(s)
					return pending, nil
				}
			case <-ctx.Done():
				return nil, ctx.Err()
			default:
				more = false
			}
		}
	}
}

// takeMessages moves the engine's MESSAGE lines into the game's live view.
func (g *game) takeMessages(s *side) {
	for _, m := range s.proc.Messages() {
		g.logf("%s: %s", s.name(), m)
		si, ok := ParseInfo(m)
		if !ok {
			continue
		}
		si.Ply = len(g.moves)
		si.Engine = s.name()
		if g.thinking == "hint" {
			si.Color = colorName(g.toMove())
		} else {
			si.Color = g.thinking
		}
		if g.thinking == "hint" {
			// A single-line report (an engine without multi-PV, or a
			// proven win) is the first candidate.
			if si.Rank == 0 {
				si.Rank = 1
			}
			g.addCandidate(si)
			if si.Rank > 1 {
				continue
			}
		}
		g.info = si
	}
}

func (g *game) addCandidate(si *InfoView) {
	if g.nbestPly != len(g.moves) {
		g.nbest, g.nbestPly = nil, len(g.moves)
	}
	if len(si.PV) == 0 {
		return
	}
	c := Candidate{Rank: si.Rank, X: si.PV[0][0], Y: si.PV[0][1], Score: si.Score, Depth: si.Depth, PV: si.PV}
	for i, old := range g.nbest {
		if old.Rank == c.Rank {
			g.nbest[i] = c
			return
		}
	}
	g.nbest = append(g.nbest, c)
}

// engineFailed ends the game as a loss of the engine's colour, with what
// the engine last printed, as the referee of wuzi-match scores it.
func (g *game) engineFailed(s *side, c eval.Color, err error) {
	var ee *engine.Error
	if errors.Is(err, errStartRefused) {
		g.paused = true
		g.notice = fmt.Sprintf("%s cannot start: %d engines are already running (the server's --max-engines); close another game, then press Resume", s.name(), g.srv.cfg.MaxEngines)
		return
	}
	if !errors.As(err, &ee) {
		g.notice = err.Error()
		g.closeSide(s)
		return
	}
	reason := match.ReasonUnparseable
	switch ee.Kind {
	case engine.Timeout:
		reason = match.ReasonTimeout
	case engine.Crash:
		reason = match.ReasonCrash
	}
	g.closeSide(s)
	g.finish(c.Opp(), string(reason), s.name()+": "+ee.Detail, ee.Output)
}

// engineAct lets an engine do what is due: a move, or its part of the
// swap2 opening.
func (g *game) engineAct(ctx context.Context, s *side) (*command, error) {
	var c eval.Color
	switch g.phase {
	case phasePlace3, phaseChoose5:
		c = eval.Black
	case phaseChoose3, phasePlace2:
		c = eval.White
	default:
		c = g.toMove()
	}
	g.thinking = colorName(c)
	g.stopAsked, g.stopSent, g.requested = false, false, false
	defer func() { g.thinking, g.requested = "", false }()
	g.publish()
	pending, err := g.ensureProc(ctx, s)
	if pending != nil {
		return pending, nil
	}
	if err == errClosed || ctx.Err() != nil {
		return nil, errClosed
	}
	if err != nil {
		g.engineFailed(s, c, err)
		return nil, nil
	}
	if g.phase != phaseNone {
		return g.engineSwap2(ctx, s, c)
	}
	return g.engineMove(ctx, s, c)
}

// request is the command asking s for a move: TURN with the last stone
// when the engine holds all the others, BEGIN on an empty board it has just
// started, else BOARD with every stone.
func (g *game) request(s *side) []string {
	n := len(g.moves)
	switch {
	case n > 0 && s.known == n-1:
		m := g.moves[n-1]
		return []string{fmt.Sprintf("TURN %d,%d", m.X, m.Y)}
	case n == 0 && s.known == 0:
		return []string{"BEGIN"}
	}
	return append([]string{"BOARD"}, append(g.stoneLines(), "DONE")...)
}

// stoneLines are the BOARD lines of the position for the side to move:
// field 1 for its stones, 2 for the opponent's.
func (g *game) stoneLines() []string {
	own := len(g.moves) % 2
	lines := make([]string, 0, len(g.moves))
	for i, m := range g.moves {
		f := 2
		if i%2 == own {
			f = 1
		}
		lines = append(lines, fmt.Sprintf("%d,%d,%d", m.X, m.Y, f))
	}
	return lines
}

func (g *game) engineMove(ctx context.Context, s *side, c eval.Color) (*command, error) {
	proc := s.proc
	limit := g.limit(s)
	sent := time.Now()
	deadline := sent.Add(g.srv.cfg.Tolerance + limit - s.carry)
	moveCtx, overLimit := context.WithCancel(ctx)
	defer overLimit()
	watch := proc.WatchMemory(engine.MemoryInterval, g.srv.cfg.MaxMemory, overLimit)
	var x, y int
	var at time.Time
	err := proc.Send(append([]string{"INFO time_left " + g.timeLeft(s)}, g.request(s)...)...)
	g.requested = true
	var pending *command
	if err == nil {
		pending, err = g.await(moveCtx, s, deadline, func(ctx context.Context, dl time.Time, lenient bool) error {
			var err error
			x, y, at, err = proc.ReadMove(ctx, dl, lenient)
			return err
		})
	}
	peak, over := watch.Stop()
	s.peak = max(s.peak, peak)
	if pending != nil {
		return pending, nil
	}
	if over {
		g.closeSide(s)
		g.finish(c.Opp(), string(match.ReasonMemory), fmt.Sprintf("%s used %.1f MB, limit %.1f MB (USS of the process tree)", s.name(), mib(peak), mib(g.srv.cfg.MaxMemory)), proc.Tail())
		return nil, nil
	}
	if err == errClosed || ctx.Err() != nil {
		return nil, errClosed
	}
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) && ee.Kind == engine.Timeout {
			ee.Detail += fmt.Sprintf(" (%v a move + %v tolerance)", limit, g.srv.cfg.Tolerance)
		}
		g.engineFailed(s, c, err)
		return nil, nil
	}
	used := at.Sub(sent) + s.carry
	s.carry = 0
	if used >= g.srv.cfg.Tolerance+limit {
		g.engineFailed(s, c, &engine.Error{Kind: engine.Timeout,
			Detail: fmt.Sprintf("answered after %v, limit %v", used.Round(time.Millisecond), g.srv.cfg.Tolerance+limit),
			Output: proc.Tail()})
		return nil, nil
	}
	if g.set.MatchTime > 0 {
		s.left -= used
	}
	g.redo = nil
	switch g.play(x, y, used) {
	case match.Illegal:
		detail := illegalDetail(g, x, y)
		g.closeSide(s)
		g.finish(c.Opp(), string(match.ReasonIllegal), s.name()+" "+detail, proc.Tail())
		return nil, nil
	}
	s.known = len(g.moves)
	return nil, nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// illegalDetail words an illegal move as the referee does.
func illegalDetail(g *game, x, y int) string {
	if x < 0 || y < 0 || x >= g.set.Width || y >= g.set.Height {
		return fmt.Sprintf("played %d,%d off the %dx%d board", x, y, g.set.Width, g.set.Height)
	}
	return fmt.Sprintf("played %d,%d on an occupied cell", x, y)
}

// engineSwap2 asks an engine for its part of a swap2 opening with
// SWAP2BOARD and carries out its answer.
func (g *game) engineSwap2(ctx context.Context, s *side, c eval.Color) (*command, error) {
	proc := s.proc
	lines := []string{"INFO time_left " + g.timeLeft(s), "SWAP2BOARD"}
	for _, m := range g.moves {
		lines = append(lines, fmt.Sprintf("%d,%d", m.X, m.Y))
	}
	lines = append(lines, "DONE")
	limit := g.limit(s)
	sent := time.Now()
	deadline := sent.Add(g.srv.cfg.Tolerance + limit - s.carry)
	s.carry = 0
	var answer string
	err := proc.Send(lines...)
	g.requested = true
	var pending *command
	if err == nil {
		pending, err = g.await(ctx, s, deadline, func(ctx context.Context, dl time.Time, _ bool) error {
			var err error
			answer, _, err = proc.ReadLine(ctx, dl)
			return err
		})
	}
	if pending != nil {
		return pending, nil
	}
	if err == errClosed || ctx.Err() != nil {
		return nil, errClosed
	}
	if err != nil {
		g.engineFailed(s, c, err)
		return nil, nil
	}
	s.known = -1
	g.logf("%s answered %q to SWAP2BOARD with %d stones", s.name(), answer, len(g.moves))
	bad := func(why string) (*command, error) {
		g.engineFailed(s, c, &engine.Error{Kind: engine.Unparseable, Detail: fmt.Sprintf("answered %q to SWAP2BOARD with %d stones: %s", answer, len(g.moves), why), Output: proc.Tail()})
		return nil, nil
	}
	if strings.EqualFold(answer, "SWAP") {
		switch g.phase {
		case phaseChoose3:
			g.swapPlayers()
		case phaseChoose5:
		default:
			return bad("SWAP is no answer to an empty board")
		}
		g.phase = phaseNone
		g.opening = len(g.moves)
		return nil, nil
	}
	var moves []record.Move
	for _, f := range strings.Fields(answer) {
		x, y, ok := engine.ParseMove(f)
		if !ok {
			return bad("not moves")
		}
		moves = append(moves, record.Move{X: x, Y: y})
	}
	want := map[string][]int{phasePlace3: {3}, phaseChoose3: {1, 2}, phaseChoose5: {1}}[g.phase]
	okCount := false
	for _, n := range want {
		okCount = okCount || len(moves) == n
	}
	if !okCount {
		return bad(fmt.Sprintf("%d moves", len(moves)))
	}
	for _, m := range moves {
		if g.over {
			break
		}
		if g.play(m.X, m.Y, 0) == match.Illegal {
			detail := illegalDetail(g, m.X, m.Y)
			g.closeSide(s)
			g.finish(c.Opp(), string(match.ReasonIllegal), s.name()+" "+detail, proc.Tail())
			return nil, nil
		}
	}
	if g.over {
		g.phase = phaseNone
		return nil, nil
	}
	switch {
	case g.phase == phasePlace3:
		g.phase = phaseChoose3
	case g.phase == phaseChoose3 && len(moves) == 2:
		g.phase = phaseChoose5
	case g.phase == phaseChoose5:
		// The engine took White and played the 6th stone.
		g.swapPlayers()
		g.phase = phaseNone
	default:
		g.phase = phaseNone
	}
	if g.phase == phaseNone {
		g.opening = len(g.moves)
		g.logf("swap2: the opening is %d stones; Black is %s, White is %s", g.opening, g.players[0].name(), g.players[1].name())
	}
	return nil, nil
}

// hint asks an engine for its n best moves in the current position with
// YXBOARD and YXNBEST. It is no part of the game: a failure is shown, not
// scored.
func (g *game) hint(ctx context.Context, n int) error {
	if n < 1 || n > 10 {
		return badRequest("hint: n must be 1 to 10, not %d", n)
	}
	if g.over {
		return refuse("the game is over")
	}
	if g.phase != phaseNone {
		return refuse("hints come after the swap2 opening")
	}
	s := g.analyst
	if s == nil {
		// The engine not to move is idle; in a game of engines, the
		// paused engine to move.
		for _, c := range []int{1 - colorIndex(g.toMove()), colorIndex(g.toMove())} {
			if !g.players[c].human {
				s = g.players[c]
				break
			}
		}
	}
	if s == nil {
		return refuse("no engine to ask")
	}
	g.thinking = "hint"
	g.stopAsked, g.stopSent, g.requested = false, false, false
	defer func() { g.thinking, g.requested = "", false }()
	g.nbest, g.nbestPly = nil, len(g.moves)
	g.publish()
	pending, err := g.ensureProc(ctx, s)
	if pending != nil {
		return g.postpone(pending)
	}
	if err != nil {
		g.closeSide(s)
		if errors.Is(err, errStartRefused) {
			return &userError{status: 503, msg: err.Error()}
		}
		return refuse("%s could not start: %v", s.name(), err)
	}
	s.carry = 0
	proc := s.proc
	lines := append([]string{"YXBOARD"}, g.stoneLines()...)
	lines = append(lines, "DONE", "INFO time_left "+g.timeLeft(s), fmt.Sprintf("YXNBEST %d", n))
	s.known = -1
	var x, y int
	if err = proc.Send(lines...); err == nil {
		g.requested = true
		pending, err = g.await(ctx, s, time.Now().Add(g.srv.cfg.Tolerance+g.set.TurnTime), func(ctx context.Context, dl time.Time, lenient bool) error {
			var err error
			x, y, _, err = proc.ReadMove(ctx, dl, lenient)
			return err
		})
	}
	if pending != nil {
		return g.postpone(pending)
	}
	if err == errClosed {
		return errClosed
	}
	if err != nil {
		g.closeSide(s)
		g.notice = fmt.Sprintf("%s gave no hint: %v", s.name(), err)
		return refuse("%s gave no hint: %v", s.name(), err)
	}
	if len(g.nbest) == 0 {
		g.nbest = []Candidate{{Rank: 1, X: x, Y: y, Score: "", PV: [][2]int{{x, y}}}}
	}
	g.logf("%s: best move %d,%d", s.name(), x, y)
	return nil
}

// postpone carries out a command that interrupted a hint, answering it in
// place of the hint's own reply.
func (g *game) postpone(c *command) error {
	err := g.do(context.Background(), c)
	g.publish()
	c.reply <- err
	if err == errClosed {
		return errClosed
	}
	return refuse("the hint was interrupted")
}
