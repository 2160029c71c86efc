package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/match/results"
)

// writeMatch writes a results file of engine 0 against "Opp", 200 ms a
// move under the rule (-1: freestyle at 1 s a move): for each opening, the
// results of the game with engine 0 as Black and then as White ("1-0",
// "0-1" or "1/2-1/2").
func writeMatch(t *testing.T, path string, rule int, oppOptions [][]string, games map[string][2]string) {
	t.Helper()
	turn := int64(200)
	if rule < 0 {
		rule, turn = 0, 1000 // a freestyle match at 1 s a move
	}
	h := results.Header{Kind: "match", Format: results.Format, Width: 15, Height: 15, Rule: rule, TurnMS: turn,
		Engines: []results.Engine{{Name: "Wuzi", Command: path}, {Name: "Opp", Command: "opp", Options: oppOptions}},
		Names:   []string{"Wuzi", "Opp"}, Games: 2 * len(games), Total: 2 * len(games), Random: true, Seed: 1}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(h); err != nil {
		t.Fatal(err)
	}
	n := 0
	for opening, res := range games {
		for swapped := 0; swapped < 2; swapped++ {
			n++
			g := results.Game{Kind: "game", Number: n, Opponent: 1, Swapped: swapped == 1,
				BlackEngine: swapped, WhiteEngine: 1 - swapped, Opening: opening, Result: res[swapped]}
			if err := enc.Encode(g); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The numbers of elo.TestComparePaired, from results files: per opening
// the new build scores 1, ½, 1, 0 and the baseline ½, ½, ½, 0.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	newF, baseF, base2F := filepath.Join(dir, "new.jsonl"), filepath.Join(dir, "base.jsonl"), filepath.Join(dir, "base2.jsonl")
	writeMatch(t, newF, 0, nil, map[string][2]string{
		"0,0, 1,0, 0,1": {"1-0", "0-1"}, // wins both
		"0,0, 1,1, 2,2": {"1-0", "1-0"}, // wins as Black only
		"0,0, 0,1, 0,3": {"1-0", "0-1"}, // wins both
		"0,0, 1,2, 2,1": {"0-1", "1-0"}, // loses both
		"0,0, 3,3, 1,0": {"1-0"},        // one colour only: not counted
	})
	writeMatch(t, baseF, 0, nil, map[string][2]string{
		"0,0, 1,0, 0,1": {"1-0", "1-0"},
		"0,0, 1,1, 2,2": {"1/2-1/2", "1/2-1/2"}, // two draws
		"0,0, 0,1, 0,3": {"0-1", "0-1"},
		"0,0, 1,2, 2,1": {"0-1", "1-0"},
	})
	var out, errb bytes.Buffer
	if rc := run([]string{"compare", newF, baseF}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	// By colour: as Black 1, 1, 1, 0 against 1, ½, 0, 0; as White 1, 0,
	// 1, 0 against 0, ½, 1, 0.
	for _, want := range []string{"4 openings", "score 0.625", "score 0.375", "+0.250 ± 0.283", "± 0.529",
		"as Black: new 0.750, baseline 0.375, difference +0.375", "as White: new 0.500, baseline 0.375, difference +0.125"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	// Two baselines are averaged opening by opening: with a second run
	// that lost everything the baseline scores ¾ of the first.
	writeMatch(t, base2F, 0, nil, map[string][2]string{
		"0,0, 1,0, 0,1": {"0-1", "1-0"},
		"0,0, 1,1, 2,2": {"0-1", "1-0"},
		"0,0, 0,1, 0,3": {"0-1", "1-0"},
		"0,0, 1,2, 2,1": {"0-1", "1-0"},
	})
	out.Reset()
	if rc := run([]string{"compare", newF, baseF, base2F}, &out, &errb); rc != 0 || !strings.Contains(out.String(), "score 0.188") {
		t.Errorf("rc %d, want a baseline of 0.1875:\n%s%s", rc, out.String(), errb.String())
	}
}

// Runs on several seeds pool: each side's files joined by commas give the
// same comparison as one file a side holding all their openings, and a
// pooled file of another rule is refused.
func TestComparePools(t *testing.T) {
	dir := t.TempDir()
	f := func(name string) string { return filepath.Join(dir, name) }
	writeMatch(t, f("new1"), 0, nil, map[string][2]string{
		"0,0, 1,0, 0,1": {"1-0", "0-1"},
		"0,0, 1,1, 2,2": {"1-0", "1-0"},
	})
	writeMatch(t, f("new2"), 0, nil, map[string][2]string{
		"0,0, 0,1, 0,3": {"1-0", "0-1"},
		"0,0, 1,2, 2,1": {"0-1", "1-0"},
	})
	writeMatch(t, f("base1"), 0, nil, map[string][2]string{
		"0,0, 1,0, 0,1": {"1-0", "1-0"},
		"0,0, 1,1, 2,2": {"1/2-1/2", "1/2-1/2"},
	})
	writeMatch(t, f("base2"), 0, nil, map[string][2]string{
		"0,0, 0,1, 0,3": {"0-1", "0-1"},
		"0,0, 1,2, 2,1": {"0-1", "1-0"},
	})
	var out, errb bytes.Buffer
	if rc := run([]string{"compare", f("new1") + "," + f("new2"), f("base2") + "," + f("base1")}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	for _, want := range []string{"4 openings", "score 0.625", "score 0.375", "+0.250 ± 0.283",
		"as Black: new 0.750, baseline 0.375, difference +0.375"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	writeMatch(t, f("renju"), 4, nil, map[string][2]string{"0,0, 0,1, 0,3": {"0-1", "0-1"}})
	out.Reset()
	errb.Reset()
	if rc := run([]string{"compare", f("new1") + "," + f("new2"), f("base1") + "," + f("renju")}, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "rules") {
		t.Errorf("a pooled file of another rule: rc %d, message %q", rc, errb.String())
	}
}

func TestCompareRefuses(t *testing.T) {
	dir := t.TempDir()
	g := map[string][2]string{"0,0, 1,0, 0,1": {"1-0", "0-1"}, "0,0, 1,1, 2,2": {"1-0", "1-0"}}
	a, renju, nodes, other, slow := filepath.Join(dir, "a"), filepath.Join(dir, "renju"), filepath.Join(dir, "nodes"), filepath.Join(dir, "other"), filepath.Join(dir, "slow")
	writeMatch(t, a, 0, nil, g)
	writeMatch(t, slow, -1, nil, g)
	writeMatch(t, renju, 4, nil, g)
	writeMatch(t, nodes, 0, [][]string{{"max_node", "2000"}}, g)
	writeMatch(t, other, 0, nil, map[string][2]string{"0,0, 2,2, 0,1": {"1-0", "0-1"}})
	for _, tc := range []struct {
		args []string
		rc   int
		msg  string
	}{
		{[]string{"compare", a}, 2, "baseline"},
		{[]string{"compare", a, renju}, 1, "rules"},
		{[]string{"compare", a, slow}, 1, "time controls"},
		{[]string{"compare", a, nodes}, 1, "opponent 1 differs"},
		{[]string{"compare", a, other}, 1, "no opening"},
		{[]string{"compare", a, filepath.Join(dir, "none")}, 1, "none"},
		{[]string{"compare", "--opponent", "Nobody", a, a}, 1, "no opening"},
	} {
		var out, errb bytes.Buffer
		if rc := run(tc.args, &out, &errb); rc != tc.rc || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: rc %d (want %d), message %q (want %q)", tc.args, rc, tc.rc, errb.String(), tc.msg)
		}
	}
}
