package match

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"wuzi/eval"
	"wuzi/match/engine"
	"wuzi/match/opening"
	"wuzi/match/record"
)

// Reason says how a game ended.
type Reason string

// The ways a game ends. The first seven decide a winner; the rest are draws,
// except Interrupted, which is not counted at all.
const (
	ReasonFive        Reason = "five"
	ReasonFoul        Reason = "foul"
	ReasonTimeout     Reason = "time-out"
	ReasonCrash       Reason = "crash"
	ReasonIllegal     Reason = "illegal"
	ReasonUnparseable Reason = "unparseable"
	ReasonMemory      Reason = "memory" // over MaxMemory, as Gomocup rules
	ReasonFull        Reason = "full board"
	ReasonPlies       Reason = "ply limit"
	ReasonInterrupted Reason = "interrupted"
)

// unlimited is the time_left value that means no match limit.
const unlimited = 2147483647

// Settings are the conditions of every game of a match.
type Settings struct {
	Width, Height int
	Rule          eval.Rule
	TurnTime      time.Duration // per move; must be positive
	MatchTime     time.Duration // per game and engine; 0 = no limit
	Tolerance     time.Duration // added to every limit before a move is a time-out
	// MaxMemory is sent as INFO max_memory, in bytes (0 = no limit). An
	// engine whose process tree's unique set size (USS, as GomocupJudge
	// measures it) goes over it while thinking loses by memory. Memory is
	// measured on Linux only.
	MaxMemory int64
	MaxPlies  int // stones on the board that make a draw; 0 = only a full board
	// UseBegin asks an engine's move on an empty board with BEGIN (as
	// Piskvork does) instead of an empty BOARD block (as GomocupJudge does).
	UseBegin bool
	// Lenient skips answer lines that are not moves (ERROR, UNKNOWN,
	// junk) as GomocupJudge does, instead of scoring them as a loss as
	// Piskvork does; the engine must still move in time.
	Lenient bool
	// Info are match-wide INFO settings beyond the standard ones (e.g.
	// thread_num): sent to every engine after rule, unless the engine's
	// own options give the key.
	Info []engine.Option
}

// Validate checks the settings.
func (s Settings) Validate() error {
	if s.Width < eval.MinSize || s.Height < eval.MinSize || s.Width > eval.MaxSize || s.Height > eval.MaxSize {
		return fmt.Errorf("board %dx%d: sides must be %d to %d", s.Width, s.Height, eval.MinSize, eval.MaxSize)
	}
	if !s.Rule.Valid() {
		return fmt.Errorf("rule %d is not one of 0, 1, 4, 8, 9", s.Rule)
	}
	if s.TurnTime <= 0 {
		return errors.New("the turn time must be positive")
	}
	if s.MatchTime < 0 || s.Tolerance < 0 || s.MaxPlies < 0 || s.MaxMemory < 0 {
		return errors.New("negative limits make no sense")
	}
	for _, o := range s.Info {
		switch strings.ToLower(o.Key) {
		case "timeout_turn", "timeout_match", "max_memory", "game_type", "rule", "time_left":
			return fmt.Errorf("INFO %s is a match setting of its own, not an extra one", o.Key)
		}
		if _, err := s.ForEngine(engine.Spec{Name: "every engine", Options: []engine.Option{o}}); err != nil {
			return err
		}
	}
	return nil
}

// Message is one MESSAGE line an engine printed during a game.
type Message struct {
	Ply   int // stones on the board when the engine was asked to move
	Color eval.Color
	Text  string
}

// GameResult is a finished (or interrupted) game.
type GameResult struct {
	Record   record.Game
	Winner   eval.Color // Empty for a draw
	Reason   Reason
	Detail   string   // the referee's words, e.g. `answered "hello", not a move`
	Output   []string // the loser's last output lines after a failure
	Times    [2][]time.Duration
	Messages []Message
	// PeakMemory is each colour's highest memory sample (USS of the
	// process tree, bytes) while thinking; 0 where it is not measured.
	PeakMemory [2]int64
	// MemoryLimit is each colour's own memory limit in bytes (its
	// max_memory option, or the match's); 0 = no limit.
	MemoryLimit [2]int64
}

// colorIndex maps Black to 0 and White to 1.
func colorIndex(c eval.Color) int {
	if c == eval.White {
		return 1
	}
	return 0
}

// player is one engine in one game.
type player struct {
	proc    *engine.Process
	es      EngineSettings // what it was told and is held to
	color   eval.Color
	left    time.Duration // match time left
	carry   time.Duration // start-up time, charged to the first move
	seen    bool          // has had its first move request (a BOARD)
	startAt time.Time
}

