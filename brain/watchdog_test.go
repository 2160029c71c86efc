package brain

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/protocol"
)

// startedBrain returns a started 15×15 brain (16 MiB table) with the given
// INFO settings and the given moves played.
func startedBrain(t *testing.T, info map[string]string, stones ...protocol.Move) *Brain {
	t.Helper()
	br := New(Config{HashMB: 16})
	if err := br.Start(15, 15); err != nil {
		t.Fatal(err)
	}
	for k, v := range info {
		if err := br.SetInfo(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range stones {
		if err := br.OpponentMove(m); err != nil {
			t.Fatal(err)
		}
	}
	return br
}

// watchBrain returns a started freestyle brain at a 200 ms turn.
func watchBrain(t *testing.T, stones ...protocol.Move) *Brain {
	t.Helper()
	return startedBrain(t, map[string]string{"timeout_turn": "200", "timeout_match": "0"}, stones...)
}

// thinkOrFail runs Think and fails the test if it has not answered within
// a generous bound: without the watchdog a stuck search never answers.
func thinkOrFail(t *testing.T, br *Brain, r protocol.Reporter) protocol.Move {
	t.Helper()
	type answer struct {
		m   protocol.Move
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		m, err := br.Think(context.Background(), 1, r)
		ch <- answer{m, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			t.Fatal(a.err)
		}
		return a.m
	case <-time.After(10 * time.Second):
		t.Fatal("Think did not answer: the watchdog did not bite")
	}
	return protocol.Move{}
}

// recorder is a Reporter that keeps what it is told and, when block is
// set, blocks the search in its second Info until release is closed.
type recorder struct {
	mu      sync.Mutex
	infos   []protocol.SearchInfo
	msgs    []string
	block   bool
	release chan struct{}
}

func (r *recorder) Info(in protocol.SearchInfo) {
	r.mu.Lock()
	r.infos = append(r.infos, in)
	n, block := len(r.infos), r.block
	r.mu.Unlock()
	if block && n == 2 {
		<-r.release
	}
}

func (r *recorder) Message(s string) { r.mu.Lock(); r.msgs = append(r.msgs, s); r.mu.Unlock() }
func (r *recorder) Debug(string)     {}

func (r *recorder) snapshot() ([]protocol.SearchInfo, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]protocol.SearchInfo(nil), r.infos...), append([]string(nil), r.msgs...)
}

// TestWatchdogAnswersAStuckSearch: a search that never returns (it ignores
// its context) is answered for after its hard limit with a legal move
// that takes the five on offer; while it stays stuck the next move is
// searched by a replacement searcher, and once it returns its searcher,
// table and all, is taken back.
func TestWatchdogAnswersAStuckSearch(t *testing.T) {
	// Black (the brain's opponent) has four in a row on row 7 with both
	// ends open; White, to move, has four on row 9 and wins at 3,9 or 8,9.
	var stones []protocol.Move
	for x := 4; x <= 7; x++ {
		stones = append(stones, protocol.Move{X: x, Y: 7}, protocol.Move{X: x, Y: 9})
	}
	br := watchBrain(t)
	if err := br.SetPosition(toStones(stones)); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	br.stall = func(context.Context) { <-release }
	original := br.searcher
	stacks := make(chan string, 1)
	br.cfg.Stall = func(s string) { stacks <- s }
	rec := &recorder{}
	m := thinkOrFail(t, br, rec)
	if m != (protocol.Move{X: 3, Y: 9}) && m != (protocol.Move{X: 8, Y: 9}) {
		t.Errorf("watchdog answered %v, want the five at 3,9 or 8,9", m)
	}
	if _, msgs := rec.snapshot(); len(msgs) != 1 || !strings.Contains(msgs[0], "watchdog") {
		t.Errorf("messages %q, want one naming the watchdog", msgs)
	}
	select {
	case st := <-stacks:
		if !strings.Contains(st, "brain.(*Brain).runSearch") {
			t.Errorf("stacks do not show the stuck search:\n%s", st)
		}
	case <-time.After(10 * time.Second):
		t.Error("no stacks of the stuck search")
	}

	// Still stuck: the next move gets a searcher of its own.
	br.stall = nil
	if err := br.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := br.OpponentMove(protocol.Move{X: 7, Y: 7}); err != nil {
		t.Fatal(err)
	}
	m = thinkOrFail(t, br, nil)
	if br.searcher == original || br.stuck == nil {
		t.Fatal("a stuck search's searcher was used again before it returned")
	}
	if !br.Board().Inside(m.X, m.Y) || br.Board().Ply() != 2 {
		t.Fatalf("second move %v, ply %d", m, br.Board().Ply())
	}

	// Released: it returns at once (its context was cancelled), and the
	// next search takes its searcher back.
	close(release)
	<-br.stuck.done
	if err := br.OpponentMove(protocol.Move{X: 9, Y: 9}); err != nil {
		t.Fatal(err)
	}
	thinkOrFail(t, br, nil)
	if br.searcher != original || br.stuck != nil {
		t.Fatal("the searcher was not taken back after the stuck search returned")
	}
}

