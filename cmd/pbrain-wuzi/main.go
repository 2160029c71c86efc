// Command pbrain-wuzi is the Wuzi Gomoku/Renju engine. It speaks the
// Gomocup/Piskvork brain protocol on standard input and output, the way
// Piskvork, GomocupJudge, c-gomoku-cli and Yixin-Board drive it.
//
//	pbrain-wuzi                 serve the protocol (what managers run)
//	pbrain-wuzi bench           search fixed positions; print the node signature
//	pbrain-wuzi selfplay        play itself, write training positions (docs/selfplay.md)
//	pbrain-wuzi --help          list the flags
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"wuzi/brain"
	"wuzi/eval"
	"wuzi/protocol"
	"wuzi/search"
)

func main() {
	// The managers charge the first move from the process's creation:
	// the brain measures its start-up from the system's record of it.
	started, _ := processStart()
	os.Exit(runStarted(started, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the program in a process that is not its own (the tests): its
// start-up is measured from the brain's creation.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runStarted(time.Time{}, args, stdin, stdout, stderr)
}

// runStarted is the program, in a process that began at started (zero:
// unknown).
func runStarted(started time.Time, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "selfplay" {
		return runSelfplay(args[1:], stdout, stderr)
	}
	fs := pflag.NewFlagSet("pbrain-wuzi", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	hash := fs.Int("hash", brain.DefaultHashMB, "transposition table size in MiB (a manager's max_memory can only shrink it)")
	threads := fs.Int("threads", 1, "search threads (lazy SMP); a manager's INFO thread_num overrides it")
	logFile := fs.String("log", "", "append diagnostics to this file instead of discarding them")
	debug := fs.Bool("debug", false, "send diagnostics to the manager as DEBUG lines")
	version := fs.Bool("version", false, "print the version and exit")
	params := fs.StringArray("param", nil, "NAME=VALUE: a search parameter for tuning matches (repeatable; names: "+search.ParamNames()+")")
	benchDepth := fs.Int("depth", search.DefaultBenchDepth, "bench: search depth of every position")
	cutStats := fs.Bool("cut-stats", false, "bench: also print where the nodes failed high (the first-move cut rate, by node kind) and where they ended, by the depth left")
	positions := fs.String("positions", "", "bench: search the positions of this file instead (one a line: moves x,y;x,y;... from the empty board, Black first; # comments)")
	benchRule := fs.Int("rule", 0, "bench --positions: the positions' rule, as INFO rule numbers it (0 freestyle, 1 standard, 4 renju, 8 caro)")
	benchSize := fs.Int("size", 15, "bench --positions: the board size (5 to 32)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Wuzi %s, a Gomoku/Renju engine for the Gomocup/Piskvork brain protocol.

Usage:
  pbrain-wuzi [flags]          speak the protocol on stdin/stdout (load it in Piskvork,
                               GomocupJudge, c-gomoku-cli or Yixin-Board)
  pbrain-wuzi bench [--depth N] [--cut-stats] [--positions FILE [--rule N] [--size N]]
                               search fixed positions (or a file's), print nodes, time and speed
  pbrain-wuzi selfplay [flags]  play itself, write training positions (selfplay --help)

Flags:
%s`, brain.Version, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "pbrain-wuzi: %v (try --help)\n", err)
		return 2
	}
	if *version {
		fmt.Fprintf(stdout, "pbrain-wuzi %s\n", brain.Version)
		return 0
	}

	cfg := brain.Config{HashMB: *hash, Threads: *threads, Started: started}
	if len(*params) > 0 {
		p := search.DefaultParams()
		for _, kv := range *params {
			if err := p.Set(kv); err != nil {
				fmt.Fprintf(stderr, "pbrain-wuzi: --param: %v\n", err)
				return 2
			}
		}
		cfg.Params = &p
	}
	rest := fs.Args()
	isBench := len(rest) == 1 && rest[0] == "bench"
	if (fs.Changed("rule") || fs.Changed("size")) && *positions == "" || *positions != "" && !isBench {
		fmt.Fprintln(stderr, "pbrain-wuzi: --positions, --rule and --size are for bench --positions (try --help)")
		return 2
	}
	if len(rest) > 0 {
		if isBench {
			var list []search.BenchPosition
			if *positions != "" {
				var err error
				if list, err = readPositions(*positions, *benchRule, *benchSize); err != nil {
					fmt.Fprintf(stderr, "pbrain-wuzi: --positions: %v\n", err)
					return 2
				}
			}
			return bench(stdout, list, *benchDepth, *hash, cfg.Params, *cutStats)
		}
		fmt.Fprintf(stderr, "pbrain-wuzi: unknown argument %q (try --help)\n", strings.Join(rest, " "))
		return 2
	}

	w := protocol.NewWriter(stdout)
	var diag []func(string)
	var toLog func(string) // the log file's writer, if any
	if *debug {
		diag = append(diag, w.Debug)
	}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "pbrain-wuzi: %v\n", err)
			return 1
		}
		defer f.Close()
		var mu sync.Mutex
		lg := log.New(f, "", log.LstdFlags|log.Lmicroseconds)
		toLog = func(s string) { mu.Lock(); lg.Println(s); mu.Unlock() }
		diag = append(diag, toLog)
	}
	// Nothing may reach stdout except through the writer: the standard
	// logger becomes DEBUG lines (or goes to the log file).
	log.SetFlags(0)
	log.SetOutput(w.DebugLogger())
	if !*debug {
		log.SetOutput(io.Discard)
	}
	if len(diag) > 0 {
		cfg.Debug = func(s string) {
			for _, f := range diag {
				f(s)
			}
		}
	}
	// A search the watchdog abandoned leaves its stacks on stderr, which
	// the managers do not read as answers, and in the log file if any.
	cfg.Stall = func(stacks string) {
		fmt.Fprintf(stderr, "pbrain-wuzi: watchdog: a search overran its time; its goroutines:\n%s\n", stacks)
		if toLog != nil {
			toLog("watchdog: stacks of the abandoned search:\n" + stacks)
		}
	}
	if isTerminal(stdin) {
		fmt.Fprintln(stderr, "pbrain-wuzi speaks the Gomocup/Piskvork brain protocol: try START 15, BEGIN, TURN 7,8, ABOUT, END (--help for flags).")
	}
	if err := protocol.Run(context.Background(), stdin, w, brain.New(cfg)); err != nil {
		fmt.Fprintf(stderr, "pbrain-wuzi: %v\n", err)
		return 1
	}
	return 0
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// readPositions reads bench positions from the file name under the
// protocol's rule number and a size x size board.
func readPositions(name string, ruleNum, size int) ([]search.BenchPosition, error) {
	rule, err := eval.ParseRule(ruleNum)
	if err != nil {
		return nil, err
	}
	if size < eval.MinSize || size > eval.MaxSize {
		return nil, fmt.Errorf("size %d: want %d to %d", size, eval.MinSize, eval.MaxSize)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := search.ParsePositions(f, rule, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return list, nil
}

func bench(out io.Writer, positions []search.BenchPosition, depth, hashMB int, params *search.Params, cutStats bool) int {
	var stats *search.CutStats
	if cutStats {
		stats = new(search.CutStats)
	}
	res, err := search.Bench(positions, depth, hashMB, params, stats, func(line string) { fmt.Fprintln(out, line) })
	if err != nil {
		fmt.Fprintf(out, "bench: %v\n", err)
		return 1
	}
	if stats != nil {
		for _, l := range stats.Lines() {
			fmt.Fprintln(out, l)
		}
		for _, l := range stats.NodeLines() {
			fmt.Fprintln(out, l)
		}
	}
	fmt.Fprintf(out, "Total time (ms) : %d\nNodes searched  : %d\nNodes/second    : %d\n", res.Elapsed.Milliseconds(), res.Nodes, res.NPS())
	return 0
}
