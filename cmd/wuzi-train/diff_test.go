package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/eval"
)

// wuzi-train diff measures a weights file's evaluation against the
// embedded one on positions: the embedded file itself changes nothing,
// doubled attack tables change the evaluation, and a damaged file or
// missing arguments are refused.
func TestDiff(t *testing.T) {
	dir := t.TempDir()
	positions := filepath.Join(dir, "p.txt")
	lines := "freestyle 15 0 3 w -110 1 j5 -1 j6i6j9\n" +
		"freestyle 15 0 4 b 40 1 h8 1 j6i6j9k8\n" +
		"freestyle 15 1 6 b 0 1 h9 0 h8i9g7i7j8h7\n" +
		"renju 15 2 3 w 10 1 h9 0 h8i9g7\n"
	if err := os.WriteFile(positions, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := eval.EmbeddedWeights(eval.FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, w *eval.Weights) string {
		data, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var out, errb bytes.Buffer
	if code := run([]string{"diff", write("same.bin", w), positions}, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	for _, want := range []string{"moved 0.00 units", "Black to move: 2 positions", "change +0 ± 0, correlation 1.000", "White to move: 1 positions"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the embedded file against itself: %q lacks %q", out.String(), want)
		}
	}
	out.Reset()
	sc := eval.NoScales()
	sc.Attack = 200
	doubled := w.Scaled(sc)
	if code := run([]string{"diff", write("doubled.bin", doubled), positions}, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "moved 0.00 units") || strings.Contains(out.String(), "change +0 ± 0,") {
		t.Errorf("doubled attack tables reported unchanged: %q", out.String())
	}
	bad := filepath.Join(dir, "bad.bin")
	if err := os.WriteFile(bad, []byte("not weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"diff", bad, positions}, &out, &errb); code != 1 {
		t.Errorf("a damaged weights file: status %d, want 1", code)
	}
	if code := run([]string{"diff", bad}, &out, &errb); code != 2 {
		t.Errorf("no positions: status %d, want 2", code)
	}
}
