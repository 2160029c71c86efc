package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/results"
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
	for _, want := range []string{"[4/4] W-L-D", "alpha vs", "beta", "as Black:", "as White:", "wins by:", "move times:", "median"} {
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
		{"-e", "cmd=x", "--shard", "1/4", "--seed", "1"},                   // no --results
		{"-e", "cmd=x", "--shard", "4/4", "--seed", "1", "--results", "r"}, // index from 0
		{"-e", "cmd=x", "--shard", "1/4", "--results", "r"},                // shards need one seed
		{"-e", "cmd=x,option=max_memory=64MB"},                             // bytes
		{"-e", "cmd=x", "--info", "rule=1"},                                // a setting of its own
		{"-e", "cmd=x", "--info", "thread_num"},                            // no value
		{"merge"},                                                          // no file
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

// finalTable is the result section of wuzi-match's output, from the
// conditions line to the move times (clocks and memory differ from run to
// run; the games and scores must not).
func finalTable(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, "freestyle, 15x15")
	j := strings.Index(out, "move times:")
	if i < 0 || j < i {
		t.Fatalf("no result table in\n%s", out)
	}
	return out[i:j]
}

// gamesOf reads a results file's games as "opening: moves result reason".
func gamesOf(t *testing.T, path string) []string {
	t.Helper()
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range f.Games {
		out = append(out, fmt.Sprintf("%d %s/%s %s: %v %s %s", g.Number, g.Black, g.White, g.Opening, g.Moves, g.Result, g.Reason))
	}
	slices.Sort(out)
	return out
}

// TestSeeds: two runs without --seed play different games and print their
// seeds; --seed with a printed seed replays that run game for game.
func TestSeeds(t *testing.T) {
	fake := buildFake(t)
	dir := t.TempDir()
	runOnce := func(name string, extra ...string) (string, []string) {
		path := filepath.Join(dir, name+".jsonl")
		var out, errb bytes.Buffer
		args := append([]string{"-e", "cmd=" + fake + " -seed 3,name=a", "-e", "cmd=" + fake + " -seed 4,name=b",
			"-n", "4", "--max-plies", "30", "--timeout-turn", "2s", "--results", path}, extra...)
		if rc := run(args, &out, &errb); rc != 0 {
			t.Fatalf("rc %d\n%s\n%s", rc, out.String(), errb.String())
		}
		return out.String(), gamesOf(t, path)
	}
	seedOf := func(out string) string {
		m := regexp.MustCompile(`Openings drawn with seed (\d+) \(--seed (\d+) replays them\)`).FindStringSubmatch(out)
		if m == nil || m[1] != m[2] {
			t.Fatalf("no seed in the output:\n%s", out)
		}
		return m[1]
	}
	out1, games1 := runOnce("first")
	out2, games2 := runOnce("second")
	if seedOf(out1) == seedOf(out2) {
		t.Errorf("two runs drew the same seed %s", seedOf(out1))
	}
	if slices.Equal(games1, games2) {
		t.Errorf("two runs without --seed played the same games:\n%s", strings.Join(games1, "\n"))
	}
	out3, games3 := runOnce("replay", "--seed", seedOf(out1))
	if !slices.Equal(games1, games3) || seedOf(out3) != seedOf(out1) {
		t.Errorf("--seed %s did not replay the run:\n%s\nwant\n%s", seedOf(out1), strings.Join(games3, "\n"), strings.Join(games1, "\n"))
	}
	if finalTable(t, out1) != finalTable(t, out3) {
		t.Errorf("replay's table differs:\n%s\nwant\n%s", finalTable(t, out3), finalTable(t, out1))
	}
}

