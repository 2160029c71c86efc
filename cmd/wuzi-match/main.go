// Command wuzi-match plays headless matches between Piskvork-protocol
// engines (brains) and referees them: rules 0, 1, 4, 8 and 9 through the
// engine's own eval package, Gomocup time control, openings played twice
// with colours swapped, games in parallel, Elo with a 95% margin, an
// optional SPRT, and games saved as PSQ and SGF. A match can be split
// into shards (--shard I/N) played anywhere and put together with
// "wuzi-match merge"; --report draws it as an HTML page.
//
// With no arguments it plays a short demonstration match of pbrain-wuzi
// against itself. Run "wuzi-match --help" for the flags.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/engine"
	"wuzi/match/opening"
)

const usage = `wuzi-match plays a match between Piskvork-protocol engines and referees it.

Usage:
  wuzi-match                       a short demonstration: pbrain-wuzi against itself
  wuzi-match -e ENGINE [-e ENGINE...] [flags]
  wuzi-match merge [--report FILE.html] [--results FILE.jsonl] RESULTS.jsonl...
                                   one report from the results files of a match's shards
  wuzi-match compare NEW.jsonl BASE.jsonl...
                                   a new build against a baseline that played the same
                                   openings and opponents, paired opening by opening

The first engine is the one under test; it meets every other engine (two or
more opponents make a gauntlet); alone it plays itself. ENGINE is
comma-separated key=value fields:
  cmd=PROGRAM ARGS   the command (a first field without "=" is the command too)
  dir=DIR            its working directory
  name=NAME          display name (default: the program's base name)
  option=KEY=VALUE   "INFO KEY VALUE" for this engine (repeatable); a match
                     setting's key (max_memory, timeout_turn, timeout_match,
                     rule, ...) replaces the match's value for this engine,
                     and its max_memory and times are the limits it is held to
  memlimit=BYTES     judge its memory by this instead of its max_memory (0:
                     measure and show it, never forfeit), for engines that
                     ignore max_memory or keep no room beside their hash
e.g. -e cmd=./pbrain-wuzi,name=new -e "cmd=../old/pbrain-wuzi,name=old,option=max_memory=67108864"

Openings: drawn at random from a seed, fresh three-stone openings near the
centre unless --openings gives a file; each played twice, colours swapped.
Without --seed every run draws a new seed (printed with the results), so a
rerun plays new games; --seed N replays a run exactly; --in-order plays the
file (or the built-in set) in order.

Shards: --shard I/N (I from 0, as JOB_COMPLETION_INDEX) plays games I+1,
I+1+N, ... of the schedule and needs --results; "wuzi-match merge" of the N
files prints the report of the whole match. scripts/k8s and scripts/slurm
run the shards on a cluster (docs/wuzi-match-shards.md).

Protocol: one engine process per game (as Gomocup); START n (RECTSTART w,h),
then each setting once: INFO timeout_turn, timeout_match, max_memory,
game_type 1, rule, the --info settings (the engine's own value where it
gives one), then its other options; before every move INFO time_left, then
BOARD ... DONE with the whole position at an engine's first request (an
empty BOARD block on an empty board, as GomocupJudge; --begin sends BEGIN,
as Piskvork), TURN x,y afterwards; END at the end, killed 1 s later. A move
taking >= tolerance + min(turn time, match time left) is a time-out;
start-up counts on the first move. Time-out, crash, an occupied or off-board
move, ERROR/UNKNOWN or any unparseable answer loses. While an engine thinks,
the unique set size (USS) of its process and all its children is sampled
every 50 ms, as GomocupJudge measures it (Linux only); going over its limit
(its own max_memory option, else --max-memory) loses by memory, and the
result table shows each engine's peak against its limit. With --report the
progress is also an HTML page; on a terminal the progress line shows games
done, score and an ETA.

Flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command line.
type options struct {
	engines     []string
	info        []string
	games       int
	concurrency int
	rule        int
	size        string
	turn        time.Duration
	matchTime   time.Duration
	tolerance   time.Duration
	maxMemory   int64
	maxPlies    int
	openings    string
	random      bool
	inOrder     bool
	seed        uint64
	seedGiven   bool
	shard       string
	results     string
	report      string
	begin       bool
	lenient     bool
	psqDir      string
	sgfFile     string
	msgDir      string
	sprt        string
	boards      bool
	quiet       bool
	demo        bool
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "compare" {
		return runCompare(args[1:], stdout, stderr)
	}
	var o options
	fs := pflag.NewFlagSet("wuzi-match", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringArrayVarP(&o.engines, "engine", "e", nil, "an engine (repeatable; see above)")
	fs.StringArrayVar(&o.info, "info", nil, "KEY=VALUE: an extra INFO setting for every engine, e.g. thread_num=1 (repeatable; an engine's own option= wins)")
	fs.IntVarP(&o.games, "games", "n", 20, "games per pairing (openings come in colour-swapped pairs)")
	fs.IntVarP(&o.concurrency, "concurrency", "c", 1, "games played at once")
	fs.IntVar(&o.rule, "rule", 0, "rule: 0 freestyle, 1 standard, 4 renju (2 too), 8 caro, 9 caro with exactly five")
	fs.StringVar(&o.size, "size", "15", "board size N or WxH")
	fs.DurationVar(&o.turn, "timeout-turn", 5*time.Second, "time per move")
	fs.DurationVar(&o.matchTime, "timeout-match", 120*time.Second, "time per game and engine (0 = no limit)")
	fs.DurationVar(&o.tolerance, "tolerance", time.Second, "grace added to every time limit")
	fs.Int64Var(&o.maxMemory, "max-memory", 367001600, "bytes sent as INFO max_memory to engines without their own; an engine whose process tree's USS goes over its limit loses by memory (0 = no limit)")
	fs.IntVar(&o.maxPlies, "max-plies", 0, "draw when this many stones are on the board (0: full board; renju 15x15: 200, as Gomocup)")
	fs.StringVar(&o.openings, "openings", "", "openings file in Gomocup offset format (default: fresh openings drawn from the seed)")
	fs.BoolVar(&o.random, "random", false, "openings at random (now the default)")
	_ = fs.MarkDeprecated("random", "openings are drawn at random by default; --in-order plays them in order")
	fs.BoolVar(&o.inOrder, "in-order", false, "play the openings file (or the built-in set) in order instead of drawing them")
	fs.Uint64Var(&o.seed, "seed", 0, "seed of the openings drawn: replays a run (default: a new seed each run)")
	fs.StringVar(&o.shard, "shard", "", "play only shard I/N of the schedule (I from 0); needs --results")
	fs.StringVar(&o.results, "results", "", "write every game as a JSON line to this file, for wuzi-match merge")
	fs.StringVar(&o.report, "report", "", "write an HTML report to this file, refreshed after every game")
	fs.BoolVar(&o.begin, "begin", false, "ask for a move on an empty board with BEGIN instead of an empty BOARD")
	fs.BoolVar(&o.lenient, "lenient", false, "skip answer lines that are not moves, as GomocupJudge does (default: they lose, as in Piskvork)")
	fs.StringVar(&o.psqDir, "psq", "", "save every game as DIR/game-NNNN.psq (Piskvork format)")
	fs.StringVar(&o.sgfFile, "sgf", "", "save every game to this SGF collection file")
	fs.StringVar(&o.msgDir, "messages", "", "keep the engines' MESSAGE lines as DIR/game-NNNN.txt")
	fs.StringVar(&o.sprt, "sprt", "", "SPRT elo0,elo1[,alpha,beta] (alpha, beta default 0.05): stop when decided")
	fs.BoolVar(&o.boards, "boards", false, "print the final board of every game")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress line, only the result")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "wuzi-match: %v (try --help)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wuzi-match: unexpected argument %q (engines go with -e)\n", fs.Arg(0))
		return 2
	}
	o.seedGiven = fs.Changed("seed")
	if len(args) == 0 {
		path, err := findWuzi()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		o.demo = true
		o.engines = []string{"cmd=" + path}
		o.games, o.concurrency = 4, 2
		o.turn, o.matchTime = time.Second, 30*time.Second
		fmt.Fprintf(stdout, "Demonstration: %s against itself, 4 games on 15x15 freestyle, 1 s a move.\n", path)
		fmt.Fprintln(stdout, "(wuzi-match --help shows how to run real matches.)")
	}
	cfg, err := configure(o)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-match:", err)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once
	}()

	out := newReporter(stdout, o, cfg)
	if err := out.open(); err != nil {
		fmt.Fprintln(stderr, "wuzi-match:", err)
		return 1
	}
	sum, err := match.Run(ctx, cfg, out.game)
	out.endProgress()
	if err != nil {
		out.close()
		fmt.Fprintln(stderr, "wuzi-match:", err)
		return 1
	}
	out.final(sum)
	out.writeReport(sum, false)
	out.close()
	if len(out.fileErrs) > 0 {
		for _, e := range out.fileErrs {
			fmt.Fprintln(stderr, "wuzi-match:", e)
		}
		return 1
	}
	return 0
}

// findWuzi looks for pbrain-wuzi next to this executable, then in PATH.
func findWuzi() (string, error) {
	name := "pbrain-wuzi"
	if exe, err := os.Executable(); err == nil {
		for _, n := range []string{name, name + ".exe"} {
			p := filepath.Join(filepath.Dir(exe), n)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", errors.New(`wuzi-match: the demonstration needs pbrain-wuzi, next to wuzi-match or in PATH, and found neither.
