package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelSkipsUnscoredPositions: a position the engine answers without
// an evaluation (here Black has an open four: Wuzi plays the five at once
// and prints none) is left out, and the run still succeeds with the others
// written. It used to exit 1 whenever any position went unlabelled.
func TestLabelSkipsUnscoredPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "pbrain-wuzi")
	if out, err := exec.Command("go", "build", "-o", bin, "../pbrain-wuzi").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	in := filepath.Join(dir, "pos.txt")
	lines := "freestyle 15 0 1 w 0 0 h9 0 h8\n" +
		"freestyle 15 1 8 b 0 0 g8 1 h8a1i8a3j8a5k8a7\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "judged.txt")
	var stdout, stderr bytes.Buffer
	code := runLabel([]string{"--engine", "cmd=" + bin, "--turn", "200ms", "-o", out, in}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), "\n"); n != 1 || !strings.HasPrefix(string(got), "freestyle 15 0 1 w ") {
		t.Errorf("labelled positions:\n%s", got)
	}
	if !strings.Contains(stderr.String(), "labelled 1 of 2 positions") {
		t.Errorf("report: %s", stderr.String())
	}
}
