package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wuzi/selfplay"
)

// TestSelfplayCommand: shards written by the command and merged by it
// give the file of the whole run, which is the same with two jobs.
func TestSelfplayCommand(t *testing.T) {
	dir := t.TempDir()
	common := []string{"selfplay", "-n", "6", "--nodes", "300", "--hash", "1", "--seed", "3", "--rules", "freestyle,renju", "--sizes", "15"}
	sp := func(extra ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if rc := run(append(append([]string{}, common...), extra...), nil, &out, &errb); rc != 0 {
			t.Fatalf("%v: rc %d\n%s", extra, rc, errb.String())
		}
		return out.String()
	}
	whole := sp("-q")
	if whole == "" || sp("-q", "--jobs", "2") != whole {
		t.Error("two jobs wrote other positions than one")
	}
	var files []string
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.txt", i))
		sp("-q", "--shard", fmt.Sprintf("%d/2", i), "-o", f)
		files = append(files, f)
	}
	merged := filepath.Join(dir, "merged.txt")
	var out, errb bytes.Buffer
	if rc := run(append([]string{"selfplay", "merge", "-o", merged}, files...), nil, &out, &errb); rc != 0 {
		t.Fatalf("merge: rc %d\n%s", rc, errb.String())
	}
	if b, _ := os.ReadFile(merged); string(b) != whole {
		t.Errorf("merged shards\n%s\nwant\n%s", b, whole)
	}
	if !strings.Contains(errb.String(), "positions") {
		t.Errorf("merge said %q", errb.String())
	}
	// Without -q the summary goes to stderr; stderr is no terminal here,
	// so there is no progress line.
	out.Reset()
	errb.Reset()
	if rc := run(append(append([]string{}, common...), "-n", "1"), nil, &out, &errb); rc != 0 || strings.Contains(errb.String(), "\r") ||
		!strings.Contains(errb.String(), "positions (") {
		t.Errorf("rc %d, stderr %q", rc, errb.String())
	}
}

// TestSelfplayBadFlags: bad flags exit 2 with a message.
func TestSelfplayBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"selfplay", "--rules", "gomoku"},
		{"selfplay", "--sizes", "15,x"},
		{"selfplay", "--sizes", "9"},
		{"selfplay", "--shard", "2/2"},
		{"selfplay", "--shard", "x"},
		{"selfplay", "--jobs", "0"},
		{"selfplay", "--movetime", "10ms"},
		{"selfplay", "--nodes", "0"},
		{"selfplay", "--rules", ","},
		{"selfplay", "extra"},
		{"selfplay", "--bogus"},
		{"selfplay", "merge"},
		{"selfplay", "merge", "--bogus", "f"},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "pbrain-wuzi selfplay") {
			t.Errorf("%q: rc %d, stderr %q", args, rc, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"selfplay", "merge", filepath.Join(t.TempDir(), "missing")}, nil, &out, &errb); rc != 1 {
		t.Errorf("merge of a missing file: rc %d", rc)
	}
	if rc := run([]string{"selfplay", "--help"}, nil, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "--nodes") {
		t.Errorf("--help: rc %d\n%s", rc, errb.String())
	}
}

// TestFormatProgress: the status line has the counts, the speed and the
// time left.
func TestFormatProgress(t *testing.T) {
	got := formatProgress(selfplay.Progress{Games: 10, GamesTotal: 40, Stats: selfplay.Stats{Positions: 500}, Elapsed: 5 * time.Second})
	if want := "games 10/40  positions 500  100 positions/s  ETA 15s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