Build both into one directory from the repository root:
    go build -o bin/ ./cmd/pbrain-wuzi ./cmd/wuzi-match
    bin/wuzi-match
or run "wuzi-match --help" to match other engines.`)
}

// configure turns the options into a match configuration.
func configure(o options) (match.Config, error) {
	var cfg match.Config
	if len(o.engines) == 0 {
		return cfg, errors.New("no engine given (-e cmd=PROGRAM); see --help")
	}
	for _, e := range o.engines {
		sp, err := engine.ParseSpec(e)
		if err != nil {
			return cfg, err
		}
		cfg.Engines = append(cfg.Engines, sp)
	}
	w, h, err := parseSize(o.size)
	if err != nil {
		return cfg, err
	}
	rule, err := eval.ParseRule(o.rule)
	if err != nil {
		return cfg, err
	}
	plies := o.maxPlies
	if plies == 0 && rule == eval.Renju && w == 15 && h == 15 {
		plies = 200
	}
	cfg.Settings = match.Settings{
		Width: w, Height: h, Rule: rule,
		TurnTime: o.turn, MatchTime: o.matchTime, Tolerance: o.tolerance,
		MaxMemory: o.maxMemory, MaxPlies: plies, UseBegin: o.begin, Lenient: o.lenient,
	}
	for _, kv := range o.info {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return cfg, fmt.Errorf("--info %q: want KEY=VALUE", kv)
		}
		cfg.Settings.Info = append(cfg.Settings.Info, engine.Option{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
	}
	if err := cfg.Settings.Validate(); err != nil {
		return cfg, err
	}
	if o.openings != "" {
		f, err := os.Open(o.openings)
		if err != nil {
			return cfg, err
		}
		cfg.Openings, err = opening.Parse(f)
		f.Close()
		if err != nil {
			return cfg, fmt.Errorf("%s: %w", o.openings, err)
		}
	}
	cfg.Games, cfg.Parallel, cfg.Random, cfg.Seed = o.games, o.concurrency, !o.inOrder, o.seed
	if !o.seedGiven {
		cfg.Seed = rand.Uint64() // a new run, new games
	}
	if o.games < 1 || o.concurrency < 1 {
		return cfg, errors.New("--games and --concurrency must be at least 1")
	}
	if o.shard != "" {
		if cfg.Shard, err = match.ParseShard(o.shard); err != nil {
			return cfg, err
		}
		if o.results == "" {
			return cfg, errors.New("--shard needs --results FILE to keep the shard's games for wuzi-match merge")
		}
		if cfg.Shard.Count > 1 && !o.seedGiven && cfg.Random {
			return cfg, errors.New("--shard needs --seed: every shard must draw the same openings")
		}
	}
	for _, sp := range cfg.Engines {
		if _, err := cfg.Settings.ForEngine(sp); err != nil {
			return cfg, err
		}
	}
	if o.sprt != "" {
		t, err := elo.ParseSPRT(o.sprt)
		if err != nil {
			return cfg, err
		}
		cfg.SPRT = &t
	}
	for _, d := range []string{o.psqDir, o.msgDir} {
		if d != "" {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return cfg, err
			}
		}
	}
	return cfg, nil
}

// parseSize reads "15" or "20x15".
func parseSize(s string) (w, h int, err error) {
	a, b, rect := strings.Cut(strings.ToLower(s), "x")
	w, err = strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("size %q: want N or WxH", s)
	}
	h = w
	if rect {
		if h, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("size %q: want N or WxH", s)
		}
	}
	return w, h, nil
}