// TestWatchdogKeepsTheLastIteration: a search that stalls after its first
// iteration is answered for with that iteration's best move, and nothing
// it reports after it was abandoned reaches the manager.
func TestWatchdogKeepsTheLastIteration(t *testing.T) {
	br := watchBrain(t, protocol.Move{X: 7, Y: 7}, protocol.Move{X: 8, Y: 8}, protocol.Move{X: 6, Y: 8})
	rec := &recorder{block: true, release: make(chan struct{})}
	m := thinkOrFail(t, br, rec)
	infos, msgs := rec.snapshot()
	if len(infos) < 2 || len(infos[0].PV) == 0 {
		t.Fatalf("reports %v: the stall came before the first iteration's report", infos)
	}
	// The search blocks inside its second report; the watchdog answers
	// with the move of the last report it let through.
	if want := infos[1].PV[0]; m != want {
		t.Errorf("watchdog answered %v, want the last iteration's %v", m, want)
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "last iteration") {
		t.Errorf("messages %q", msgs)
	}
	stuck := br.stuck
	close(rec.release)
	<-stuck.done
	if after, _ := rec.snapshot(); len(after) != len(infos) {
		t.Errorf("%d reports after the search was abandoned", len(after)-len(infos))
	}
}

// TestFallbackMove checks the watchdog's move when no iteration finished.
func TestFallbackMove(t *testing.T) {
	b, err := eval.NewBoard(15, 15, eval.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	if p := fallbackMove(b); p != b.Pos(7, 7) {
		x, y := b.XY(p)
		t.Errorf("empty board: %d,%d, want the centre", x, y)
	}
	// Black has four (3..6,5) closed at 2,5 by White; White to move must
	// block at 7,5.
	b.Play(b.Pos(3, 5))
	b.Play(b.Pos(2, 5))
	b.Play(b.Pos(4, 5))
	b.Play(b.Pos(10, 10))
	b.Play(b.Pos(5, 5))
	b.Play(b.Pos(12, 1))
	b.Play(b.Pos(6, 5))
	if p := fallbackMove(b); p != b.Pos(7, 5) {
		x, y := b.XY(p)
		t.Errorf("fallback %d,%d, want the block at 7,5", x, y)
	}
}

// toStones turns moves in play order into BOARD lines whose side to move
// is the one that played first.
func toStones(ms []protocol.Move) []protocol.Stone {
	out := make([]protocol.Stone, len(ms))
	for i, m := range ms {
		f := protocol.FieldOpponent
		if i%2 == 1 {
			f = protocol.FieldOwn
		}
		out[i] = protocol.Stone{Move: m, Field: f}
	}
	return out
}

// TestWatchdogSparesTheFirstIteration: when start-up charged to the first
// move has put its hard limit in the past already, the search still
// finishes its first iteration and answers with it; the watchdog must not
// bite first.
func TestWatchdogSparesTheFirstIteration(t *testing.T) {
	br := watchBrain(t, protocol.Move{X: 7, Y: 7})
	if err := br.SetInfo("timeout_turn", "300"); err != nil {
		t.Fatal(err)
	}
	br.startup = maxStartupCharge
	var lines []string
	var mu sync.Mutex
	br.cfg.Debug = func(s string) { mu.Lock(); lines = append(lines, s); mu.Unlock() }
	rec := &recorder{}
	thinkOrFail(t, br, rec)
	mu.Lock()
	defer mu.Unlock()
	if infos, msgs := rec.snapshot(); len(infos) == 0 || len(msgs) != 0 {
		t.Errorf("%d reports, messages %q: want the first iteration's report and no watchdog", len(infos), msgs)
	}
	if len(lines) != 1 || strings.Contains(lines[0], "watchdog") {
		t.Errorf("debug lines %q: want one move chosen by the search", lines)
	}
}
