package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeBrain is a small rule-less Brain: it keeps a board, checks moves, and
// thinks by playing the first empty cell (or a fixed move).
type fakeBrain struct {
	mu        sync.Mutex
	calls     []string
	w, h      int
	stones    map[Move]Field
	fixed     *Move         // Think returns this move when set
	block     bool          // Think waits for ctx to be cancelled
	started   chan struct{} // closed... signalled when a blocking Think starts
	ignoreCtx time.Duration // a blocking Think sleeps this long after cancel
	report    bool          // Think sends one Info and one Message
	thinkErr  error
	swap      Swap2Answer
	forbidden []Move
	panicAt   *Move // OpponentMove panics here
}

func newFake() *fakeBrain {
	return &fakeBrain{started: make(chan struct{}, 16)}
}

func (b *fakeBrain) record(format string, args ...any) {
	b.calls = append(b.calls, fmt.Sprintf(format, args...))
}

func (b *fakeBrain) Calls() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.calls...)
}

func (b *fakeBrain) Start(w, h int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Start %d %d", w, h)
	if w < 5 || h < 5 || w > 32 || h > 32 {
		return fmt.Errorf("unsupported size %dx%d", w, h)
	}
	b.w, b.h = w, h
	b.stones = map[Move]Field{}
	return nil
}

func (b *fakeBrain) Restart() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Restart")
	if b.w == 0 {
		return errors.New("no game started")
	}
	b.stones = map[Move]Field{}
	return nil
}

func (b *fakeBrain) SetInfo(key, value string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("SetInfo %s=%s", key, value)
	if key == "timeout_turn" && strings.HasPrefix(value, "-") {
		return errors.New("negative timeout_turn")
	}
	return nil
}

func (b *fakeBrain) check(m Move) error {
	if b.w == 0 {
		return errors.New("no game started")
	}
	if m.X < 0 || m.Y < 0 || m.X >= b.w || m.Y >= b.h {
		return fmt.Errorf("%d,%d is off the board", m.X, m.Y)
	}
	if _, ok := b.stones[m]; ok {
		return fmt.Errorf("%d,%d is occupied", m.X, m.Y)
	}
	return nil
}

func (b *fakeBrain) OpponentMove(m Move) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("OpponentMove %d,%d", m.X, m.Y)
	if b.panicAt != nil && *b.panicAt == m {
		panic("fake brain\nbroke")
	}
	if err := b.check(m); err != nil {
		return err
	}
	b.stones[m] = FieldOpponent
	return nil
}

func (b *fakeBrain) OwnMove(m Move) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("OwnMove %d,%d", m.X, m.Y)
	if err := b.check(m); err != nil {
		return err
	}
	b.stones[m] = FieldOwn
	return nil
}

func (b *fakeBrain) SetPosition(stones []Stone) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var s []string
	for _, st := range stones {
		s = append(s, fmt.Sprintf("%d,%d,%d", st.X, st.Y, st.Field))
	}
	b.record("SetPosition [%s]", strings.Join(s, " "))
	if b.w == 0 {
		return errors.New("no game started")
	}
	saved := b.stones
	b.stones = map[Move]Field{}
	for _, st := range stones {
		if err := b.check(st.Move); err != nil {
			b.stones = saved
			return err
		}
		b.stones[st.Move] = st.Field
	}
	return nil
}

func (b *fakeBrain) Takeback(m Move) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Takeback %d,%d", m.X, m.Y)
	if _, ok := b.stones[m]; !ok {
		return fmt.Errorf("no stone at %d,%d", m.X, m.Y)
	}
	delete(b.stones, m)
	return nil
}

// Analyze records the call and answers the first empty cell, playing
// nothing.
func (b *fakeBrain) Analyze(ctx context.Context, nBest int, r Reporter) (Move, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Analyze %d", nBest)
	if b.w == 0 {
		return Move{}, errors.New("no game started")
	}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if _, ok := b.stones[Move{x, y}]; !ok {
				return Move{x, y}, nil
			}
		}
	}
	return Move{}, errors.New("board full")
}

func (b *fakeBrain) Think(ctx context.Context, nBest int, r Reporter) (Move, error) {
	b.mu.Lock()
	b.record("Think %d", nBest)
	block, report, fixed, thinkErr := b.block, b.report, b.fixed, b.thinkErr
	ignore := b.ignoreCtx
	b.mu.Unlock()
	if report {
		r.Info(SearchInfo{Depth: 3, SelDepth: 5, Score: 12, Nodes: 1500, Elapsed: time.Second, PV: []Move{{7, 7}, {8, 8}}})
		r.Message("thinking\nhard")
	}
	if block {
		b.started <- struct{}{}
		<-ctx.Done()
		time.Sleep(ignore)
	}
	if thinkErr != nil {
		return Move{}, thinkErr
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.w == 0 {
		return Move{}, errors.New("no game started")
	}
	if fixed != nil {
		b.stones[*fixed] = FieldOwn
		return *fixed, nil
	}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			m := Move{x, y}
			if _, ok := b.stones[m]; !ok {
				b.stones[m] = FieldOwn
				return m, nil
			}
		}
	}
	return Move{}, errors.New("board is full")
}

