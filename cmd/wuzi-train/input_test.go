package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/eval"
)

// positionsText is two short self-play games in the selfplay format.
const positionsText = `freestyle 15 0 3 w -38 2 i6 -1 h6h5i3
freestyle 15 0 4 b 132 2 g5 1 h6h5i3i6
freestyle 15 0 5 w -79 1 i7 -1 h6h5i3i6g5
freestyle 15 0 6 b 576 4 g4 1 h6h5i3i6g5k8
freestyle 15 0 7 w -576 3 g6 -1 h6h5i3i6g5k8g4
freestyle 15 0 8 b 468 3 h4 1 h6h5i3i6g5k8g4g6
freestyle 15 1 3 w -231 2 h9 1 g8g9f7
freestyle 15 1 4 b 358 2 f9 -1 g8g9f7h9
freestyle 15 1 5 w -358 1 h7 1 g8g9f7h9f9
`

// fit runs a one-epoch fit of the freestyle tables over path and returns
// the weights file it wrote.
func fit(t *testing.T, path string) []byte {
	t.Helper()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"--families", "freestyle", "--epochs", "1", "--policy-epochs", "1", "--holdout", "0", "-o", dir, path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "9 positions") {
		t.Errorf("not all nine positions were read: %s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "freestyle.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitReadsGzippedPositions: a positions file compressed with gzip
// (how data/ keeps the training sets) fits to the same tables as the
// plain file, and a damaged one is refused.
func TestFitReadsGzippedPositions(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "pos.txt")
	if err := os.WriteFile(plain, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(positionsText))
	w.Close()
	packed := filepath.Join(dir, "pos.txt.gz")
	if err := os.WriteFile(packed, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fit(t, plain), fit(t, packed)) {
		t.Error("the gzipped file fitted to other tables than the plain one")
	}

	cut := filepath.Join(dir, "cut.txt.gz")
	if err := os.WriteFile(cut, z.Bytes()[:z.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--families", "freestyle", "--epochs", "1", "-o", t.TempDir(), cut}, &out, &errb); code != 1 {
		t.Errorf("a truncated gzip file: exit %d, want 1 (%s)", code, errb.String())
	}
}

// TestOrderWritesWeights: `wuzi-train order` reads the positions, fits
// the move order, writes a weights file the engine accepts whose
// evaluation tables are the embedded ones, and refuses bad flags.
func TestOrderWritesWeights(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(path, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"order", "--epochs", "2", "--batch", "2", "-o", dir, path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "9 positions") {
		t.Errorf("not all nine positions were read: %s", out.String())
	}
	w := readWrittenWeights(t, filepath.Join(dir, "freestyle.bin"))
	emb, err := eval.EmbeddedWeights(eval.FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	if w.Attack != emb.Attack || w.Threat != emb.Threat {
		t.Error("the evaluation's tables changed: order must fit the move order alone")
	}
	if w.PolicyAttack == emb.PolicyAttack {
		t.Error("the move order did not change")
	}
	for _, bad := range [][]string{{"order", path, "--epochs", "0"}, {"order", path, "--hi", "-700"}, {"order"}, {"order", "--families", "gomoku", path}} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// markedSource writes the embedded freestyle weights with one evaluation
// entry and one move-order entry changed, so that a copy of it differs
// from every embedded file in both parts, and returns its path.
func markedSource(t *testing.T, dir string) (string, *eval.Weights) {
	t.Helper()
	fw, err := eval.EmbeddedWeights(eval.FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	fw.Attack[0][7] += 3
	fw.PolicyAttack[1][9] += 5
	src, _, err := writeWeights(dir, fw)
	if err != nil {
		t.Fatal(err)
	}
	return src, fw
}

// mkdirOut makes the folder dir/out a test's weights files are written to.
func mkdirOut(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOrderCopyFrom: `wuzi-train order --copy-from` writes the family's
// embedded weights with the other file's move order and nothing else
// changed, reads no positions, and refuses positions given beside it.
func TestOrderCopyFrom(t *testing.T) {
	dir := t.TempDir()
	src, fw := markedSource(t, dir)
	outDir := mkdirOut(t, dir)
	var out, errb bytes.Buffer
	if code := run([]string{"order", "--copy-from", src, "--families", "standard", "-o", outDir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	w := readWrittenWeights(t, filepath.Join(outDir, "standard.bin"))
	std, err := eval.EmbeddedWeights(eval.FamilyStandard)
	if err != nil {
		t.Fatal(err)
	}
	if w.Family != eval.FamilyStandard || w.Attack != std.Attack || w.Defend != std.Defend || w.Threat != std.Threat {
		t.Error("the standard evaluation changed: --copy-from must copy the move order alone")
	}
	if w.PolicyAttack != fw.PolicyAttack || w.PolicyDefend != fw.PolicyDefend {
		t.Error("the move order is not the source file's")
	}
	path := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(path, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"order", "--copy-from", src, path}, &out, &errb); code != 2 {
		t.Errorf("positions beside --copy-from: exit %d, want 2", code)
	}
}

// TestCopy: `wuzi-train copy` writes each named family's file as the
// source's tables entire (renju's with Black's fouls cleared), under the
// family's own name and tag, and
// refuses a call without families or with other than one source.
func TestCopy(t *testing.T) {
	dir := t.TempDir()
	src, fw := markedSource(t, dir)
	outDir := mkdirOut(t, dir)
	var out, errb bytes.Buffer
	if code := run([]string{"copy", "--families", "standard,renju", "-o", outDir, src}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, f := range []eval.Family{eval.FamilyStandard, eval.FamilyRenju} {
		w := readWrittenWeights(t, filepath.Join(outDir, f.String()+".bin"))
		if w.Family != f {
			t.Errorf("%v: the file says %v", f, w.Family)
		}
		want := *fw
		want.Family = f
		want.ClearRenjuFouls()
		if w != want {
			t.Errorf("%v: the tables are not the source's", f)
		}
	}
	if _, err := os.Stat(filepath.Join(outDir, "freestyle.bin")); err == nil {
		t.Error("a family not named was written")
	}
	for _, bad := range [][]string{{"copy", src}, {"copy", "--families", "standard"}, {"copy", "--families", "standard", src, src}, {"copy", "--families", "gomoku", src}} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code := run([]string{"copy", "--families", "standard", "-o", outDir, filepath.Join(dir, "missing.bin")}, &out, &errb); code != 1 {
		t.Errorf("a missing source: exit %d, want 1", code)
	}
}

// readWrittenWeights reads a weights file the trainer wrote, failing the
// test when it is missing or the engine would refuse it.
func readWrittenWeights(t *testing.T, path string) eval.Weights {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var w eval.Weights
	if err := w.UnmarshalBinary(data); err != nil {
		t.Fatalf("the written weights are refused: %v", err)
	}
	return w
}
