package main

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFlags(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "wuzi-board engine"},
		{[]string{"--bogus"}, 2, "unknown flag"},
		{[]string{"-e", "cmd="}, 2, "empty command"},
		{[]string{"--no-wuzi"}, 2, "no engine"},
		{[]string{"extra"}, 2, "unexpected argument"},
		{[]string{"--addr", "256.0.0.1:1"}, 1, "wuzi-board:"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String()+errb.String(), c.want) {
			t.Errorf("%v: exit %d, output %q; want %d with %q", c.args, code, out.String()+errb.String(), c.code, c.want)
		}
	}
}

// TestEngineMode builds the board and runs it as the built-in engine, as
// the board itself does.
func TestEngineMode(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "wuzi-board")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "engine")
	in, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	io.WriteString(in, "START 15\r\nINFO timeout_turn 200\r\nBEGIN\r\n")
	sc := bufio.NewScanner(stdout)
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sc.Scan() {
			l := sc.Text()
			if strings.HasPrefix(l, "MESSAGE") || strings.HasPrefix(l, "DEBUG") {
				continue
			}
			got = append(got, l)
			if len(got) == 2 {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer from the engine mode")
	}
	if len(got) != 2 || got[0] != "OK" || !strings.Contains(got[1], ",") {
		t.Fatalf("answers %q; want OK and a move", got)
	}
	io.WriteString(in, "END\r\n")
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after END: %v", err)
	}
}
