package results

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/engine"
)

// buildFake builds the fake engine of match/testdata into a temporary
// directory.
func buildFake(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fakeengine")
	if out, err := exec.Command("go", "build", "-o", path, "../testdata/fakeengine").CombinedOutput(); err != nil {
		t.Fatalf("building the fake engine: %v\n%s", err, out)
	}
	return path
}

// play runs cfg and returns its results file and summary.
func play(t *testing.T, cfg match.Config) (File, *match.Summary) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, NewHeader(cfg))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := match.Run(context.Background(), cfg, func(d match.Done, _ *match.Summary) {
		if err := w.Add(d); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(fmt.Sprintf("shard %s", cfg.Shard), &buf)
	if err != nil {
		t.Fatal(err)
	}
	return f, sum
}

// board is what a game is on the board, without clocks and memory: the
// part two runs of deterministic engines must agree on.
func board(g Game) string {
	g.TimesMS, g.PeakMemory, g.Date = Times{}, Pair{}, time.Time{}
	return fmt.Sprintf("%+v", g)
}

// scores is a summary without clocks and memory.
func scores(s *match.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "names %v total %d done %d stopped %q sprt %v seed %d random %v openings %d limits %v\n",
		s.Names, s.Total, s.Done, s.Stopped, s.SPRT, s.Seed, s.Random, s.Openings, s.MemoryLimits)
	for _, p := range s.Pairs {
		fmt.Fprintf(&b, "%s %+v wins %v losses %v draws %v\n", p.Opponent, p.Result, p.WinsBy, p.LossesBy, p.DrawsBy)
	}
	for i := range s.Names {
		fmt.Fprintf(&b, "moves %d ", len(s.MoveTimes[i]))
	}
	return b.String()
}

func settings() match.Settings {
	return match.Settings{Width: 15, Height: 15, Rule: eval.Freestyle,
		TurnTime: 2 * time.Second, MatchTime: 60 * time.Second, Tolerance: time.Second, MaxPlies: 40}
}

// TestShardsMergeToWholeRun: four shards of a gauntlet, played apart and
// merged, are the one-process run with the same seed game for game, and
// give the same summary.
func TestShardsMergeToWholeRun(t *testing.T) {
	fake := buildFake(t)
	cfg := match.Config{
		Settings: settings(),
		Engines: []engine.Spec{
			{Name: "test", Command: fake, Args: []string{"-seed", "3"}},
			{Name: "one", Command: fake, Args: []string{"-seed", "5"}, Options: []engine.Option{{Key: "max_memory", Value: "67108864"}}},
			{Name: "two", Command: fake, Args: []string{"-mode", "junk", "-after", "6"}},
		},
		Games: 5, Random: true, Seed: 42, Parallel: 2,
	}
	whole, wholeSum := play(t, cfg)
	if wholeSum.Done != 10 || len(whole.Games) != 10 {
		t.Fatalf("whole run: %d games", wholeSum.Done)
	}
	var shards []File
	for i := range 4 {
		c := cfg
		c.Parallel, c.Shard = 1, match.Shard{Index: i, Count: 4}
		f, sum := play(t, c)
		if sum.Total != len(f.Games) || (i < 2 && sum.Total != 3) || (i >= 2 && sum.Total != 2) {
			t.Errorf("shard %d played %d of %d games", i, len(f.Games), sum.Total)
		}
		shards = append(shards, f)
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	one, err := Merge([]File{whole})
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Missing) != 0 || merged.Duplicates != 0 || len(merged.Games) != 10 {
		t.Fatalf("missing %v, duplicates %d, %d games", merged.Missing, merged.Duplicates, len(merged.Games))
	}
	for i := range merged.Games {
		if a, b := board(merged.Games[i]), board(one.Games[i]); a != b {
			t.Errorf("game %d differs:\nshards %s\nwhole  %s", i+1, a, b)
		}
	}
	if a, b, c := scores(merged.Summary), scores(one.Summary), scores(wholeSum); a != b || b != c {
		t.Errorf("summaries differ:\nshards %s\nwhole  %s\nrun    %s", a, b, c)
	}
	if merged.Summary.MemoryLimits[1] != 67108864 || merged.Summary.MemoryLimits[0] != 0 {
		t.Errorf("memory limits %v", merged.Summary.MemoryLimits)
	}
	// Shards of another match do not merge.
	other := shards[1]
	other.Header.Seed++
	if _, err := Merge([]File{shards[0], other}); err == nil {
		t.Error("shards with different seeds merged")
	}
	// A shard missing shows as missing games.
	part, err := Merge(shards[:3])
	if err != nil || !reflect.DeepEqual(part.Missing, []int{4, 8}) || part.Summary.Done != 8 {
		t.Errorf("three shards: missing %v, done %d, %v", part.Missing, part.Summary.Done, err)
	}
	// A file twice counts once.
	twice, err := Merge(append(shards, shards[0]))
	if err != nil || twice.Duplicates != 3 || twice.Summary.Done != 10 {
		t.Errorf("a shard twice: duplicates %d, done %d, %v", twice.Duplicates, twice.Summary.Done, err)
	}
}

