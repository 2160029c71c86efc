package webboard

import (
	"time"

	"wuzi/eval"
)

// PlayerView is one player as the page shows it.
type PlayerView struct {
	Name   string  `json:"name"`
	Engine bool    `json:"engine"`
	LeftMS int64   `json:"leftMs"` // match time left; -1 without a match limit or for a human
	PeakMB float64 `json:"peakMb"` // the engine's highest memory sample
}

// Snapshot is a game's state as the page draws it. The server publishes a
// new one, with a higher V, after every change.
type Snapshot struct {
	ID        string        `json:"id"`
	V         uint64        `json:"v"`
	Width     int           `json:"width"`
	Height    int           `json:"height"`
	Rule      string        `json:"rule"`
	RuleNum   int           `json:"ruleNum"`
	TurnMS    int64         `json:"turnMs"`
	MatchMS   int64         `json:"matchMs"`
	Players   [2]PlayerView `json:"players"` // Black, White
	Moves     [][2]int      `json:"moves"`
	TimesMS   []int64       `json:"timesMs"`
	Redo      int           `json:"redo"`
	ToMove    string        `json:"toMove"`
	Actor     string        `json:"actor"` // "human" or "engine": who acts next
	Over      bool          `json:"over"`
	Winner    string        `json:"winner"`
	Reason    string        `json:"reason"`
	Result    string        `json:"result"`
	Output    []string      `json:"output"`
	Forbidden [][2]int      `json:"forbidden"` // renju: where Black may not play now
	Phase     string        `json:"phase"`
	Opening   int           `json:"opening"`
	Paused    bool          `json:"paused"`
	Thinking  string        `json:"thinking"`
	Info      *InfoView     `json:"info"`
	NBest     []Candidate   `json:"nbest"`
	NBestPly  int           `json:"nbestPly"`
	Log       []string      `json:"log"`
	Notice    string        `json:"notice"`
	Closed    bool          `json:"closed"`
}

// publish makes a new snapshot of the worker's state and wakes the pages
// waiting for one.
func (g *game) publish() {
	g.version++
	s := &Snapshot{
		ID: g.id, V: g.version,
		Width: g.set.Width, Height: g.set.Height,
		Rule: g.set.Rule.String(), RuleNum: int(g.set.Rule),
		TurnMS: g.set.TurnTime.Milliseconds(), MatchMS: g.set.MatchTime.Milliseconds(),
		Moves:    make([][2]int, len(g.moves)),
		TimesMS:  make([]int64, len(g.moves)),
		Redo:     len(g.redo),
		ToMove:   colorName(g.toMove()),
		Over:     g.over,
		Winner:   colorName(g.winner),
		Reason:   g.reason,
		Result:   g.resultText(),
		Output:   g.output,
		Phase:    g.phase,
		Opening:  g.opening,
		Paused:   g.paused,
		Thinking: g.thinking,
		Info:     g.info,
		NBestPly: g.nbestPly,
		Log:      append([]string(nil), g.log...),
		Notice:   g.notice,
	}
	if g.nbestPly == len(g.moves) {
		s.NBest = append([]Candidate(nil), g.nbest...)
	}
	for i, m := range g.moves {
		s.Moves[i] = [2]int{m.X, m.Y}
		s.TimesMS[i] = m.Time.Milliseconds()
	}
	for i, p := range g.players {
		left := int64(-1)
		if !p.human && g.set.MatchTime > 0 {
			left = p.left.Milliseconds()
		}
		s.Players[i] = PlayerView{Name: p.name(), Engine: !p.human, LeftMS: left, PeakMB: mib(p.peak)}
	}
	s.Actor = "human"
	if !g.actor().human {
		s.Actor = "engine"
	}
	if !g.over && g.set.Rule == eval.Renju && g.toMove() == eval.Black && g.phase == phaseNone {
		if !g.forbidOK || g.forbidKey != g.bd.Hash() {
			g.forbid = g.forbid[:0]
			for _, p := range g.bd.ForbiddenCells() {
				x, y := g.bd.XY(p)
				g.forbid = append(g.forbid, [2]int{x, y})
			}
			g.forbidKey, g.forbidOK = g.bd.Hash(), true
		}
		s.Forbidden = append([][2]int(nil), g.forbid...)
	}
	g.mu.Lock()
	g.snap = s
	close(g.changed)
	g.changed = make(chan struct{})
	g.mu.Unlock()
}

// snapshot waits until the game's version is past v (or the wait ends) and
// returns the latest snapshot.
func (g *game) snapshot(v uint64, wait time.Duration, cancel <-chan struct{}) *Snapshot {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		g.mu.Lock()
		g.lastSeen = time.Now()
		s, ch := g.snap, g.changed
		g.mu.Unlock()
		if s.V != v || wait <= 0 {
			return s
		}
		select {
		case <-ch:
		case <-g.done:
			g.mu.Lock()
			s := *g.snap
			g.mu.Unlock()
			s.Closed = true
			return &s
		case <-deadline.C:
			return s
		case <-cancel:
			return s
		}
	}
}
