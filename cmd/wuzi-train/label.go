package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/match/engine"
	"wuzi/selfplay"
	"wuzi/train"
)

// runLabel is `wuzi-train label`: it gives each position of self-play
// files to an engine and writes the positions again with the engine's
// score, depth and best move, grouped by rule and size.
func runLabel(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train label", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("engine", "", "the labelling engine, as wuzi-match takes it (cmd=PROGRAM,dir=DIR,option=KEY=VALUE)")
	turn := fs.Duration("turn", 5*time.Second, "timeout_turn the engine is given (limit it with option=max_node=N for a fixed effort)")
	jobs := fs.IntP("jobs", "j", 1, "engine processes at once")
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	rules := fs.String("rules", "", "keep only these rules (comma-separated names); default all")
	every := fs.Int("every", 1, "label every Nth position only")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train label --engine SPEC [flags] positions.txt...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *spec == "" || fs.NArg() == 0 || *jobs < 1 || *every < 1 || *turn <= 0 {
		fs.Usage()
		return 2
	}
	sp, err := engine.ParseSpec(*spec)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 2
	}
	keep := map[eval.Rule]bool{}
	if *rules != "" {
		for _, name := range strings.Split(*rules, ",") {
			r, err := selfplay.ParseRuleName(strings.TrimSpace(name))
			if err != nil {
				fmt.Fprintln(stderr, "wuzi-train:", err)
				return 2
			}
			keep[r] = true
		}
	}
	var ps []selfplay.Position
	n := 0
	if err := eachPosition(fs.Args(), func(p selfplay.Position) {
		if len(keep) > 0 && !keep[p.Rule] {
			return
		}
		if n++; (n-1)%*every == 0 {
			ps = append(ps, p)
		}
	}); err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	// Grouped by rule and size (stable), an engine is started once per
	// group instead of once per game.
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Rule != ps[j].Rule {
			return ps[i].Rule < ps[j].Rule
		}
		return ps[i].Size < ps[j].Size
	})
	bw, finish, err := createOutput(*out, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	defer finish() // on the early returns

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	// Jobs label positions i ≡ job (mod jobs); lines are written in input
	// order as they complete.
	done := make([]chan struct{}, len(ps))
	res := make([]selfplay.Position, len(ps))
	okAt := make([]bool, len(ps))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	for j := 0; j < *jobs; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			l := train.NewLabeler(sp, *turn)
			defer l.Close()
			for i := j; i < len(ps); i += *jobs {
				if ctx.Err() == nil {
					p, ok, err := l.Label(ctx, ps[i])
					if err != nil && ctx.Err() == nil {
						mu.Lock()
						failures++
						if failures <= 5 {
							fmt.Fprintf(stderr, "wuzi-train: %s: %v\n", ps[i].String(), err)
						}
						mu.Unlock()
					}
					res[i], okAt[i] = p, ok && err == nil
				}
				close(done[i])
			}
		}(j)
	}
	start := time.Now()
	labelled := 0
	for i := range ps {
		<-done[i]
		if ctx.Err() != nil {
			break
		}
		if okAt[i] {
			bw.Write(res[i].AppendLine(nil))
			labelled++
		}
		if (i+1)%500 == 0 {
			el := time.Since(start)
			fmt.Fprintf(stderr, "labelled %d/%d  %.0f/s  ETA %s\n", i+1, len(ps), float64(i+1)/el.Seconds(),
				time.Duration(float64(el)/float64(i+1)*float64(len(ps)-i-1)).Round(time.Second))
		}
	}
	// Interrupted (by a signal) is read before the cancel below, which
	// stops the workers and so always sets the context's error.
	interrupted := ctx.Err() != nil
	cancel()
	wg.Wait()
	fmt.Fprintf(stderr, "labelled %d of %d positions (%d engine failures) in %s\n", labelled, len(ps), failures, time.Since(start).Round(time.Second))
	if err := finish(); err != nil {
		fmt.Fprintln(stderr, "wuzi-train: writing the labelled positions:", err)
		return 1
	}
	if interrupted && labelled < len(ps) {
		return 1
	}
	return 0
}

// eachPosition calls fn with every position of the self-play files names
// (plain or gzipped), in order; lines that are not positions are skipped.
func eachPosition(names []string, fn func(selfplay.Position)) error {
	for _, name := range names {
		f, err := openInput(name)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if p, err := selfplay.ParseLine(sc.Text()); err == nil {
				fn(p)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
