package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"wuzi/eval"
)

// wuzi-train scale writes the embedded weights scaled as Weights.Scaled
// scales them (renju's with Black's fouls cleared again), in a file the
// engine reads back; bad input is refused with status 2 and nothing
// written.
func TestScale(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"scale", "-o", dir, "--families", "freestyle,renju", "--attack", "106", "--defend", "91", "--threat", "156", "--policy-defend", "110", "--attack-late", "120", "--defend-late", "95", "--policy-attack", "80", "--attack3o", "130", "--defend1", "95"}, &out, &errb); code != 0 {
		t.Fatalf("status %d: %s", code, errb.String())
	}
	for _, f := range []eval.Family{eval.FamilyFreestyle, eval.FamilyRenju} {
		data, err := os.ReadFile(filepath.Join(dir, f.String()+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		var got eval.Weights
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		w, err := eval.EmbeddedWeights(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := eval.NoScales()
		sc.Attack, sc.Defend, sc.AttackLate, sc.DefendLate, sc.Threat, sc.PolicyAttack, sc.PolicyDefend = 106, 91, 120, 95, 156, 80, 110
		sc.AttackClass[3], sc.DefendClass[0] = 130, 95
		want := w.Scaled(sc)
		want.ClearRenjuFouls()
		if got != *want {
			t.Errorf("%s: the file's weights are not the embedded ones scaled (renju's fouls cleared)", f)
		}
		if got == *w {
			t.Errorf("%s: the file holds the embedded weights unscaled", f)
		}
	}
	for _, bad := range [][]string{{"scale", "-o", dir, "--threat", "401"}, {"scale", "-o", dir, "--policy-attack", "-1"}, {"scale", "-o", dir, "--defend3", "401"}, {"scale", "-o", dir, "--families", "gomoku"}, {"scale", "-o", dir, "extra"}} {
		empty := t.TempDir()
		bad[2] = empty
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: status %d, want 2", bad, code)
		}
		if ents, _ := os.ReadDir(empty); len(ents) != 0 {
			t.Errorf("%v: wrote %d files", bad, len(ents))
		}
	}
}
