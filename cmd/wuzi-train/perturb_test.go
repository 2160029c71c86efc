package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wuzi/eval"
	"wuzi/selfplay"
)

// perturbOut runs wuzi-train perturb with args over the positions of
// positionsText and returns the positions it wrote.
func perturbOut(t *testing.T, args ...string) []selfplay.Position {
	t.Helper()
	return subcommandOut(t, "perturb", args...)
}

// subcommandOut runs wuzi-train's subcommand name with args over the
// positions of positionsText and returns the positions it wrote.
func subcommandOut(t *testing.T, name string, args ...string) []selfplay.Position {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pos.txt")
	if err := os.WriteFile(path, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(append(append([]string{name}, args...), path), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return parsePositions(t, out.String())
}

// TestPerturbAddsLegalMoves: each written position is an input position
// (every stone of it, in order) with one to --plies legal moves more,
// neither side has a five to make, its best move is an empty cell, its
// score and result are 0, and the same seed writes the same positions.
func TestPerturbAddsLegalMoves(t *testing.T) {
	inputs := inputPositions(t)
	ps := perturbOut(t, "--every", "1", "--plies", "3", "--seed", "7")
	if len(ps) < len(inputs)/2 {
		t.Fatalf("%d positions from %d inputs", len(ps), len(inputs))
	}
	added := map[int]bool{}
	for _, p := range ps {
		var from *selfplay.Position
		for i := range inputs {
			in := &inputs[i]
			if in.Game == p.Game && len(p.Moves) > len(in.Moves) && len(p.Moves) <= len(in.Moves)+3 &&
				slices.Equal(p.Moves[:len(in.Moves)], in.Moves) {
				from = in
			}
		}
		if from == nil {
			t.Errorf("%v: no input position is its start", p)
			continue
		}
		added[len(p.Moves)-len(from.Moves)] = true
		checkUnlabelled(t, p)
	}
	if len(added) < 2 {
		t.Errorf("moves added: %v, want more than one count among 1..3", added)
	}
	again := perturbOut(t, "--every", "1", "--plies", "3", "--seed", "7")
	other := perturbOut(t, "--every", "1", "--plies", "3", "--seed", "8")
	same := func(a, b []selfplay.Position) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i].String() != b[i].String() {
				return false
			}
		}
		return true
	}
	if !same(ps, again) {
		t.Error("the same seed wrote other positions")
	}
	if same(ps, other) {
		t.Error("another seed wrote the same positions")
	}
	if n := len(perturbOut(t, "--every", "3", "--seed", "7")); n > 3 {
		t.Errorf("--every 3 over 9 positions wrote %d", n)
	}
}

// TestPerturbRejectsBadUse: no input or a flag out of range exits 2.
func TestPerturbRejectsBadUse(t *testing.T) {
	for _, args := range [][]string{{"perturb"}, {"perturb", "--plies", "0", "x"}, {"perturb", "--top", "0", "x"}, {"perturb", "--every", "0", "x"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestScoresOnlyFile: --scores-only must name an input file, and a file
// fitted to its scores alone gives other tables than the same file fitted
// to the blend of scores and results.
func TestScoresOnlyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pos.txt")
	if err := os.WriteFile(path, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	// The results alone fit K; a second copy of the file, scores only,
	// changes the targets and so the tables.
	copyPath := filepath.Join(t.TempDir(), "copy.txt")
	// Flip every result: a scores-only file's results must not matter.
	var flipped []string
	for _, line := range strings.Split(strings.TrimSpace(positionsText), "\n") {
		f := strings.Fields(line)
		switch f[8] {
		case "1":
			f[8] = "-1"
		case "-1":
			f[8] = "1"
		}
		flipped = append(flipped, strings.Join(f, " "))
	}
	if err := os.WriteFile(copyPath, []byte(strings.Join(flipped, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fitWith := func(args ...string) []byte {
		t.Helper()
		dir := t.TempDir()
		var out, errb bytes.Buffer
		base := []string{"--families", "freestyle", "--epochs", "20", "--policy-epochs", "0", "--holdout", "0", "--lambda", "0.5", "-o", dir}
		if code := run(append(base, args...), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		b, err := os.ReadFile(filepath.Join(dir, "freestyle.bin"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The flipped copy as scores only fits as the unflipped copy does,
	// its results unread.
	a := fitWith("--scores-only", copyPath, path, copyPath)
	twin := filepath.Join(t.TempDir(), "twin.txt")
	if err := os.WriteFile(twin, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	b := fitWith("--scores-only", twin, path, twin)
	if !bytes.Equal(a, b) {
		t.Error("a scores-only file's results changed the fit")
	}
	if c := fitWith(path, twin); bytes.Equal(b, c) {
		t.Error("--scores-only changed nothing: the file's results were still fitted")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--families", "freestyle", "--scores-only", "nothere.txt", "-o", t.TempDir(), path}, &out, &errb); code != 2 {
		t.Errorf("--scores-only of a file not given: exit %d, want 2", code)
	}
	// Scores only and nothing else: the scales must be given.
	if code := run([]string{"--families", "freestyle", "--epochs", "1", "--policy-epochs", "0", "--scores-only", path, "-o", t.TempDir(), path}, &out, &errb); code != 2 {
		t.Errorf("only scores-only positions and no --k: exit %d, want 2", code)
	}
	if code := run([]string{"--families", "freestyle", "--epochs", "1", "--policy-epochs", "0", "--k", "600", "--score-scale", "500", "--scores-only", path, "-o", t.TempDir(), path}, &out, &errb); code != 0 {
		t.Errorf("only scores-only positions with --k and --score-scale: exit %d, want 0 (%s)", code, errb.String())
	}
}

// checkUnlabelled checks a position written for labelling: it replays,
// neither side has a five on the board, its best move is an empty cell,
// and its score, depth and result are 0.
func checkUnlabelled(t *testing.T, p selfplay.Position) {
	t.Helper()
	b, err := p.Replay()
	if err != nil {
		t.Errorf("%v: %v", p, err)
		return
	}
	for _, c := range []eval.Color{eval.Black, eval.White} {
		if b.ComboCount(c, eval.ComboFive) > 0 {
			t.Errorf("%v: a five for %v on the board", p, c)
		}
	}
	if !b.IsEmpty(b.Pos(p.Best.X, p.Best.Y)) {
		t.Errorf("%v: best move %v is not empty", p, p.Best)
	}
	if p.Score != 0 || p.Result != 0 || p.Depth != 0 {
		t.Errorf("%v: score, depth or result set", p)
	}
}

// inputPositions returns the positions of positionsText.
func inputPositions(t *testing.T) []selfplay.Position {
	t.Helper()
	var ps []selfplay.Position
	for _, line := range strings.Split(strings.TrimSpace(positionsText), "\n") {
		p, err := selfplay.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}