// PlayGame plays one game between two engines from an opening (absolute
// cells, Black first) and referees it. Engines run for this game only: one
// process per game, as Gomocup does, so a crashed engine is simply started
// afresh for the next game. When ctx is cancelled the engines are ended and
// the result has Reason Interrupted. The error is for a bad opening or
// engine options that Settings.ForEngine refuses.
func PlayGame(ctx context.Context, s Settings, black, white engine.Spec, open []opening.Point) (*GameResult, error) {
	ref, err := NewReferee(s.Width, s.Height, s.Rule)
	if err != nil {
		return nil, err
	}
	res := &GameResult{Record: record.Game{
		Width: s.Width, Height: s.Height, RuleName: s.Rule.String(),
		Black: black.Name, White: white.Name, Date: time.Now(), Opening: len(open),
	}}
	for i, p := range open {
		v, detail := ref.Judge(p.X, p.Y)
		if v != Legal {
			return nil, fmt.Errorf("opening stone %d (%d,%d): %v %s", i+1, p.X, p.Y, v, detail)
		}
		res.Record.Moves = append(res.Record.Moves, record.Move{X: p.X, Y: p.Y})
	}

	players := [2]*player{{color: eval.Black}, {color: eval.White}}
	specs := [2]engine.Spec{black, white}
	for i, pl := range players {
		if pl.es, err = s.ForEngine(specs[i]); err != nil {
			return nil, err
		}
		res.MemoryLimit[i] = pl.es.MemoryLimit
	}
	defer func() {
		var wg sync.WaitGroup
		for _, pl := range players {
			if pl.proc != nil {
				wg.Add(1)
				go func() { defer wg.Done(); pl.proc.Close() }()
			}
		}
		wg.Wait()
	}()

	// Start both engines at once; each start-up is charged to its first move.
	for i, pl := range players {
		pl.left = pl.es.MatchTime
		pl.startAt = time.Now()
		proc, err := engine.Start(specs[i])
		if err != nil {
			return res.fail(pl.color, err, nil), nil
		}
		pl.proc = proc
		start := "START " + strconv.Itoa(s.Width)
		if s.Width != s.Height {
			start = fmt.Sprintf("RECTSTART %d,%d", s.Width, s.Height)
		}
		if err := proc.Send(start); err != nil {
			return res.fail(pl.color, err, proc), nil
		}
	}
	for _, pl := range players {
		at, err := pl.proc.WaitOK(ctx, pl.startAt.Add(s.Tolerance+pl.limit(s)))
		if err != nil {
			return res.fail(pl.color, err, pl.proc), nil
		}
		pl.carry = at.Sub(pl.startAt)
		// Each setting once, the engine's own value where it gives one:
		// an engine that sizes its hash on every max_memory must not
		// first get the match's.
		info := make([]string, len(pl.es.Info))
		for i, o := range pl.es.Info {
			info[i] = "INFO " + o.Key + " " + o.Value
		}
		if err := pl.proc.Send(info...); err != nil {
			return res.fail(pl.color, err, pl.proc), nil
		}
	}

	for {
		if ref.Full() {
			return res.draw(ReasonFull), nil
		}
		if s.MaxPlies > 0 && ref.Stones() >= s.MaxPlies {
			return res.draw(ReasonPlies), nil
		}
		pl := players[colorIndex(ref.SideToMove())]
		ply := ref.Stones()
		limit := pl.limit(s)
		sent := time.Now()
		// Memory is sampled while the engine thinks; going over the limit
		// stops the wait for the move at once.
		moveCtx, overLimit := context.WithCancel(ctx)
		watch := pl.proc.WatchMemory(engine.MemoryInterval, pl.es.MemoryLimit, overLimit)
		var x, y int
		var at time.Time
		err := pl.proc.Send(append([]string{"INFO time_left " + pl.timeLeft(s)}, res.request(pl, s)...)...)
		if err == nil {
			x, y, at, err = pl.proc.ReadMove(moveCtx, sent.Add(s.Tolerance+limit-pl.carry), s.Lenient)
		}
		peak, over := watch.Stop()
		overLimit()
		ci := colorIndex(pl.color)
		res.PeakMemory[ci] = max(res.PeakMemory[ci], peak)
		for _, m := range pl.proc.Messages() {
			res.Messages = append(res.Messages, Message{Ply: ply, Color: pl.color, Text: m})
		}
		if over {
			res.Detail = fmt.Sprintf("used %.1f MB, limit %.1f MB (USS of the process tree)", mb(peak), mb(pl.es.MemoryLimit))
			return res.lose(pl.color, ReasonMemory, pl.proc.Tail()), nil
		}
		if err != nil {
			return res.fail(pl.color, startupCharged(err, pl.carry), pl.proc), nil
		}
		carry := pl.carry
		used := at.Sub(sent) + carry
		pl.carry = 0
		if used >= s.Tolerance+limit {
			return res.fail(pl.color, startupCharged(&engine.Error{Kind: engine.Timeout,
				Detail: fmt.Sprintf("answered after %v, limit %v", used.Round(time.Millisecond), (s.Tolerance + limit)),
				Output: pl.proc.Tail()}, carry), pl.proc), nil
		}
		pl.left -= used
		res.Times[colorIndex(pl.color)] = append(res.Times[colorIndex(pl.color)], used)
		v, detail := ref.Judge(x, y)
		switch v {
		case Illegal:
			res.Detail = detail
			return res.lose(pl.color, ReasonIllegal, pl.proc.Tail()), nil
		}
		res.Record.Moves = append(res.Record.Moves, record.Move{X: x, Y: y, Time: used})
		switch v {
		case Foul:
			res.Detail = detail
			return res.lose(pl.color, ReasonFoul, nil), nil
		case Five:
			res.Detail = detail
			return res.win(pl.color, ReasonFive), nil
		}
	}
}

