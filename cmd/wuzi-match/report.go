package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/engine"
	"wuzi/match/htmlreport"
	"wuzi/match/record"
	"wuzi/match/results"
)

// reporter prints progress and results and saves the games. Run calls its
// game method from one goroutine at a time.
type reporter struct {
	w        io.Writer
	o        options
	cfg      match.Config
	tty      bool // stdout is a terminal: one progress line rewritten with \r
	progress bool // a progress line is on screen
	shown    bool // the demonstration has shown a board
	fileErrs []error
	start    time.Time // when the match began, for the ETA

	header  results.Header
	games   []results.Game // counted games, in counting order, for the HTML report
	resFile *os.File
	res     *results.Writer
	note    string // a line under the HTML report's title
}

func newReporter(w io.Writer, o options, cfg match.Config) *reporter {
	r := &reporter{w: w, o: o, cfg: cfg, start: time.Now(), header: results.NewHeader(cfg)}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			r.tty = true
		}
	}
	return r
}

// open creates the results file, with its header, and a first report
// page (no game yet), when they are asked for.
func (r *reporter) open() error {
	if r.o.report != "" {
		total := 0
		for n := 1; n <= r.header.Total; n++ {
			if r.cfg.Shard.Has(n) {
				total++
			}
		}
		sum := match.NewSummary(r.header.Names, total)
		sum.Openings, sum.Random, sum.Seed, sum.Shard = r.header.OpeningsIn, r.cfg.Random, r.cfg.Seed, r.cfg.Shard
		engines := r.cfg.Engines
		if len(engines) == 1 {
			engines = []engine.Spec{engines[0], engines[0]}
		}
		for i, sp := range engines {
			if es, err := r.cfg.Settings.ForEngine(sp); err == nil {
				sum.MemoryLimits[i] = es.MemoryLimit
			}
		}
		r.writeReport(sum, true)
		if len(r.fileErrs) > 0 {
			return r.fileErrs[0]
		}
	}
	if r.o.results == "" {
		return nil
	}
	f, err := os.Create(r.o.results)
	if err != nil {
		return err
	}
	r.resFile = f
	r.res, err = results.NewWriter(f, r.header)
	return err
}

// close closes the results file.
func (r *reporter) close() {
	if r.resFile != nil {
		if err := r.resFile.Close(); err != nil {
			r.fileErrs = append(r.fileErrs, err)
		}
		r.resFile = nil
	}
}

// writeReport writes the HTML report when one is asked for.
func (r *reporter) writeReport(sum *match.Summary, running bool) {
	if r.o.report == "" {
		return
	}
	err := htmlreport.WriteFile(r.o.report, htmlreport.Page{Header: r.header, Games: r.games, Summary: sum,
		Running: running, Updated: time.Now(), Note: r.note})
	if err != nil {
		r.fileErrs = append(r.fileErrs, err)
	}
}

// eta estimates the time left from the time the finished games took.
func eta(elapsed time.Duration, done, total int) time.Duration {
	if done <= 0 || done >= total {
		return 0
	}
	return (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second)
}

// say prints a whole line, above the progress line on a terminal.
func (r *reporter) say(format string, a ...any) {
	if r.progress {
		fmt.Fprint(r.w, "\r\x1b[K")
		r.progress = false
	}
	fmt.Fprintf(r.w, format+"\n", a...)
}

func (r *reporter) endProgress() {
	if r.progress {
		fmt.Fprintln(r.w)
		r.progress = false
	}
}

// eloText formats an Elo difference and its margin.
func eloText(res elo.Result) string { return htmlreport.EloText(res) }

func resultText(res elo.Result) string {
	return fmt.Sprintf("W-L-D %d-%d-%d  score %.1f%%  Elo %s", res.Wins, res.Losses, res.Draws, 100*res.Score(), eloText(res))
}

func (r *reporter) game(d match.Done, sum *match.Summary) {
	g := d.Result
	r.save(d)
	if r.res != nil {
		if err := r.res.Add(d); err != nil {
			r.fileErrs = append(r.fileErrs, err)
		}
	}
	r.games = append(r.games, results.FromDone(d))
	r.writeReport(sum, true)
	outcome := "draw"
	switch g.Winner {
	case eval.Black:
		outcome = "1-0"
	case eval.White:
		outcome = "0-1"
	}
	failed := g.Record.Failure
	if !r.o.quiet && (!r.tty || failed || r.o.boards) {
		r.say("game %d/%d  %s (Black) vs %s (White): %s by %s after %d stones%s",
			d.Job.Number, sum.Total, sum.Names[d.Black], sum.Names[d.White], outcome, g.Reason,
			len(g.Record.Moves), detailText(g.Detail))
	}
	if failed {
		for _, l := range g.Output {
			r.say("    | %s", l)
		}
	}
	if r.o.boards || (r.o.demo && !r.shown) {
		r.shown = true
		r.say("%s", record.Text(&g.Record))
	}
	if r.o.quiet {
		return
	}
	all := sum.Overall()
	line := fmt.Sprintf("[%d/%d] %s", sum.Done, sum.Total, resultText(all))
	if r.cfg.SPRT != nil {
		lo, hi := r.cfg.SPRT.Bounds()
		line += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", r.cfg.SPRT.LLR(all), lo, hi)
	}
	if left := eta(time.Since(r.start), sum.Done, sum.Total); left > 0 {
		line += "  ETA " + left.String()
	}
	if r.tty {
		fmt.Fprint(r.w, "\r\x1b[K"+line)
		r.progress = true
	} else {
		fmt.Fprintln(r.w, line)
	}
}

