package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"wuzi/match/elo"
	"wuzi/match/results"
)

const compareUsage = `wuzi-match compare sets a new build's match against the same match played
by a baseline: the same opponents and the same openings (the same --seed,
or --openings with --in-order). Each opening, played with both colours, is
one paired difference of points, so an opening that decides its games
whoever plays it cancels out; the error bar is the pairs' own, usually far
narrower than that of two separate scores. Several baseline files (runs of
the same baseline) are averaged opening by opening. Each build's score
as Black and as White on the paired openings follows.

A match played on several seeds pools: give each side's files joined by
commas, as NEW1.jsonl,NEW2.jsonl BASE1.jsonl,BASE2.jsonl; each opening of
any of them is paired with the same opening on the other side.

The engine under test is the first engine (-e) of each match. Only the
openings that every argument (one file, or the files joined by commas)
finished with both colours are counted.

Usage:
  wuzi-match compare [--opponent NAME] NEW.jsonl[,NEW.jsonl...] BASE.jsonl[,...] [BASE.jsonl[,...]...]

e.g.
  wuzi-match -e cmd=./new,name=Wuzi -e cmd=./rapfi,name=Rapfi --seed 7 -n 400 --results new.jsonl
  wuzi-match -e cmd=./old,name=Wuzi -e cmd=./rapfi,name=Rapfi --seed 7 -n 400 --results old.jsonl
  wuzi-match compare new.jsonl old.jsonl
  wuzi-match compare new-s7.jsonl,new-s8.jsonl old-s7.jsonl,old-s8.jsonl

Flags:
`

// runCompare is the compare subcommand.
func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := subcommandFlags("compare", compareUsage, stderr)
	var opponent string
	fs.StringVar(&opponent, "opponent", "", "count only the games against this opponent (by name; default: every opponent)")
	if rc, ok := parseSubcommand(fs, "compare", args, stderr); !ok {
		return rc
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "wuzi-match compare: want a new results file and at least one baseline (try --help)")
		return 2
	}
	sides := fs.Args()
	per := make([]map[pairKey]openingScore, len(sides))
	var first results.File
	for i, side := range sides {
		files, ok := readResults("compare", strings.Split(side, ","), stderr)
		if !ok {
			return 1
		}
		if i == 0 {
			first = files[0]
		}
		per[i] = map[pairKey]openingScore{}
		for _, f := range files {
			if err := comparable(first.Header, f.Header); err != nil {
				fmt.Fprintf(stderr, "wuzi-match compare: %s and %s: %v\n", first.Name, f.Name, err)
				return 1
			}
			for k, o := range openingPoints(f, opponent) {
				per[i][k] = per[i][k].add(o)
			}
		}
	}
	var keys []pairKey
	for k := range per[0] {
		inAll := true
		for _, m := range per[1:] {
			if _, ok := m[k]; !ok {
				inAll = false
				break
			}
		}
		if inAll {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		fmt.Fprintln(stderr, "wuzi-match compare: no opening was finished with both colours in every argument")
		return 1
	}
	slices.SortFunc(keys, func(a, b pairKey) int {
		if c := strings.Compare(a.opponent, b.opponent); c != 0 {
			return c
		}
		return strings.Compare(a.opening, b.opening)
	})
	newPts := make([]float64, len(keys))
	basePts := make([]float64, len(keys))
	// The mean points per game with each colour over the paired openings,
	// of the new build and of the baselines (averaged as the pairs are).
	var newCol, baseCol [2]float64
	for i, k := range keys {
		newPts[i] = per[0][k].mean()
		for _, m := range per[1:] {
			basePts[i] += m[k].mean()
		}
		basePts[i] /= float64(len(per) - 1)
		for c := range 2 {
			newCol[c] += per[0][k].colour(c)
			for _, m := range per[1:] {
				baseCol[c] += m[k].colour(c) / float64(len(per)-1)
			}
		}
	}
	p := elo.ComparePaired(newPts, basePts)
	if 2*len(keys) < len(per[0]) {
		fmt.Fprintf(stderr, "wuzi-match compare: only %d of the %d openings of %s are in every argument: were the matches played with the same --seed (or --openings --in-order)?\n",
			len(keys), len(per[0]), sides[0])
	}
	baseNames := sides[1:]
	against := "every opponent"
	if opponent != "" {
		against = opponent
	}
	fmt.Fprintf(stdout, "Paired by opening against %s: %d openings, each played with both colours in every argument\n", against, p.Openings)
	fmt.Fprintf(stdout, "  new       %-40s score %.3f\n", sides[0], p.Score)
	fmt.Fprintf(stdout, "  baseline  %-40s score %.3f\n", strings.Join(baseNames, ", "), p.BaseScore)
	fmt.Fprintf(stdout, "  difference %+.3f ± %.3f (95%%), about %s ± %s Elo\n", p.Diff, p.DiffMargin, signed(p.Elo()), plain(p.EloMargin()))
	fmt.Fprintf(stdout, "  (the same scores unpaired: ± %.3f, ± %s Elo)\n", p.Unpaired, plain(p.UnpairedElo()))
	for c, name := range []string{"Black", "White"} {
		nc, bc := newCol[c]/float64(len(keys)), baseCol[c]/float64(len(keys))
		fmt.Fprintf(stdout, "  as %s: new %.3f, baseline %.3f, difference %+.3f\n", name, nc, bc, nc-bc)
	}
	return 0
}