func (b *fakeBrain) Swap2(ctx context.Context, stones []Move, r Reporter) (Swap2Answer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Swap2 %d", len(stones))
	if b.w == 0 {
		return Swap2Answer{}, errors.New("no game started")
	}
	if b.swap.Swap || len(b.swap.Moves) > 0 {
		return b.swap, nil
	}
	switch len(stones) {
	case 0:
		return Swap2Answer{Moves: []Move{{7, 7}, {7, 8}, {8, 8}}}, nil
	case 3:
		return Swap2Answer{Swap: true}, nil
	default:
		return Swap2Answer{Moves: []Move{{9, 9}}}, nil
	}
}

func (b *fakeBrain) Forbidden() []Move {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("Forbidden")
	return b.forbidden
}

func (b *fakeBrain) ClearHash() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.record("ClearHash")
}

func (b *fakeBrain) About() About {
	return About{Name: "fake", Version: "1.0", Author: "tester", Country: "Nowhere"}
}

const aboutLine = `name="fake", version="1.0", author="tester", country="Nowhere"`

// The allowed output lines: nothing else may ever reach a manager.
var allowedLine = regexp.MustCompile(`^(?:` +
	`[0-9]+,[0-9]+` +
	`|[0-9]+,[0-9]+ [0-9]+,[0-9]+(?: [0-9]+,[0-9]+)?` +
	`|OK|SWAP` +
	`|ERROR [^\x00-\x1f\x7f]+` +
	`|UNKNOWN [^\x00-\x1f\x7f]+` +
	`|MESSAGE [^\x00-\x1f\x7f]+` +
	`|DEBUG [^\x00-\x1f\x7f]+` +
	`|FORBID (?:[0-9]{4})*\.` +
	`|name="[^",=\x00-\x1f]*", version="[^",=\x00-\x1f]*", author="[^",=\x00-\x1f]*", country="[^",=\x00-\x1f]*"(?:, www="[^",=\x00-\x1f]*")?(?:, email="[^",=\x00-\x1f]*")?` +
	`)$`)

// checkOutput fails unless out is whole lines ended by "\n", each allowed.
func checkOutput(t testing.TB, out string) {
	t.Helper()
	if out == "" {
		return
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output does not end with a newline: %q", out)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !allowedLine.MatchString(l) || strings.ContainsAny(l, "\r\u2028\u2029\u0085") {
			t.Errorf("output line not allowed: %q", l)
		}
	}
}

// syncBuffer is an output stream the test can read while Run writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// harness runs one session and feeds it input step by step, waiting for the
// answers before sending more, so the test is deterministic.
type harness struct {
	t     *testing.T
	brain *fakeBrain
	in    *io.PipeWriter
	out   *syncBuffer
	seen  int // output lines already checked
	done  chan error
	ended bool
}

func newHarness(t *testing.T, b *fakeBrain, opts ...Option) *harness {
	t.Helper()
	return newHarnessCtx(t, context.Background(), b, opts...)
}

func newHarnessCtx(t *testing.T, ctx context.Context, b *fakeBrain, opts ...Option) *harness {
	t.Helper()
	pr, pw := io.Pipe()
	h := &harness{t: t, brain: b, in: pw, out: &syncBuffer{}, done: make(chan error, 1)}
	go func() {
		h.done <- Run(ctx, pr, NewWriter(h.out), b, opts...)
		pr.Close()
	}()
	t.Cleanup(func() {
		pw.Close()
		if !h.ended {
			select {
			case <-h.done:
			case <-time.After(2 * time.Second):
				t.Error("Run did not return after the input closed")
			}
		}
		checkOutput(t, h.out.String())
	})
	return h
}

// send writes raw input.
func (h *harness) send(s string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, s); err != nil {
		h.t.Fatalf("send %q: %v", s, err)
	}
}

func (h *harness) lines() []string {
	out := h.out.String()
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		return strings.Split(out[:i], "\n")
	}
	return nil
}

// expect waits for exactly the given next output lines. A want line
// starting with "~" is a regular expression.
func (h *harness) expect(want ...string) {
	h.t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	var got []string
	for {
		got = h.lines()
		if len(got) >= h.seen+len(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	got = got[min(h.seen, len(got)):]
	if len(got) > len(want) {
		got = got[:len(want)]
	}
	h.seen += len(got)
	if len(got) != len(want) {
		h.t.Fatalf("got lines %q, want %q", got, want)
	}
	for i := range want {
		if !matchLine(got[i], want[i]) {
			h.t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func matchLine(got, want string) bool {
	if strings.HasPrefix(want, "~") {
		return regexp.MustCompile("^(?:" + want[1:] + ")$").MatchString(got)
	}
	return got == want
}

// end sends END (or closes the input when eof) and waits for Run to return
// within limit; it then checks that no output is left unexpected.
func (h *harness) end(eof bool, limit time.Duration) error {
	h.t.Helper()
	start := time.Now()
	if eof {
		h.in.Close()
	} else {
		h.send("END\r\n")
	}
	var err error
	select {
	case err = <-h.done:
	case <-time.After(limit):
		h.t.Fatalf("Run did not return within %v", limit)
	}
	h.ended = true
	if d := time.Since(start); d > limit {
		h.t.Errorf("Run took %v to return", d)
	}
	if extra := h.lines()[min(h.seen, len(h.lines())):]; len(extra) > 0 {
		h.t.Errorf("unexpected output lines %q", extra)
	}
	return err
}

// waitThinking waits until a blocking Think has started.
func (h *harness) waitThinking() {
	h.t.Helper()
	select {
	case <-h.brain.started:
	case <-time.After(2 * time.Second):
		h.t.Fatal("Think did not start")
	}
}