func detailText(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// save writes the game's PSQ, SGF and MESSAGE files as asked.
func (r *reporter) save(d match.Done) {
	g := d.Result
	name := fmt.Sprintf("game-%04d", d.Job.Number)
	write := func(path string, flag int, fn func(io.Writer) error) {
		f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			err = fn(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			r.fileErrs = append(r.fileErrs, err)
		}
	}
	if r.o.psqDir != "" {
		write(filepath.Join(r.o.psqDir, name+".psq"), os.O_TRUNC, func(w io.Writer) error {
			return record.WritePSQ(w, &g.Record)
		})
	}
	if r.o.sgfFile != "" {
		write(r.o.sgfFile, os.O_APPEND, func(w io.Writer) error { return record.WriteSGF(w, &g.Record) })
	}
	if r.o.msgDir != "" && len(g.Messages) > 0 {
		write(filepath.Join(r.o.msgDir, name+".txt"), os.O_TRUNC, func(w io.Writer) error {
			var b strings.Builder
			fmt.Fprintf(&b, "# %s (Black) vs %s (White)\n", g.Record.Black, g.Record.White)
			for _, m := range g.Messages {
				who := g.Record.Black
				if m.Color == eval.White {
					who = g.Record.White
				}
				fmt.Fprintf(&b, "move %d %s: %s\n", m.Ply+1, who, m.Text)
			}
			_, err := io.WriteString(w, b.String())
			return err
		})
	}
}

// reasons formats counts by reason, most frequent first.
func reasons(m map[match.Reason]int) string { return htmlreport.Reasons(m) }

func ms(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// final prints the result table.
func (r *reporter) final(sum *match.Summary) {
	s := r.cfg.Settings
	fmt.Fprintln(r.w)
	fmt.Fprintf(r.w, "%s, %dx%d, %v a move, %v a game, tolerance %v, %d openings",
		s.Rule, s.Width, s.Height, s.TurnTime, matchTimeText(s.MatchTime), s.Tolerance, sum.Openings)
	if sum.SkippedOpenings > 0 {
		fmt.Fprintf(r.w, " (%d too wide for the board left out)", sum.SkippedOpenings)
	}
	fmt.Fprintln(r.w)
	if sum.Random {
		fmt.Fprintf(r.w, "Openings drawn with seed %d (--seed %d replays them).\n", sum.Seed, sum.Seed)
	}
	if sum.Shard.Count > 1 {
		fmt.Fprintf(r.w, "Shard %s: games %d, %d, ... of the schedule; wuzi-match merge puts the shards together.\n",
			sum.Shard, sum.Shard.Index+1, sum.Shard.Index+1+sum.Shard.Count)
	}
	if sum.Stopped != "" {
		fmt.Fprintf(r.w, "Stopped: %s after %d of %d games.\n", sum.Stopped, sum.Done, sum.Total)
	}
	for _, e := range sum.Errors {
		fmt.Fprintln(r.w, "error:", e)
	}
	width := len(sum.Names[0])
	for _, n := range sum.Names {
		width = max(width, len(n))
	}
	fmt.Fprintf(r.w, "\n%-*s  %5s  %4s %4s %4s  %6s  %s\n", width, sum.Names[0]+" vs", "games", "W", "L", "D", "score", "Elo (95%)")
	for _, t := range sum.Pairs {
		fmt.Fprintf(r.w, "%-*s  %5d  %4d %4d %4d  %5.1f%%  %s\n", width, t.Opponent, t.Games(), t.Wins, t.Losses, t.Draws, 100*t.Score(), eloText(t.Result))
	}
	if len(sum.Pairs) > 1 {
		all := sum.Overall()
		fmt.Fprintf(r.w, "%-*s  %5d  %4d %4d %4d  %5.1f%%  %s\n", width, "total", all.Games(), all.Wins, all.Losses, all.Draws, 100*all.Score(), eloText(all))
	}
	fmt.Fprintln(r.w)
	for _, t := range sum.Pairs {
		if len(sum.Pairs) > 1 {
			fmt.Fprintf(r.w, "against %s:\n", t.Opponent)
		}
		fmt.Fprintf(r.w, "  as Black:  %s\n  as White:  %s\n", htmlreport.ColorText(t.AsBlack), htmlreport.ColorText(t.AsWhite))
		fmt.Fprintf(r.w, "  wins by:   %s\n  losses by: %s\n  draws by:  %s\n", reasons(t.WinsBy), reasons(t.LossesBy), reasons(t.DrawsBy))
	}
	if r.cfg.SPRT != nil {
		t := r.cfg.SPRT
		lo, hi := t.Bounds()
		fmt.Fprintf(r.w, "SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.3f, bounds (%.3f, %.3f): %s\n",
			t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR(sum.Pairs[0].Result), lo, hi, t.Decide(sum.Pairs[0].Result))
	}
	fmt.Fprintln(r.w, "move times:")
	for i, n := range sum.Names {
		med, worst := sum.MoveTime(i)
		fmt.Fprintf(r.w, "  %-*s  median %s, worst %s, %d moves\n", width, n, ms(med), ms(worst), len(sum.MoveTimes[i]))
	}
	if !engine.MemoryMeasured() {
		fmt.Fprintln(r.w, "peak memory: not measured on this system (Linux only)")
		return
	}
	fmt.Fprintln(r.w, "peak memory (USS of the process tree while thinking) against each engine's limit:")
	for i, n := range sum.Names {
		limit := "no limit"
		if l := sum.MemoryLimits[i]; l > 0 {
			limit = "limit " + mib(l)
		}
		fmt.Fprintf(r.w, "  %-*s  %s, %s\n", width, n, mib(sum.PeakMemory[i]), limit)
	}
}

// mib formats bytes in MiB, which Gomocup calls MB (its 350 MB limit is
// 367001600 bytes).
func mib(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

func matchTimeText(d time.Duration) string {
	if d <= 0 {
		return "no limit"
	}
	return d.String()
}