// pairKey names an opening of a match: the opponent and the opening's
// stones.
type pairKey struct{ opponent, opening string }

// openingScore is the engine under test's points on one opening, kept by
// the colour it played: index 0 as Black, 1 as White.
type openingScore struct {
	pts [2]float64
	n   [2]int
}

// add is the points of o and of p together: the games of one opening in
// two runs of one build.
func (o openingScore) add(p openingScore) openingScore {
	for c := range 2 {
		o.pts[c] += p.pts[c]
		o.n[c] += p.n[c]
	}
	return o
}

// mean is the points per game over both colours.
func (o openingScore) mean() float64 {
	return (o.pts[0] + o.pts[1]) / float64(o.n[0]+o.n[1])
}

// colour is the points per game with one colour (0 Black, 1 White).
func (o openingScore) colour(c int) float64 {
	return o.pts[c] / float64(o.n[c])
}

// openingPoints is, for each opening played with both colours, the points
// of the engine under test (engine 0) by the colour it played; only games
// against opponent when it is not empty.
func openingPoints(f results.File, opponent string) map[pairKey]openingScore {
	all := map[pairKey]openingScore{}
	for _, g := range f.Games {
		if g.Opponent <= 0 || g.Opponent >= len(f.Header.Names) {
			continue
		}
		name := f.Header.Names[g.Opponent]
		if opponent != "" && name != opponent {
			continue
		}
		k := pairKey{name, g.Opening}
		pts := 0.5
		switch {
		case g.Result == "1-0":
			pts = b2f(g.BlackEngine == 0)
		case g.Result == "0-1":
			pts = b2f(g.WhiteEngine == 0)
		}
		c := 1
		if g.BlackEngine == 0 {
			c = 0
		}
		o := all[k]
		o.pts[c] += pts
		o.n[c]++
		all[k] = o
	}
	out := map[pairKey]openingScore{}
	for k, o := range all {
		if o.n[0] > 0 && o.n[1] > 0 {
			out[k] = o
		}
	}
	return out
}

// comparable says why two matches cannot be paired game for game: another
// board, rule, time control or opponent. The engine under test may differ
// in anything.
func comparable(a, b results.Header) error {
	switch {
	case a.Width != b.Width || a.Height != b.Height:
		return fmt.Errorf("boards %dx%d and %dx%d", a.Width, a.Height, b.Width, b.Height)
	case a.Rule != b.Rule:
		return fmt.Errorf("rules %d and %d", a.Rule, b.Rule)
	case a.TurnMS != b.TurnMS || a.MatchMS != b.MatchMS:
		// The opponents' time; time odds for the engine under test go in
		// its own option=timeout_turn=….
		return fmt.Errorf("time controls differ (%d ms a move and %d ms a game, against %d ms a move and %d ms a game)", a.TurnMS, a.MatchMS, b.TurnMS, b.MatchMS)
	case len(a.Engines) != len(b.Engines):
		return fmt.Errorf("%d and %d engines", len(a.Engines), len(b.Engines))
	}
	for i := 1; i < len(a.Engines); i++ {
		ea, eb := a.Engines[i], b.Engines[i]
		if a.Names[i] != b.Names[i] || !slices.EqualFunc(ea.Options, eb.Options, slices.Equal[[]string]) {
			return fmt.Errorf("opponent %d differs (%s %v, %s %v)", i, a.Names[i], ea.Options, b.Names[i], eb.Options)
		}
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// signed formats an Elo difference with its sign, ±inf, or n/a when both
// scores are perfect (or nil).
func signed(e float64) string {
	switch {
	case math.IsNaN(e):
		return "n/a"
	case math.IsInf(e, 0):
		return fmt.Sprintf("%+v", e)
	}
	return fmt.Sprintf("%+.0f", e)
}

// plain formats an Elo margin.
func plain(e float64) string {
	switch {
	case math.IsNaN(e):
		return "n/a"
	case math.IsInf(e, 0):
		return "inf"
	}
	return fmt.Sprintf("%.0f", e)
}
