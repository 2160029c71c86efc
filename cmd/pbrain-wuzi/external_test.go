package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The tests in this file, and every session test when WUZI_ENGINE_CMD is
// set, drive a built engine binary as a manager does, through pipes:
//
//	WUZI_ENGINE_CMD="wine /tmp/x/pbrain-wuzi64.exe" go test ./cmd/pbrain-wuzi
//
// scripts/wine-test.sh runs them against the Windows engine under Wine.
// The command is split at spaces (no quoting). Without the variable the
// tests of this file are skipped and the sessions run in-process.

// externalCommand is the engine command from WUZI_ENGINE_CMD, or nil.
func externalCommand() []string {
	f := strings.Fields(os.Getenv("WUZI_ENGINE_CMD"))
	if len(f) == 0 {
		return nil
	}
	return f
}

// sessionTimeout bounds a whole batch session of an external engine.
const sessionTimeout = 60 * time.Second

// externalSession runs the engine command on the input and returns its
// standard output with CR LF line ends made LF.
func externalSession(t *testing.T, command, args []string, input string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], append(command[1:len(command):len(command)], args...)...)
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v (stderr %q, stdout %q)", strings.Join(command, " "), err, errOut.String(), out.String())
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// engineProc is an external engine driven one command at a time.
type engineProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	done  chan error
	taken map[string]bool // cells the engine played
}

func startEngine(t *testing.T) *engineProc {
	t.Helper()
	command := externalCommand()
	if command == nil {
		t.Skip("WUZI_ENGINE_CMD is not set: no external engine to test")
	}
	cmd := exec.Command(command[0], command[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &engineProc{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 100), done: make(chan error, 1), taken: map[string]bool{}}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
		e.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if errOut.Len() > 0 {
			t.Logf("engine stderr: %s", errOut.String())
		}
	})
	return e
}

// send writes lines ending in CR LF, as Piskvork does.
func (e *engineProc) send(lines ...string) {
	e.t.Helper()
	if _, err := io.WriteString(e.stdin, strings.Join(lines, "\r\n")+"\r\n"); err != nil {
		e.t.Fatalf("write %q: %v", lines, err)
	}
}

// answer waits up to limit for the next line that is not MESSAGE or DEBUG
// and returns it with the time it took. Every line must be one a manager
// reads correctly.
func (e *engineProc) answer(limit time.Duration) (string, time.Duration) {
	e.t.Helper()
	start := time.Now()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("the engine closed its output (exit: %v)", <-e.done)
			}
			l = strings.TrimSuffix(l, "\r")
			if !allowed.MatchString(l) {
				e.t.Errorf("line a manager could misread: %q", l)
			}
			if strings.HasPrefix(l, "MESSAGE") || strings.HasPrefix(l, "DEBUG") {
				continue
			}
			return l, time.Since(start)
		case <-timer.C:
			e.t.Fatalf("no answer within %v", limit)
		}
	}
}

// want checks the next answer against a pattern as expect does, within
// limit, and returns how long it took.
func (e *engineProc) want(limit time.Duration, pattern string) time.Duration {
	e.t.Helper()
	got, took := e.answer(limit)
	expect(e.t, []string{got}, pattern)
	if moveRe.MatchString(got) {
		e.taken[got] = true
	}
	e.t.Logf("%-28q in %4d ms", got, took.Milliseconds())
	return took
}

// free returns the first of the cells the engine has not played.
func (e *engineProc) free(cells ...string) string {
	for _, c := range cells {
		if !e.taken[c] {
			return c
		}
	}
	e.t.Fatalf("the engine played all of %q", cells)
	return ""
}

// TestExternalTiming plays a game against the external engine the way
// GomocupJudge and Piskvork do, one command at a time, and checks each
// answer's time against the limits the engine was given: a normal move,
// a move on a short time_left, timeout_turn 0, YXSTOP while thinking,
// bad commands in between, and END.
func TestExternalTiming(t *testing.T) {
	e := startEngine(t)
	e.send("START 15")
	e.want(20*time.Second, "OK") // Wine's first start can be slow
	e.send("INFO timeout_turn 1000", "INFO timeout_match 180000", "INFO max_memory 367001600",
		"INFO rule 0", "INFO game_type 1", "INFO time_left 180000",
		"BOARD", "7,7,2", "DONE")
	// A move must come well inside timeout_turn (the engine keeps a margin).
	if took := e.want(2*time.Second, move); took >= time.Second {
		t.Errorf("first move took %v, timeout_turn 1000 ms", took)
	}
	e.send("INFO time_left 2000", "TURN "+e.free("9,9", "5,9"))
	if took := e.want(2*time.Second, move); took >= 500*time.Millisecond {
		t.Errorf("move with 2 s left in the game took %v (should use a small share)", took)
	}
	// Bad input gets one line each, and the engine keeps serving.
	e.send("TURN 7,7")
	e.want(time.Second, "~ERROR .*")
	e.send("TURN 99,99")
	e.want(time.Second, "~ERROR .*")
	e.send("FOOBAR 1")
	e.want(time.Second, "~UNKNOWN .*")
	e.send("INFO timeout_turn -5", "INFO nonsense 1", "ABOUT")
	e.want(time.Second, `~name="Wuzi", .*`)
	e.send("INFO timeout_turn 0", "TURN "+e.free("3,3", "3,11"))
	if took := e.want(time.Second, move); took >= 300*time.Millisecond {
		t.Errorf("timeout_turn 0 took %v", took)
	}
	// YXSTOP while thinking on a long turn: the move comes at once.
	e.send("INFO timeout_turn 30000", "INFO time_left 180000", "TURN "+e.free("12,3", "12,12"))
	time.Sleep(300 * time.Millisecond)
	e.send("YXSTOP")
	if took := e.want(3*time.Second, move); took >= time.Second {
		t.Errorf("YXSTOP answered after %v", took)
	}
	e.send("INFO timeout_turn 500", "RESTART")
	e.want(time.Second, "OK")
	e.send("BEGIN")
	e.want(2*time.Second, move)
	e.send("END")
	select {
	case err := <-e.done:
		if err != nil {
			t.Errorf("exit after END: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Errorf("still running 2 s after END")
	}
}

// TestExternalVersion runs the external engine's --version.
func TestExternalVersion(t *testing.T) {
	command := externalCommand()
	if command == nil {
		t.Skip("WUZI_ENGINE_CMD is not set: no external engine to test")
	}
	out, err := exec.Command(command[0], append(command[1:], "--version")...).Output()
	if err != nil || !strings.HasPrefix(string(out), "pbrain-wuzi ") {
		t.Errorf("--version: %v, %q", err, out)
	}
}
