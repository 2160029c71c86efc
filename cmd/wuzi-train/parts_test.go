package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"wuzi/eval"
)

// fitWith fits the freestyle tables from the embedded ones over
// positionsText with extra flags and returns the weights written.
func fitWith(t *testing.T, extra ...string) *eval.Weights {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "pos.txt")
	if err := os.WriteFile(path, []byte(positionsText), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--families", "freestyle", "--start", "embedded", "--one-phase", "--epochs", "20", "--rate", "5",
		"--policy-epochs", "0", "--holdout", "0", "-o", dir}, extra...)
	var out, errb bytes.Buffer
	if code := run(append(args, path), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", extra, code, errb.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "freestyle.bin"))
	if err != nil {
		t.Fatal(err)
	}
	w := &eval.Weights{}
	if err := w.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestFitParts: --fit-only moves only the part it names, --symmetric
// writes defence tables equal to the attack tables, --untie-threat is
// accepted, and an unknown part or a clash with --freeze-opening is
// refused.
func TestFitParts(t *testing.T) {
	emb, err := eval.EmbeddedWeights(eval.FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	w := fitWith(t, "--fit-only", "threat")
	if w.Attack != emb.Attack || w.Defend != emb.Defend {
		t.Error("--fit-only threat moved a cell table")
	}
	if w.Threat == emb.Threat {
		t.Error("--fit-only threat left the threat table as it was")
	}
	w = fitWith(t, "--fit-only", "class1")
	if w.Threat != emb.Threat {
		t.Error("--fit-only class1 moved the threat table")
	}
	moved := false
	for c := 0; c < eval.NumCodes; c++ {
		same := w.Attack[0][c] == emb.Attack[0][c] && w.Defend[0][c] == emb.Defend[0][c]
		if !same && eval.ShapeClass(c) != 1 {
			t.Fatalf("--fit-only class1 moved code %d of class %d", c, eval.ShapeClass(c))
		}
		moved = moved || !same
	}
	if !moved {
		t.Error("--fit-only class1 moved no entry")
	}
	w = fitWith(t, "--symmetric", "--untie-threat")
	if w.Attack != w.Defend || w.AttackLate != w.DefendLate {
		t.Error("--symmetric wrote defence tables unlike the attack tables")
	}
	if w.Attack == emb.Attack {
		t.Error("--symmetric left the attack tables as they were")
	}
	for _, bad := range [][]string{{"--fit-only", "class9"}, {"--fit-only", "cells", "--freeze-opening"}} {
		var out, errb bytes.Buffer
		if code := run(append(bad, "x.txt"), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", bad, code, errb.String())
		}
	}
}
