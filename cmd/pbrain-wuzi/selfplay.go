package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"wuzi/match"
	"wuzi/selfplay"
)

// selfplayUsage is the help of `pbrain-wuzi selfplay`.
const selfplayUsage = `Usage:
  pbrain-wuzi selfplay [flags]               play games against itself, write positions
  pbrain-wuzi selfplay merge [-o FILE] FILE... merge shard files, each position once

Each line written is one position: rule size game ply side score depth best
result moves (docs/selfplay.md). With --nodes the output depends only on the
flags and the seed, not on --jobs; --shard I/N plays games I, I+N, I+2N, ...
and merge puts the shards back together as the whole run.

Flags:
`

// runSelfplay runs `pbrain-wuzi selfplay ARGS`.
func runSelfplay(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runSelfplayMerge(args[1:], stdout, stderr)
	}
	fs := pflag.NewFlagSet("pbrain-wuzi selfplay", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	games := fs.IntP("games", "n", 80, "games to play in the whole run (all shards)")
	rules := fs.String("rules", "freestyle,standard,renju,caro", "rules, comma-separated: freestyle, standard, renju, caro, caro-exact")
	sizes := fs.String("sizes", "15,20", "board sizes, comma-separated (11 to 26)")
	nodes := fs.Uint64("nodes", 5000, "nodes per move (reproducible); 0 to use --movetime")
	moveTime := fs.Duration("movetime", 0, "time per move (e.g. 20ms) when --nodes is 0; not reproducible")
	seed := fs.Uint64("seed", 1, "seed of the openings and the early random moves")
	jobs := fs.IntP("jobs", "j", 1, "games played at once, each on its own goroutine")
	hash := fs.Int("hash", 16, "transposition table of each job in MiB, cleared before each game")
	shard := fs.String("shard", "", "play only shard I/N (game i when i mod N = I; I from 0)")
	randomPlies := fs.Int("random-plies", selfplay.DefaultRandomPlies, "moves after the opening drawn among near-best root moves")
	randomBest := fs.Int("random-best", selfplay.DefaultRandomBest, "root lines searched for those moves")
	randomMargin := fs.Int("random-margin", selfplay.DefaultRandomMargin, "how far below the best line a drawn move may score")
	noVCT := fs.Bool("no-vct", false, "switch off the root threat searches, which can take a small node budget whole")
	out := fs.StringP("output", "o", "", "write positions to this file instead of standard output")
	quiet := fs.BoolP("quiet", "q", false, "no progress line on a terminal")
	fs.Usage = func() { fmt.Fprintf(stderr, "%s%s", selfplayUsage, fs.FlagUsages()) }
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "pbrain-wuzi selfplay: %v (try --help)\n", err)
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pbrain-wuzi selfplay: "+format+" (try --help)\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return bad("unknown argument %q", strings.Join(fs.Args(), " "))
	}
	cfg := selfplay.Config{Games: *games, Seed: *seed, Nodes: *nodes, MoveTime: *moveTime, HashMB: *hash, Jobs: *jobs,
		RandomPlies: *randomPlies, RandomBest: *randomBest, RandomMargin: *randomMargin, NoVCT: *noVCT}
	for _, f := range splitList(*rules) {
		r, err := selfplay.ParseRuleName(f)
		if err != nil {
			return bad("--rules: %v", err)
		}
		cfg.Rules = append(cfg.Rules, r)
	}
	for _, f := range splitList(*sizes) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return bad("--sizes: %q is not a number", f)
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	if len(cfg.Rules) == 0 || len(cfg.Sizes) == 0 {
		return bad("--rules and --sizes need at least one value each")
	}
	if *shard != "" {
		sh, err := match.ParseShard(*shard)
		if err != nil {
			return bad("--shard: %v", err)
		}
		cfg.Shard = sh
	}
	if *nodes > 0 && fs.Changed("movetime") {
		return bad("--movetime needs --nodes 0")
	}
	if err := cfg.Validate(); err != nil {
		return bad("%v", err)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "pbrain-wuzi selfplay: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	if !*quiet && isTerminalWriter(stderr) {
		cfg.Progress = progressLine(stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	st, err := selfplay.Run(ctx, cfg, w)
	if cfg.Progress != nil {
		fmt.Fprintln(stderr)
	}
	if err == nil && *out != "" {
		err = w.(*os.File).Close()
	}
	if err != nil {
		fmt.Fprintf(stderr, "pbrain-wuzi selfplay: %v\n", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stderr, "%d positions (%d duplicates, %d decided left out) in %s\n",
			st.Positions, st.Duplicates, st.Decided, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

// runSelfplayMerge runs `pbrain-wuzi selfplay merge ARGS`.
func runSelfplayMerge(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("pbrain-wuzi selfplay merge", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("output", "o", "", "write the merged positions to this file instead of standard output")
	fs.Usage = func() { fmt.Fprintf(stderr, "%s%s", selfplayUsage, fs.FlagUsages()) }
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "pbrain-wuzi selfplay merge: %v (try --help)\n", err)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "pbrain-wuzi selfplay merge: name the files to merge (try --help)")
		return 2
	}
	var inputs []selfplay.Input
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "pbrain-wuzi selfplay merge: %v\n", err)
			return 1
		}
		defer f.Close()
		inputs = append(inputs, selfplay.Input{Name: name, R: f})
	}
	w := stdout
	var of *os.File
	if *out != "" {
		var err error
		if of, err = os.Create(*out); err != nil {
			fmt.Fprintf(stderr, "pbrain-wuzi selfplay merge: %v\n", err)
			return 1
		}
		defer of.Close()
		w = of
	}
	st, err := selfplay.Merge(w, inputs...)
	if err == nil && of != nil {
		err = of.Close()
	}
	if err != nil {
		fmt.Fprintf(stderr, "pbrain-wuzi selfplay merge: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "%d positions (%d duplicates left out)\n", st.Positions, st.Duplicates)
	return 0
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// isTerminalWriter reports whether w is an interactive terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine returns a Progress callback that redraws one status line
// on w at most twice a second, and on the last game.
func progressLine(w io.Writer) func(selfplay.Progress) {
	var last time.Time
	return func(p selfplay.Progress) {
		if p.Games < p.GamesTotal && time.Since(last) < 500*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\r%s\033[K", formatProgress(p))
	}
}

// formatProgress is the status line: games, positions, speed and ETA.
func formatProgress(p selfplay.Progress) string {
	rate, eta := 0.0, "?"
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Positions) / s
	}
	if p.Games > 0 {
		left := time.Duration(float64(p.Elapsed) * float64(p.GamesTotal-p.Games) / float64(p.Games))
		eta = left.Round(time.Second).String()
	}
	return fmt.Sprintf("games %d/%d  positions %d  %.0f positions/s  ETA %s", p.Games, p.GamesTotal, p.Positions, rate, eta)
}
