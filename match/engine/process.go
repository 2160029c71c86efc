package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind classifies why an engine failed to answer.
type Kind int

// The ways an engine can fail.
const (
	Timeout     Kind = iota + 1 // no answer within the time limit
	Crash                       // the process could not start, exited, or closed its output
	Unparseable                 // the answer was not a move (junk, ERROR, UNKNOWN, a wrong answer to START)
)

// String names the kind as result tables show it.
func (k Kind) String() string {
	switch k {
	case Timeout:
		return "time-out"
	case Crash:
		return "crash"
	case Unparseable:
		return "unparseable"
	}
	return "unknown"
}

// Error is an engine failure with what the engine last printed.
type Error struct {
	Kind   Kind
	Detail string // what happened, e.g. `answered "hello"` or "exit status 3"
	// Output is the engine's last output lines (stderr lines prefixed
	// "stderr: "), after its first stderr lines when those are no longer
	// among the last: a dying program's first words (Go's "panic: ...",
	// a failed assertion) come before a long stack.
	Output []string
}

func (e *Error) Error() string { return e.Kind.String() + ": " + e.Detail }

// tailLines is how many of the last output lines an Error carries, and
// headLines how many of the first stderr lines it keeps besides.
const (
	tailLines = 8
	headLines = 4
)

// maxLine caps a line's length; the rest of a longer line is dropped.
const maxLine = 4096

// endGrace is how long an engine may take to exit after END.
const endGrace = time.Second

// line is one line of the engine's stdout and when it arrived.
type line struct {
	text string
	at   time.Time
}

// Process is a running engine. Its methods are meant for one goroutine (the
// game's); the reading goroutines only share the output tail, under a lock.
type Process struct {
	spec   Spec
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan line     // stdout lines; closed at EOF
	quit   chan struct{} // closed by Close: stop delivering lines
	exit   chan struct{} // closed when the process has exited
	errEOF chan struct{} // closed when stderr has been read to its end
	err    error         // the exit status, set before exit is closed

	mu   sync.Mutex
	tail []string   // last lines of stdout and stderr
	seen int        // lines remembered so far; the tail holds the last ones
	head []headLine // the first stderr lines

	messages []string // MESSAGE texts not yet taken
	closed   bool
	peakMem  int64 // the highest memory sample, in bytes (under mu)
}

// Start runs the engine described by spec. A program that cannot start is
// reported as a Crash.
func Start(spec Spec) (*Process, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Dir = spec.Dir
	isolate(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &Error{Kind: Crash, Detail: err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, &Error{Kind: Crash, Detail: err.Error()}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, &Error{Kind: Crash, Detail: err.Error()}
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	// The child holds its own copies of the write ends; closing ours lets
	// the readers see EOF when the engine (and anything it spawned) is gone.
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, &Error{Kind: Crash, Detail: fmt.Sprintf("cannot start %s: %v", spec.Command, err)}
	}
	p := &Process{
		spec:   spec,
		cmd:    cmd,
		stdin:  stdin,
		lines:  make(chan line, 64),
		quit:   make(chan struct{}),
		exit:   make(chan struct{}),
		errEOF: make(chan struct{}),
	}
	go p.readStdout(outR)
	go p.readStderr(errR)
	go func() {
		p.err = cmd.Wait()
		close(p.exit)
	}()
	return p, nil
}

// Name is the engine's display name.
func (p *Process) Name() string { return p.spec.Name }

// readLines calls fn for every line of r, cut at maxLine bytes, without the
// line end.
func readLines(r io.Reader, fn func(string) bool) {
	br := bufio.NewReaderSize(r, maxLine)
	for {
		line, isPrefix, err := br.ReadLine()
		if err != nil {
			return
		}
		s := string(line)
		for isPrefix { // drop the rest of an over-long line
			_, isPrefix, err = br.ReadLine()
			if err != nil {
				break
			}
		}
		if !fn(s) {
			return
		}
	}
}

func (p *Process) readStdout(r *os.File) {
	defer r.Close()
	defer close(p.lines)
	readLines(r, func(s string) bool {
		p.remember(s, false)
		select {
		case p.lines <- line{s, time.Now()}:
			return true
		case <-p.quit:
			return false
		}
	})
}

func (p *Process) readStderr(r *os.File) {
	defer close(p.errEOF)
	defer r.Close()
	readLines(r, func(s string) bool {
		p.remember("stderr: "+s, true)
		return true
	})
}

// headLine is one of the first stderr lines and its number among all the
// lines remembered.
type headLine struct {
	text string
	at   int
}

// remember adds a line to the tail, and a stderr line to the head while
// the head has room.
func (p *Process) remember(s string, stderr bool) {
	p.mu.Lock()
	if stderr && len(p.head) < headLines {
		p.head = append(p.head, headLine{s, p.seen})
	}
	p.seen++
	p.tail = append(p.tail, s)
	if len(p.tail) > tailLines {
		p.tail = append(p.tail[:0], p.tail[len(p.tail)-tailLines:]...)
	}
	p.mu.Unlock()
}

// notePeak keeps the highest memory sample.
func (p *Process) notePeak(n int64) {
	p.mu.Lock()
	p.peakMem = max(p.peakMem, n)
	p.mu.Unlock()
}

// PeakMemory is the highest memory sample of the engine's process tree so
// far, in bytes (0 where memory is not measured).
func (p *Process) PeakMemory() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peakMem
}

