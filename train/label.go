package train

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"wuzi/eval"
	"wuzi/match/engine"
	"wuzi/search"
	"wuzi/selfplay"
)

// A Labeler asks a Gomocup engine for its evaluation of positions: a
// deeper or stronger search than the one that played the games, whose
// score becomes the training target's score part. Any engine that prints
// its evaluation in MESSAGE lines as "ev N" or "Eval N" will do (Wuzi and
// Rapfi do); a mate shown as "M<n>", "+M<n>" or "-M<n>" (Rapfi) or as
// "win in <n>" or "lose in <n>" (Wuzi) counts as a proven result, n plies
// to the five.
type Labeler struct {
	spec    engine.Spec
	turn    time.Duration
	proc    *engine.Process
	started [2]int // rule and size the engine was started with
}

// NewLabeler returns a labeller that runs spec and gives it turn a
// position.
func NewLabeler(spec engine.Spec, turn time.Duration) *Labeler {
	return &Labeler{spec: spec, turn: turn, started: [2]int{-1, -1}}
}

// evalRe finds an evaluation in a MESSAGE text.
var evalRe = regexp.MustCompile(`(?i)\bev(?:al)?\s*[:=]?\s*([+-]?M?\d+)`)

// mateRe finds a proven result in Wuzi's words in a MESSAGE text.
var mateRe = regexp.MustCompile(`(?i)\b(win|lose)\s+in\s+(\d+)`)

// depthRe finds the depth in a MESSAGE text.
var depthRe = regexp.MustCompile(`(?i)\bdepth\s*[:=]?\s*(\d+)`)

// parseEval reads the last evaluation and depth among the messages.
func parseEval(msgs []string) (score, depth int, ok bool) {
	for _, m := range msgs {
		e := evalRe.FindStringSubmatch(m)
		if e == nil {
			w := mateRe.FindStringSubmatch(m)
			if w == nil {
				continue
			}
			// The same text as Rapfi's mate: "M<n>", signed by who wins.
			e = []string{w[0], "M" + w[2]}
			if strings.EqualFold(w[1], "lose") {
				e[1] = "-" + e[1]
			}
		}
		v := strings.ToUpper(e[1])
		neg := strings.HasPrefix(v, "-")
		v = strings.TrimLeft(v, "+-")
		if n, isMate := strings.CutPrefix(v, "M"); isMate {
			k, err := strconv.Atoi(n)
			if err != nil {
				continue
			}
			score = search.Win - min(k, search.MaxPly-1)
		} else {
			k, err := strconv.Atoi(v)
			if err != nil {
				continue
			}
			score = k
		}
		if neg {
			score = -score
		}
		ok = true
		depth = 0
		if d := depthRe.FindStringSubmatch(m); d != nil {
			depth, _ = strconv.Atoi(d[1])
		}
	}
	return score, depth, ok
}

// Label returns pos with the engine's score, depth and best move in place
// of its own, and false when the engine gave no evaluation. A failed
// engine is restarted on the next call.
func (l *Labeler) Label(ctx context.Context, pos selfplay.Position) (selfplay.Position, bool, error) {
	if err := l.ensure(ctx, pos); err != nil {
		return pos, false, err
	}
	lines := []string{"BOARD"}
	side := len(pos.Moves) % 2 // 0: Black to move
	for i, m := range pos.Moves {
		field := 2
		if i%2 == side {
			field = 1
		}
		lines = append(lines, fmt.Sprintf("%d,%d,%d", m.X, m.Y, field))
	}
	lines = append(lines, "DONE")
	l.proc.Messages()
	if err := l.proc.Send(lines...); err != nil {
		l.stop()
		return pos, false, err
	}
	// Some engines (Rapfi) drop a command that arrives just after their
	// move, while they finish the search, and then reject the stones and
	// DONE as unknown commands: the position is sent again.
	var x, y int
	deadline := time.Now().Add(l.turn + time.Second)
	for resent := 0; ; {
		line, _, err := l.proc.ReadLine(ctx, deadline)
		if err != nil {
			tail := l.proc.Tail()
			l.stop()
			return pos, false, fmt.Errorf("%w (last output: %q)", err, tail[max(0, len(tail)-3):])
		}
		var isMove bool
		if x, y, isMove = engine.ParseMove(line); isMove {
			break
		}
		if strings.HasSuffix(strings.ToUpper(line), " DONE") && strings.HasPrefix(strings.ToUpper(line), "ERROR") && resent < 2 {
			resent++
			l.proc.Messages()
			if err := l.proc.Send(lines...); err != nil {
				l.stop()
				return pos, false, err
			}
			deadline = time.Now().Add(l.turn + time.Second)
		}
	}
	score, depth, ok := parseEval(l.proc.Messages())
	if !ok {
		return pos, false, nil
	}
	pos.Score, pos.Depth = score, depth
	if x >= 0 && y >= 0 && x < pos.Size && y < pos.Size {
		pos.Best = selfplay.Move{X: x, Y: y}
	}
	return pos, true, nil
}

// ensure has a running engine started for pos's rule and size.
func (l *Labeler) ensure(ctx context.Context, pos selfplay.Position) error {
	want := [2]int{int(pos.Rule), pos.Size}
	if l.proc != nil && l.started == want {
		return nil
	}
	if l.proc == nil {
		p, err := engine.Start(l.spec)
		if err != nil {
			return err
		}
		l.proc = p
	}
	lines := []string{fmt.Sprintf("START %d", pos.Size)}
	if err := l.proc.Send(lines...); err != nil {
		l.stop()
		return err
	}
	if _, err := l.proc.WaitOK(ctx, time.Now().Add(30*time.Second)); err != nil {
		l.stop()
		return err
	}
	info := []string{
		fmt.Sprintf("INFO timeout_turn %d", l.turn.Milliseconds()),
		"INFO timeout_match 100000000",
		"INFO time_left 100000000",
		fmt.Sprintf("INFO rule %d", ruleInfo(pos.Rule)),
	}
	for _, o := range l.spec.Options {
		info = append(info, "INFO "+o.Key+" "+o.Value)
	}
	if err := l.proc.Send(info...); err != nil {
		l.stop()
		return err
	}
	l.started = want
	return nil
}

func ruleInfo(r eval.Rule) int { return int(r) }

func (l *Labeler) stop() {
	if l.proc != nil {
		l.proc.Kill()
		l.proc = nil
	}
	l.started = [2]int{-1, -1}
}

// Close ends the engine.
func (l *Labeler) Close() {
	if l.proc != nil {
		l.proc.Close()
		l.proc = nil
	}
}
