package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/eval"
	"wuzi/match"
)

func buildFake(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fakeengine")
	out, err := exec.Command("go", "build", "-o", path, "../../match/testdata/fakeengine").CombinedOutput()
	if err != nil {
		t.Fatalf("building the fake engine: %v\n%s", err, out)
	}
	return path
}

// psqGame is a game as Piskvork's reader sees a .psq file: the header
// "Piskvorky WxH, a:b, h" with h 0 or 1, then "x,y,time" lines with 1-based
// coordinates until a line that is not a move, then the two names.
type psqGame struct {
	w, h   int
	moves  [][2]int
	names  []string
	result string
}

func readPSQ(t *testing.T, path string) psqGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var g psqGame
	var a, b, first int
	sc.Scan()
	if n, err := fmt.Sscanf(sc.Text(), "Piskvorky %dx%d, %d:%d, %d", &g.w, &g.h, &a, &b, &first); n != 5 || err != nil || (first != 0 && first != 1) {
		t.Fatalf("%s: header %q does not read as Piskvork's", path, sc.Text())
	}
	var rest []string
	for sc.Scan() {
		var x, y, ms int
		if n, _ := fmt.Sscanf(sc.Text(), "%d,%d,%d", &x, &y, &ms); n == 3 && len(rest) == 0 {
			g.moves = append(g.moves, [2]int{x - 1, y - 1})
			continue
		}
		rest = append(rest, sc.Text())
	}
	if len(rest) != 3 {
		t.Fatalf("%s: after the moves want 2 names and a code, got %q", path, rest)
	}
	g.names, g.result = rest[:2], rest[2]
	return g
}

func TestMatchFiles(t *testing.T) {
	fake := buildFake(t)
	dir := t.TempDir()
	psq, sgf, msgs := filepath.Join(dir, "psq"), filepath.Join(dir, "games.sgf"), filepath.Join(dir, "msg")
	var out, errb bytes.Buffer
	rc := run([]string{
		"-e", "cmd=" + fake + " -seed 3 -messages,name=alpha",
		"-e", "cmd=" + fake + " -mode junk -after 12,name=beta,option=hash_size=64",
		"-n", "4", "-c", "2", "--timeout-turn", "2s", "--max-plies", "40",
		"--openings", "../../testdata/openings_freestyle_3stone.txt",
		"--psq", psq, "--sgf", sgf, "--messages", msgs,
	}, &out, &errb)
	if rc != 0 {
		t.Fatalf("rc %d\n%s\n%s", rc, out.String(), errb.String())
	}
	text := out.String()
	for _, want := range []string{"[4/4] W-L-D", "alpha vs", "beta", "wins by:", "move times:", "median"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for i := 1; i <= 4; i++ {
		g := readPSQ(t, filepath.Join(psq, fmt.Sprintf("game-%04d.psq", i)))
		if g.w != 15 || g.h != 15 || len(g.moves) < 4 {
			t.Fatalf("game %d: %dx%d, %d moves", i, g.w, g.h, len(g.moves))
		}
		// Replays legally under the referee.
		ref, _ := match.NewReferee(15, 15, eval.Freestyle)
		for k, m := range g.moves {
			if v, d := ref.Judge(m[0], m[1]); v == match.Illegal || (v != match.Legal && k != len(g.moves)-1) {
				t.Fatalf("game %d move %d: %v %s", i, k+1, v, d)
			}
		}
		if _, err := os.Stat(filepath.Join(msgs, fmt.Sprintf("game-%04d.txt", i))); err != nil {
			t.Errorf("no MESSAGE file for game %d: %v", i, err)
		}
	}
	data, err := os.ReadFile(sgf)
	if err != nil || strings.Count(string(data), "(;FF[4]GM[4]") != 4 {
		t.Errorf("SGF file: %v\n%s", err, data)
	}
}

func TestDemoWithoutEngine(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out, errb bytes.Buffer
	if rc := run(nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "go build") {
		t.Errorf("rc %d, stderr %q", rc, errb.String())
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rule", "3"}, // no engine
		{"-e", "cmd=x", "--rule", "12"},
		{"-e", "cmd=x", "--size", "3"},
		{"-e", "cmd=x", "--sprt", "5,1"},
		{"-e", "cmd=x,colour=red"},
		{"-e", "cmd=x", "stray"},
		{"-e", "cmd=x", "--no-such-flag"},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, &out, &errb); rc != 2 {
			t.Errorf("%v: rc %d, want 2 (%s)", args, rc, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("%v: no message says what is wrong", args)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string][2]int{"15": {15, 15}, "20x15": {20, 15}, "20X20": {20, 20}} {
		w, h, err := parseSize(in)
		if err != nil || w != want[0] || h != want[1] {
			t.Errorf("%q: %d %d %v", in, w, h, err)
		}
	}
}
