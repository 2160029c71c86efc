package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/search"
	"wuzi/selfplay"
)

// TestLabelSkipsUnscoredPositions: a position the engine answers without
// an evaluation is left out, and the run still succeeds with the others
// written. It used to exit 1 whenever any position went unlabelled. The
// engine here is a shell script that prints an evaluation only for
// positions with an odd number of stones.
func TestLabelSkipsUnscoredPositions(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake-engine")
	script := `#!/bin/sh
n=0
while read -r l; do
  case "$l" in
    START*) echo OK ;;
    BOARD*) n=0 ;;
    DONE*) [ $((n % 2)) = 1 ] && echo "MESSAGE depth 3 ev 12"; echo 14,14 ;;
    END*) exit 0 ;;
    [0-9]*) n=$((n + 1)) ;;
  esac
done
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	got, stderr := labelWith(t, bin, "freestyle 15 0 1 w 0 0 h9 0 h8\n"+"freestyle 15 1 2 b 0 0 g8 1 h8a1\n")
	if n := strings.Count(got, "\n"); n != 1 || !strings.HasPrefix(got, "freestyle 15 0 1 w 12 3 o15 ") {
		t.Errorf("labelled positions:\n%s", got)
	}
	if !strings.Contains(stderr, "labelled 1 of 2 positions") {
		t.Errorf("report: %s", stderr)
	}
}

// TestLabelReadsWuziMates: Wuzi, asked about a position where Black has an
// open four, prints "win in 1" rather than an evaluation; the label is a
// proven win, not a skipped position.
func TestLabelReadsWuziMates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	bin := filepath.Join(t.TempDir(), "pbrain-wuzi")
	if out, err := exec.Command("go", "build", "-o", bin, "../pbrain-wuzi").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	got, stderr := labelWith(t, bin, "freestyle 15 1 8 b 0 0 g8 1 h8a1i8a3j8a5k8a7\n")
	pos, err := selfplay.ParseLine(strings.TrimSpace(got))
	if err != nil {
		t.Fatalf("%v (labelled %q; %s)", err, got, stderr)
	}
	if pos.Score != search.Win-1 || !search.IsMate(pos.Score) {
		t.Errorf("open four labelled %d, want a win in 1 (%d)", pos.Score, search.Win-1)
	}
	if pos.Best != (selfplay.Move{X: 6, Y: 7}) && pos.Best != (selfplay.Move{X: 11, Y: 7}) {
		t.Errorf("best move %v, want a five", pos.Best)
	}
}

// labelWith runs wuzi-train label with engine bin on the positions text
// and returns the labelled text and the report.
func labelWith(t *testing.T, bin, positions string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "pos.txt")
	if err := os.WriteFile(in, []byte(positions), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "judged.txt")
	var stdout, stderr bytes.Buffer
	if code := runLabel([]string{"--engine", "cmd=" + bin, "--turn", "200ms", "-o", out, in}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(got), stderr.String()
}
