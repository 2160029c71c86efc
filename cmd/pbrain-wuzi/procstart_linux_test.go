package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestStartFromProc(t *testing.T) {
	now := time.Now()
	// A command name with spaces and parentheses, as a process may have.
	stat := "4321 (a (b) c) S 1 4321 4321 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 1 0 3143655 7000000 500 18446744073709551615"
	got, ok := startFromProc(now, stat, "31437.48 60000.10\n")
	if !ok {
		t.Fatal("a well-formed stat was refused")
	}
	if age := now.Sub(got); age < 929*time.Millisecond || age > 931*time.Millisecond {
		t.Errorf("age %v, want 930ms (31437.48 s since boot, started at tick 3143655)", age)
	}
	for _, bad := range []struct{ stat, up string }{
		{"4321 no parenthesis S 1", "5.00"},
		{"4321 (x) S 1 2 3", "5.00"},
		{stat, ""},
		{stat, "abc"},
		{strings.Replace(stat, "3143655", "-7", 1), "5.00"},
	} {
		if _, ok := startFromProc(now, bad.stat, bad.up); ok {
			t.Errorf("startFromProc(%q, %q) accepted", bad.stat, bad.up)
		}
	}
	// A start time after now (clock ticks rounding) is an age of zero.
	if got, ok := startFromProc(now, stat, "31436.00"); !ok || !got.Equal(now) {
		t.Errorf("a start after the uptime gave %v, %v; want now", got, ok)
	}
}

// TestProcessStartSeesTheExec: the start time is the process's, not the
// program's: a process that waits 300 ms and then becomes this program
// (exec keeps the process) reports an age of at least that wait.
func TestProcessStartSeesTheExec(t *testing.T) {
	if os.Getenv("WUZI_PROCSTART_CHILD") == "1" {
		started, ok := processStart()
		fmt.Printf("age %d %v\n", time.Since(started).Milliseconds(), ok)
		return
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("sh", "-c", `sleep 0.3; exec "$0" -test.run '^TestProcessStartSeesTheExec$'`, self)
	cmd.Env = append(os.Environ(), "WUZI_PROCSTART_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v (%s)", err, out)
	}
	var ms int64
	var ok bool
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "age" {
			ms, _ = strconv.ParseInt(f[1], 10, 64)
			ok = f[2] == "true"
		}
	}
	if !ok {
		t.Fatalf("the child read no start time: %q", out)
	}
	// The /proc figures are to 10 ms each; the wait is 300 ms, and the
	// child's age is under a minute on any machine that runs the test.
	if ms < 280 || ms > 60000 {
		t.Errorf("the child, 300 ms after its process began, reported an age of %d ms", ms)
	}
}