// TestMergedSPRT: an SPRT applied to merged shards stops where the
// one-process run with one game at a time stopped.
func TestMergedSPRT(t *testing.T) {
	fake := buildFake(t)
	// The opponent junks its second move, which it only gets as White in
	// a six-stone game: the engine under test wins as Black, draws as White.
	test, _ := elo.ParseSPRT("0,100")
	cfg := match.Config{
		Settings: settings(),
		Engines:  []engine.Spec{{Name: "a", Command: fake}, {Name: "b", Command: fake, Args: []string{"-mode", "junk", "-after", "1"}}},
		Games:    40, Random: true, Seed: 9, Parallel: 1, SPRT: &test,
	}
	cfg.Settings.MaxPlies = 6
	whole, wholeSum := play(t, cfg)
	if wholeSum.SPRT != elo.AcceptH1 || wholeSum.Done >= 40 {
		t.Fatalf("whole run: %v after %d games", wholeSum.SPRT, wholeSum.Done)
	}
	var shards []File
	for i := range 4 {
		c := cfg
		c.Shard = match.Shard{Index: i, Count: 4}
		f, sum := play(t, c)
		if sum.Done != 10 || sum.Stopped != "" {
			t.Errorf("shard %d: %d games, stopped %q: a shard must play its whole slice", i, sum.Done, sum.Stopped)
		}
		shards = append(shards, f)
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := scores(merged.Summary), scores(wholeSum); a != b {
		t.Errorf("summaries differ:\nshards %s\nwhole  %s", a, b)
	}
	if len(merged.Games) != len(whole.Games) || merged.Uncounted != 40-len(whole.Games) || len(merged.Missing) != 0 {
		t.Errorf("merged %d games, %d uncounted, missing %v; the run played %d", len(merged.Games), merged.Uncounted, merged.Missing, len(whole.Games))
	}
}

// TestReadBack: a game survives the file, clocks to the millisecond; a
// cut last line is left out; other files are refused.
func TestReadBack(t *testing.T) {
	fake := buildFake(t)
	cfg := match.Config{Settings: settings(), Engines: []engine.Spec{{Name: "x", Command: fake, Args: []string{"-mode", "junk", "-after", "3"}}, {Name: "y", Command: fake}},
		Games: 2, Parallel: 1}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, NewHeader(cfg))
	var games []match.Done
	if _, err := match.Run(context.Background(), cfg, func(d match.Done, _ *match.Summary) { games = append(games, d); _ = w.Add(d) }); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f, err := Read("r", bytes.NewReader(data))
	if err != nil || len(f.Games) != 2 || f.Truncated {
		t.Fatalf("%d games, truncated %v, %v", len(f.Games), f.Truncated, err)
	}
	for i, g := range f.Games {
		d := g.Done(f.Header)
		want := games[i]
		if d.Job != want.Job || d.Result.Winner != want.Result.Winner || d.Result.Reason != want.Result.Reason ||
			d.Result.Detail != want.Result.Detail || len(d.Result.Record.Moves) != len(want.Result.Record.Moves) ||
			d.Result.PeakMemory != want.Result.PeakMemory || !reflect.DeepEqual(d.Result.Output, want.Result.Output) {
			t.Errorf("game %d came back as %+v, want %+v", i+1, d, want)
		}
		for k, m := range d.Result.Record.Moves {
			if w := want.Result.Record.Moves[k]; m.X != w.X || m.Y != w.Y || m.Time != w.Time.Truncate(time.Millisecond) {
				t.Errorf("game %d move %d: %+v, want %+v", i+1, k+1, m, w)
			}
		}
	}
	cut := data[:len(data)-10]
	if f, err := Read("cut", bytes.NewReader(cut)); err != nil || !f.Truncated || len(f.Games) != 1 {
		t.Errorf("cut file: %d games, truncated %v, %v", len(f.Games), f.Truncated, err)
	}
	for _, bad := range []string{"", "hello\n", `{"kind":"game"}` + "\n", string(data[:bytes.IndexByte(data, '\n')+1]) + `{"kind":"match"}` + "\n"} {
		if _, err := Read("bad", strings.NewReader(bad)); err == nil {
			t.Errorf("%q read as a results file", bad)
		}
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := ReadFile(path); err != nil || len(f.Games) != 2 {
		t.Errorf("ReadFile: %v", err)
	}
}

// TestSelfPlayHeader: a single engine plays itself, and the header counts
// its games and names it twice, as Run does.
func TestSelfPlayHeader(t *testing.T) {
	cfg := match.Config{Settings: settings(), Engines: []engine.Spec{{Name: "w", Command: "w"}}, Games: 6}
	h := NewHeader(cfg)
	if h.Total != 6 || !reflect.DeepEqual(h.Names, []string{"w", "w#2"}) || len(h.Engines) != 1 {
		t.Errorf("total %d, names %v, %d engines", h.Total, h.Names, len(h.Engines))
	}
}