// startupCharged adds to a first move's time-out the start-up that was
// charged to it (the time from starting the process to its OK), so that a
// slow start and a slow move can be told apart in the results. Other
// failures, and later moves (carry 0), pass unchanged.
func startupCharged(err error, carry time.Duration) error {
	var ee *engine.Error
	if carry <= 0 || !errors.As(err, &ee) || ee.Kind != engine.Timeout {
		return err
	}
	e := *ee
	e.Detail = fmt.Sprintf("%s (first move; the start-up to OK, %v, counted in its time)", e.Detail, carry.Round(time.Millisecond))
	return &e
}

// mb is a byte count in MiB, which Gomocup calls MB (its 350 MB limit is
// 367001600 bytes).
func mb(n int64) float64 { return float64(n) / (1 << 20) }

// limit is the time the player may use for its next move before the
// tolerance: its turn time, or its match time left when that is shorter.
func (pl *player) limit(s Settings) time.Duration {
	if pl.es.MatchTime > 0 && pl.left < pl.es.TurnTime {
		return max(pl.left, 0)
	}
	return pl.es.TurnTime
}

// timeLeft is the INFO time_left value in milliseconds.
func (pl *player) timeLeft(s Settings) string {
	if pl.es.MatchTime <= 0 {
		return strconv.Itoa(unlimited)
	}
	return strconv.FormatInt(pl.left.Milliseconds(), 10)
}

// request is the command that asks pl for a move: BOARD with every stone
// (or BEGIN on an empty board when asked) at first contact, TURN with the
// opponent's last stone afterwards.
func (res *GameResult) request(pl *player, s Settings) []string {
	moves := res.Record.Moves
	if pl.seen {
		last := moves[len(moves)-1]
		return []string{fmt.Sprintf("TURN %d,%d", last.X, last.Y)}
	}
	pl.seen = true
	if len(moves) == 0 && s.UseBegin {
		return []string{"BEGIN"}
	}
	lines := make([]string, 0, len(moves)+2)
	lines = append(lines, "BOARD")
	for i, m := range moves {
		field := 2
		if (i%2 == 0) == (pl.color == eval.Black) {
			field = 1
		}
		lines = append(lines, fmt.Sprintf("%d,%d,%d", m.X, m.Y, field))
	}
	return append(lines, "DONE")
}

func (res *GameResult) win(c eval.Color, r Reason) *GameResult {
	res.Winner, res.Reason = c, r
	res.Record.Reason = string(r)
	res.Record.Outcome = record.BlackWins
	if c == eval.White {
		res.Record.Outcome = record.WhiteWins
	}
	return res
}

func (res *GameResult) lose(c eval.Color, r Reason, output []string) *GameResult {
	res.Output = output
	res.Record.Failure = r == ReasonTimeout || r == ReasonCrash || r == ReasonIllegal || r == ReasonUnparseable || r == ReasonMemory
	return res.win(c.Opp(), r)
}

func (res *GameResult) draw(r Reason) *GameResult {
	res.Winner, res.Reason = eval.Empty, r
	res.Record.Reason = string(r)
	res.Record.Outcome = record.Draw
	return res
}

// fail records an engine failure as a loss of colour c, or the game as
// interrupted when the failure is a cancelled context.
func (res *GameResult) fail(c eval.Color, err error, proc *engine.Process) *GameResult {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		res.Detail = err.Error()
		return res.draw(ReasonInterrupted)
	}
	res.Detail = ee.Detail
	reason := ReasonUnparseable
	switch ee.Kind {
	case engine.Timeout:
		reason = ReasonTimeout
	case engine.Crash:
		reason = ReasonCrash
	}
	return res.lose(c, reason, ee.Output)
}