// TestShardsAndMerge: four shard processes' files, merged, print the
// table of the unsharded run with the same seed, and the games are the
// same; the merged HTML report is written.
func TestShardsAndMerge(t *testing.T) {
	fake := buildFake(t)
	dir := t.TempDir()
	common := []string{"-e", "cmd=" + fake + " -seed 3,name=a", "-e", "cmd=" + fake + " -seed 4,name=b,option=max_memory=67108864",
		"-e", "cmd=" + fake + " -mode junk -after 5,name=c", "-n", "4", "--max-plies", "30", "--timeout-turn", "2s", "--seed", "77"}
	var whole, errb bytes.Buffer
	wholePath := filepath.Join(dir, "whole.jsonl")
	if rc := run(append(slices.Clone(common), "-c", "2", "--results", wholePath), &whole, &errb); rc != 0 {
		t.Fatalf("whole run: rc %d\n%s", rc, errb.String())
	}
	var shards []string
	for i := range 4 {
		path := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		var out bytes.Buffer
		if rc := run(append(slices.Clone(common), "--shard", fmt.Sprintf("%d/4", i), "--results", path), &out, &errb); rc != 0 {
			t.Fatalf("shard %d: rc %d\n%s", i, rc, errb.String())
		}
		if !strings.Contains(out.String(), fmt.Sprintf("Shard %d/4", i)) {
			t.Errorf("shard %d does not say which shard it is:\n%s", i, out.String())
		}
		shards = append(shards, path)
	}
	report := filepath.Join(dir, "report.html")
	var merged bytes.Buffer
	if rc := run(append([]string{"merge", "--report", report}, shards...), &merged, &errb); rc != 0 {
		t.Fatalf("merge: rc %d\n%s", rc, errb.String())
	}
	if !strings.Contains(merged.String(), "Merged 4 files: 8 of 8 games.") {
		t.Errorf("merge output:\n%s", merged.String())
	}
	if a, b := finalTable(t, merged.String()), finalTable(t, whole.String()); a != b {
		t.Errorf("merged table\n%s\nwant the whole run's\n%s", a, b)
	}
	var all []string
	for _, s := range shards {
		all = append(all, gamesOf(t, s)...)
	}
	slices.Sort(all)
	if want := gamesOf(t, wholePath); !slices.Equal(all, want) {
		t.Errorf("shards' games\n%s\nwant\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(merged.String(), "limit 64.0 MB") {
		t.Errorf("b's own memory limit is not shown:\n%s", merged.String())
	}
	page, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(page), "8 of 8 games") || !strings.Contains(string(page), "seed 77") {
		t.Errorf("report: %v\n%.300s", err, page)
	}
	// A run's page exists before its first game ends: it says so and reloads.
	early := filepath.Join(dir, "early.html")
	var o bytes.Buffer
	if rc := run([]string{"merge"}, &o, &errb); rc != 2 {
		t.Errorf("merge without files: rc %d", rc)
	}
	cfgOpts := options{engines: []string{"cmd=" + fake}, games: 2, concurrency: 1, size: "15", turn: time.Second, report: early}
	cfg, err := configure(cfgOpts)
	if err != nil {
		t.Fatal(err)
	}
	r := newReporter(&o, cfgOpts, cfg)
	if err := r.open(); err != nil {
		t.Fatal(err)
	}
	if page, err := os.ReadFile(early); err != nil || !strings.Contains(string(page), "0 of 2 games, running") || !strings.Contains(string(page), `http-equiv="refresh"`) {
		t.Errorf("first page: %v\n%.400s", err, page)
	}
	// Three shards of four: the missing games are named.
	var part bytes.Buffer
	if rc := run(append([]string{"merge"}, shards[:3]...), &part, &errb); rc != 0 ||
		!strings.Contains(part.String(), "Missing games: 4, 8.") {
		t.Errorf("rc %d, three shards merged:\n%s", rc, part.String())
	}
	if rc := run([]string{"merge", filepath.Join(dir, "none.jsonl")}, &part, &errb); rc != 1 {
		t.Errorf("merging a file that does not exist: rc %d", rc)
	}
}

func TestETA(t *testing.T) {
	for _, c := range []struct {
		elapsed     time.Duration
		done, total int
		want        time.Duration
	}{{time.Minute, 1, 4, 3 * time.Minute}, {90 * time.Second, 3, 4, 30 * time.Second}, {time.Minute, 0, 4, 0}, {time.Minute, 4, 4, 0}} {
		if got := eta(c.elapsed, c.done, c.total); got != c.want {
			t.Errorf("eta(%v, %d, %d) = %v, want %v", c.elapsed, c.done, c.total, got, c.want)
		}
	}
}