// Tail returns the engine's last output lines, after those of its first
// stderr lines that are no longer among them and a line saying how many
// earlier lines were not kept.
func (p *Process) Tail() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	first := p.seen - len(p.tail) // the lines before the tail's
	var out []string
	for _, h := range p.head {
		if h.at < first {
			out = append(out, h.text)
		}
	}
	if len(out) > 0 && first > len(out) {
		out = append(out, fmt.Sprintf("(%d earlier lines not kept)", first-len(out)))
	}
	return append(out, p.tail...)
}

func (p *Process) fail(kind Kind, detail string) *Error {
	return &Error{Kind: kind, Detail: detail, Output: p.Tail()}
}

// exitWait is how long crashed waits for the exit of a process that
// closed its output: a dying process is reaped within milliseconds on an
// idle machine, but 200 ms was too short beside a match on two busy cores
// (a CI run lost the exit status that way).
const exitWait = 2 * time.Second

// crashed describes an ended process: its exit status when known.
func (p *Process) crashed() *Error {
	select {
	case <-p.exit:
	case <-time.After(exitWait):
		return p.fail(Crash, "closed its output")
	}
	// What the engine wrote to stderr as it died is the best clue: let the
	// reader catch up before the tail is taken.
	select {
	case <-p.errEOF:
	case <-time.After(200 * time.Millisecond):
	}
	if p.err != nil {
		return p.fail(Crash, p.err.Error())
	}
	return p.fail(Crash, "exited")
}

// Send writes lines to the engine, each ending in CR LF. A write error means
// the engine is gone: a Crash.
func (p *Process) Send(lines ...string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString("\r\n")
	}
	if _, err := io.WriteString(p.stdin, b.String()); err != nil {
		return p.crashed()
	}
	return nil
}

// Messages returns the MESSAGE texts the engine printed since the last call.
func (p *Process) Messages() []string {
	m := p.messages
	p.messages = nil
	return m
}

// next waits for the next answer line that is not empty, MESSAGE or DEBUG,
// until the deadline, and says when it arrived. After the process exits,
// lines still in the pipe get a short grace before the exit counts as a
// crash. A cancelled ctx returns ctx.Err().
func (p *Process) next(ctx context.Context, deadline time.Time) (string, time.Time, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	exited := p.exit
	var grace <-chan time.Time
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return "", time.Time{}, p.crashed()
			}
			t := strings.TrimSpace(l.text)
			word, rest, _ := strings.Cut(t, " ")
			switch strings.ToUpper(word) {
			case "":
				continue
			case "MESSAGE":
				p.messages = append(p.messages, strings.TrimSpace(rest))
				continue
			case "DEBUG":
				continue
			}
			return t, l.at, nil
		case <-exited:
			exited = nil
			grace = time.After(100 * time.Millisecond)
		case <-grace:
			return "", time.Time{}, p.crashed()
		case <-timer.C:
			return "", time.Time{}, p.fail(Timeout, "no answer in time")
		case <-ctx.Done():
			return "", time.Time{}, ctx.Err()
		}
	}
}

// WaitOK waits until the deadline for the OK that answers START or
// RECTSTART, and says when it arrived.
func (p *Process) WaitOK(ctx context.Context, deadline time.Time) (time.Time, error) {
	line, at, err := p.next(ctx, deadline)
	if err != nil {
		return at, err
	}
	if !strings.EqualFold(line, "OK") {
		return at, p.fail(Unparseable, fmt.Sprintf("answered %q to START", line))
	}
	return at, nil
}

// ReadMove waits until the deadline for a move "x,y". It returns the
// move and when its line arrived. A line that is not a move loses as
// Unparseable, as Piskvork has it; with lenient set it is skipped (kept in
// the output tail) and the engine may still answer before the deadline,
// as GomocupJudge has it.
func (p *Process) ReadMove(ctx context.Context, deadline time.Time, lenient bool) (x, y int, at time.Time, err error) {
	for {
		line, at, err := p.next(ctx, deadline)
		if err != nil {
			return 0, 0, at, err
		}
		if x, y, ok := ParseMove(line); ok {
			return x, y, at, nil
		}
		if lenient {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		switch strings.ToUpper(word) {
		case "ERROR", "UNKNOWN":
			return 0, 0, at, p.fail(Unparseable, fmt.Sprintf("answered %q", line))
		}
		return 0, 0, at, p.fail(Unparseable, fmt.Sprintf("answered %q, not a move", line))
	}
}

// ParseMove reads "x,y" (spaces around the numbers allowed).
func ParseMove(s string) (x, y int, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return x, y, true
}

// Close sends END, gives the engine endGrace to exit, then kills it (and its
// process group where there is one). It is safe to call more than once.
func (p *Process) Close() {
	if p.closed {
		return
	}
	p.closed = true
	_ = p.Send("END")
	_ = p.stdin.Close()
	select {
	case <-p.exit:
	case <-time.After(endGrace):
	}
	killGroup(p.cmd)
	close(p.quit)
	<-p.exit
}

// Kill ends the engine at once, without END.
func (p *Process) Kill() {
	if p.closed {
		return
	}
	p.closed = true
	_ = p.stdin.Close()
	killGroup(p.cmd)
	close(p.quit)
	<-p.exit
}
