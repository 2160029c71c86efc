package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"wuzi/match/results"
)

const mergeUsage = `wuzi-match merge puts together the results files of a match's shards
(--shard I/N --results FILE) and prints the report of the whole match: the
games counted in schedule order, an SPRT stopped where it is decided, as one
process playing one game at a time would have.

Usage:
  wuzi-match merge [--report FILE.html] [--results FILE.jsonl] RESULTS.jsonl...

Flags:
`

// runMerge is the merge subcommand.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := subcommandFlags("merge", mergeUsage, stderr)
	var report, out string
	fs.StringVar(&report, "report", "", "write the HTML report of the merged match to this file")
	fs.StringVar(&out, "results", "", "write the merged games to this file, as one results file")
	if rc, ok := parseSubcommand(fs, "merge", args, stderr); !ok {
		return rc
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "wuzi-match merge: no results file given (try --help)")
		return 2
	}
	files, ok := readResults("merge", fs.Args(), stderr)
	if !ok {
		return 1
	}
	m, err := results.Merge(files)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-match merge:", err)
		return 1
	}
	cfg, err := m.Header.Config()
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-match merge:", err)
		return 1
	}
	o := options{report: report}
	r := newReporter(stdout, o, cfg)
	r.header, r.games = m.Header, m.Games
	r.note = fmt.Sprintf("merged from %d results file(s): %s", len(files), strings.Join(fs.Args(), ", "))
	fmt.Fprintf(stdout, "Merged %d files: %d of %d games", len(files), len(m.Games)+m.Uncounted, m.Header.Total)
	if m.Duplicates > 0 {
		fmt.Fprintf(stdout, ", %d found twice (counted once)", m.Duplicates)
	}
	if m.Uncounted > 0 {
		fmt.Fprintf(stdout, ", %d after the SPRT's decision not counted", m.Uncounted)
	}
	fmt.Fprintln(stdout, ".")
	if len(m.Missing) > 0 {
		fmt.Fprintf(stdout, "Missing games: %s.\n", numbers(m.Missing))
	}
	r.final(m.Summary)
	r.writeReport(m.Summary, false)
	if out != "" {
		if err := writeMerged(out, m); err != nil {
			r.fileErrs = append(r.fileErrs, err)
		}
	}
	for _, e := range r.fileErrs {
		fmt.Fprintln(stderr, "wuzi-match merge:", e)
	}
	if len(r.fileErrs) > 0 {
		return 1
	}
	return 0
}

// numbers lists game numbers, at most 20 of them.
func numbers(ns []int) string {
	parts := make([]string, 0, min(len(ns), 21))
	for i, n := range ns {
		if i == 20 {
			parts = append(parts, fmt.Sprintf("... (%d in all)", len(ns)))
			break
		}
		parts = append(parts, fmt.Sprint(n))
	}
	return strings.Join(parts, ", ")
}

// writeMerged writes the merged games as one results file of the whole
// match.
func writeMerged(path string, m *results.Merged) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := results.NewWriter(f, m.Header)
	for _, g := range m.Games {
		if err == nil {
			err = w.Add(g.Done(m.Header))
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readResults reads the results files names for the subcommand cmd,
// saying on stderr which file is unreadable (ok false) or cut short.
func readResults(cmd string, names []string, stderr io.Writer) (files []results.File, ok bool) {
	for _, name := range names {
		f, err := results.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "wuzi-match %s: %v\n", cmd, err)
			return nil, false
		}
		if f.Truncated {
			fmt.Fprintf(stderr, "wuzi-match %s: %s: the last line is cut short; that game is left out\n", cmd, name)
		}
		files = append(files, f)
	}
	return files, true
}

// subcommandFlags is the flag set of the subcommand cmd, whose --help
// prints usage and then the flags.
func subcommandFlags(cmd, usage string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("wuzi-match "+cmd, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseSubcommand parses args into fs. When it returns ok false the
// subcommand ends with rc: 0 after --help, 2 on a bad flag (said on
// stderr).
func parseSubcommand(fs *pflag.FlagSet, cmd string, args []string, stderr io.Writer) (rc int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, false
		}
		fmt.Fprintf(stderr, "wuzi-match %s: %v (try --help)\n", cmd, err)
		return 2, false
	}
	return 0, true
}
