// Command wuzi-train fits the evaluation's weight tables to self-play
// positions (the files `pbrain-wuzi selfplay` writes) and writes one
// weights file per rule family, which the engine embeds from eval/weights.
//
//	wuzi-train [flags] positions.txt...
//	wuzi-train label --engine SPEC [flags] positions.txt...
//	wuzi-train games [flags] results.jsonl...
//	wuzi-train perturb [flags] positions.txt...
//	wuzi-train leaves [flags] positions.txt...
//	wuzi-train scale [flags]
//	wuzi-train order [flags] positions.txt...
//	wuzi-train copy --families F FILE
package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/search"
	"wuzi/train"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "label" {
		return runLabel(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "games" {
		return runGames(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "perturb" {
		return runPerturb(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "leaves" {
		return runLeaves(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "scale" {
		return runScale(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "diff" {
		return runDiff(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "order" {
		return runOrder(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "copy" {
		return runCopy(args[1:], stdout, stderr)
	}
	fs := pflag.NewFlagSet("wuzi-train", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "eval/weights", "folder the weights files are written to (<family>.bin)")
	families := fs.String("families", "freestyle,standard,renju,caro", "rule families to fit, comma-separated")
	start := fs.String("start", "prior", "weights the fit starts from and is regularised towards: prior (hand-set) or embedded (this build's)")
	epochs := fs.Int("epochs", 300, "full-batch Adam steps")
	rate := fs.Float64("rate", 1, "Adam step size, in evaluation units")
	l2 := fs.Float64("l2", 0.0002, "L2 pull towards the start weights (see docs/training.md)")
	lambda := fs.Float64("lambda", 0.5, "share of the game result in the target (the rest is the search score)")
	k := fs.Float64("k", 0, "logistic scale; 0 fits it to the start weights")
	scoreScale := fs.Float64("score-scale", 0, "scale of the positions' scores (win probability sigmoid(score/S)); 0 fits it to the results")
	seed := fs.Uint64("seed", 1, "seed of the holdout split")
	holdout := fs.Int("holdout", 10, "percent of games held out to measure the fit")
	every := fs.Int("every", 25, "print the losses every N epochs")
	freezeOpening := fs.Bool("freeze-opening", false, "keep the opening's cell tables (Attack, Defend) at the start's values: fit only the late game's tables and the threat table")
	symmetric := fs.Bool("symmetric", false, "fit side-symmetric cell tables (a cell's value for a side the same whoever is to move: the defence tables made the attack tables), from the mean of the start's two")
	keepTempo := fs.Bool("keep-tempo", false, "keep each cell's attack/defence difference (its share of the side to move's tempo) at the start's value: fit only the cell's shape value, the mean of the two")
	untieThreat := fs.Bool("untie-threat", false, "fit Black's and White's threat tables apart (the colours' other tables stay one, outside renju)")
	fitOnly := fs.String("fit-only", "", "fit one part and keep the rest at the start's values: threat (the threat table), cells (every cell table), class0 to class3 or fours (the cell tables of one class of shape codes: a lone stone or less, a two, a closed three, an open three, a four or better), class0+threat")
	onePhase := fs.Bool("one-phase", false, "fit one set of cell tables for the whole game (the late game's tables made equal to the opening's)")
	scoresOnly := fs.StringSlice("scores-only", nil, "input files of positions no game reached (wuzi-train perturb, then label): fitted to their scores alone")
	polEpochs := fs.Int("policy-epochs", 200, "full-batch Adam steps of the move-ordering fit (0: keep the start's move order)")
	polRate := fs.Float64("policy-rate", 4, "Adam step size of the move-ordering fit")
	polL2 := fs.Float64("policy-l2", 0.001, "L2 pull of the move-ordering tables towards the start")
	proven := fs.Int("proven-weight", 1, "weight of the positions whose score is a proven win or loss (0 leaves them out)")
	rankWeight := fs.Float64("rank-weight", 0, "weight of the rank loss (the evaluation asked to rank the positions after the chosen move and after other candidates, as the search compares them) against the value loss; 0: values only")
	rankTop := fs.Bool("rank-top", false, "draw a rank sample's other children among the move order's best, not at random")
	rankKids := fs.Int("rank-kids", 12, "children of a position in its rank sample: the chosen move and a seeded draw of the other candidates")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train [flags] positions.txt...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *start != "prior" && *start != "embedded" {
		fmt.Fprintf(stderr, "wuzi-train: --start %q: want prior or embedded\n", *start)
		return 2
	}
	if *epochs < 0 || *polEpochs < 0 || *polRate <= 0 || *polL2 < 0 || *rate <= 0 || *l2 < 0 || *lambda < 0 || *lambda > 1 || *holdout < 0 || *holdout >= 100 || *k < 0 || *scoreScale < 0 || *every < 1 || *proven < 0 || *rankWeight < 0 || *rankKids < 2 {
		fmt.Fprintln(stderr, "wuzi-train: a flag is out of range")
		return 2
	}
	frozen, ok := frozenBy(*fitOnly)
	if !ok {
		fmt.Fprintf(stderr, "wuzi-train: --fit-only %q: want threat, cells, class0 to class3, fours or class0+threat\n", *fitOnly)
		return 2
	}
	if frozen != nil && *freezeOpening {
		fmt.Fprintln(stderr, "wuzi-train: --fit-only and --freeze-opening together: choose one")
		return 2
	}
	if *keepTempo && *symmetric {
		fmt.Fprintln(stderr, "wuzi-train: --keep-tempo and --symmetric together: a symmetric fit has no tempo part to keep")
		return 2
	}
	if *onePhase && *freezeOpening {
		fmt.Fprintln(stderr, "wuzi-train: --one-phase and --freeze-opening together would fit no cell table")
		return 2
	}
	fams, err := familiesByName(*families)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 2
	}
	want := map[eval.Family]bool{}
	for _, f := range fams {
		want[f] = true
	}

	t0 := time.Now()
	var ps []train.Position
	var st train.ReadStats
	for _, name := range *scoresOnly {
		if !slices.Contains(fs.Args(), name) {
			fmt.Fprintf(stderr, "wuzi-train: --scores-only %s: not among the input files\n", name)
			return 2
		}
	}
	for i, name := range fs.Args() {
		f, err := openInput(name)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train:", err)
			return 1
		}
		n0 := len(ps)
		opt := train.ReadOptions{File: i, Seed: *seed, HoldoutPct: *holdout, Keep: func(f eval.Family) bool { return want[f] }}
		if *rankWeight > 0 {
			opt.RankKids, opt.RankTop = *rankKids, *rankTop
		}
		ps, err = train.ReadPositions(f, opt, ps, &st)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "wuzi-train: %s: %v\n", name, err)
			return 1
		}
		if slices.Contains(*scoresOnly, name) {
			for j := n0; j < len(ps); j++ {
				ps[j].ScoreOnly = true
			}
		}
	}
	if *onePhase {
		for i := range ps {
			ps[i].Sample.OnePhase()
			ps[i].Rank.OnePhase()
		}
	}
	if *symmetric {
		for i := range ps {
			ps[i].Sample.SideSymmetric()
			ps[i].Rank.SideSymmetric()
		}
	}
	nProven := 0
	for _, p := range ps {
		if search.IsMate(p.Score) {
			nProven++
		}
	}
	ps = train.WeightProven(ps, *proven)
	fmt.Fprintf(stdout, "read %d lines: %d positions (%d of them proven wins or losses, weighed %d times), %d decided (left out), %d bad, in %s\n",
		st.Lines, len(ps), nProven, *proven, st.Decided, st.Bad, time.Since(t0).Round(time.Millisecond))
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}

	for f := eval.Family(0); f < eval.NumFamilies; f++ {
		if !want[f] {
			continue
		}
		var fam []train.Position
		for _, p := range ps {
			if p.Family == f {
				fam = append(fam, p)
			}
		}
		if len(fam) == 0 {
			fmt.Fprintf(stdout, "%s: no positions, no file written\n", f)
			continue
		}
		t1 := time.Now()
		w0 := eval.PriorWeights(f)
		if *start == "embedded" {
			var err error
			if w0, err = eval.EmbeddedWeights(f); err != nil {
				fmt.Fprintln(stderr, "wuzi-train:", err)
				return 1
			}
		}
		p0 := train.Params(w0)
		if *symmetric {
			train.SymmetricStart(p0)
		}
		samples := make([]train.Sample, len(fam))
		if !slices.ContainsFunc(fam, func(p train.Position) bool { return !p.ScoreOnly }) && (*k == 0 || *scoreScale == 0) {
			fmt.Fprintf(stderr, "wuzi-train: %s: every position is --scores-only, so no game result can fit the scales: give --k and --score-scale\n", f)
			return 2
		}
		scale := *k
		if scale == 0 {
			// K is fitted to the games' results: positions no game
			// reached have none.
			var played []train.Position
			for _, p := range fam {
				if !p.ScoreOnly {
					p.Target = p.Result
					played = append(played, p)
				}
			}
			copySamples(samples, played)
			scale = train.FitScale(samples[:len(played)], p0)
		}
		sScale := *scoreScale
		if sScale == 0 {
			sScale = train.FitScoreScale(fam)
		}
		train.SetTargets(fam, *lambda, sScale)
		copySamples(samples, fam)
		nHold := 0
		for _, s := range samples {
			if s.Holdout {
				nHold++
			}
		}
		fmt.Fprintf(stdout, "%s: %d positions (%d held out), K %.0f, score scale %.0f, start loss %.5f, holdout %.5f (a perfect fit: %.5f)\n",
			f, len(samples), nHold, scale, sScale, train.Loss(samples, p0, scale, false), train.Loss(samples, p0, scale, true), train.Entropy(samples, true))
		cfg := train.Config{
			K: scale, Epochs: *epochs, Rate: *rate, L2: *l2, Tied: f != eval.FamilyRenju,
			Progress: func(epoch int, tr, ho float64) {
				if epoch%*every == 0 || epoch == *epochs {
					fmt.Fprintf(stdout, "%s: epoch %d  loss %.5f  holdout %.5f\n", f, epoch, tr, ho)
				}
			},
		}
		if *freezeOpening {
			cfg.Frozen = train.OpeningCellParam
		}
		if frozen != nil {
			cfg.Frozen = frozen
		}
		cfg.UntieThreat = *untieThreat
		cfg.KeepTempo = *keepTempo
		if *onePhase {
			train.TiePhases(p0)
		}
		var ranks []train.RankSample
		for i := range fam {
			if fam[i].HasRank {
				ranks = append(ranks, fam[i].Rank)
			}
		}
		showRank := func(what string, p []float64, t float64) {
			l, top1, mr := train.RankLoss(ranks, p, t, true)
			fmt.Fprintf(stdout, "%s: %s: rank temperature %.0f, holdout rank loss %.4f, chosen move's child best %.1f%%, below %.2f others on average\n", f, what, t, l, 100*top1, mr)
		}
		if len(ranks) > 0 {
			fmt.Fprintf(stdout, "%s: %d rank samples of up to %d children\n", f, len(ranks), *rankKids)
			showRank("start", p0, train.FitRankTemperature(ranks, p0))
		}
		p := train.FitWithRank(samples, ranks, p0, cfg, *rankWeight, func(epoch int, p []float64, t float64) {
			if epoch%*every == 0 || epoch == *epochs {
				showRank(fmt.Sprintf("epoch %d", epoch), p, t)
			}
		})
		if *onePhase {
			train.TiePhases(p)
		}
		if *symmetric {
			train.TieSides(p)
		}
		w := train.ToWeights(f, p)
		w.PolicyAttack, w.PolicyDefend = w0.PolicyAttack, w0.PolicyDefend
		if *polEpochs > 0 {
			var pol []train.PolicySample
			for i := range fam {
				if fam[i].HasPolicy {
					pol = append(pol, fam[i].Policy)
				}
			}
			q0 := train.PolicyParams(w0)
			temp := train.FitPolicyTemperature(pol, q0)
			l0, t0 := train.PolicyLoss(pol, q0, temp, true)
			fmt.Fprintf(stdout, "%s: move order: %d positions, temperature %.0f, holdout loss %.4f, best move first %.1f%%\n", f, len(pol), temp, l0, 100*t0)
			q := train.FitPolicy(pol, q0, train.Config{K: temp, Epochs: *polEpochs, Rate: *polRate, L2: *polL2, Tied: f != eval.FamilyRenju,
				Progress: func(epoch int, tr, ho float64) {
					if epoch%*every == 0 || epoch == *polEpochs {
						fmt.Fprintf(stdout, "%s: move order epoch %d  loss %.4f  holdout %.4f\n", f, epoch, tr, ho)
					}
				}})
			l1, t1 := train.PolicyLoss(pol, q, temp, true)
			fmt.Fprintf(stdout, "%s: move order fitted: holdout loss %.4f, best move first %.1f%%\n", f, l1, 100*t1)
			train.SetPolicy(w, q)
		}
		path, n, err := writeWeights(*out, w)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: wrote %s (%d bytes) in %s\n", f, path, n, time.Since(t1).Round(time.Millisecond))
	}
	return 0
}

// frozenBy returns the parameters --fit-only keeps at their start (nil:
// none), and false for an unknown part.
func frozenBy(part string) (func(i int) bool, bool) {
	classes := map[string]int{"class0": 0, "class1": 1, "class2": 2, "class3": 3, "fours": -1}
	switch part {
	case "":
		return nil, true
	case "threat":
		return func(i int) bool { return !train.ThreatParam(i) }, true
	case "cells":
		return train.ThreatParam, true
	case "class0+threat":
		return func(i int) bool { return !train.ThreatParam(i) && !train.CellClassParam(i, 0) }, true
	}
	k, ok := classes[part]
	if !ok {
		return nil, false
	}
	return func(i int) bool { return !train.CellClassParam(i, k) }, true
}

// writeWeights writes w as dir/<family>.bin and returns the file's path
// and size. A renju file is written with Black's fouls cleared
// (eval.Weights.ClearRenjuFouls, which changes w so): whatever a fit or a
// copy gave them, they are worth nothing.
func writeWeights(dir string, w *eval.Weights) (string, int, error) {
	w.ClearRenjuFouls()
	data, err := w.MarshalBinary()
	if err != nil {
		return "", 0, err
	}
	path := filepath.Join(dir, w.Family.String()+".bin")
	return path, len(data), os.WriteFile(path, data, 0o644)
}

func copySamples(dst []train.Sample, src []train.Position) {
	for i := range src {
		dst[i] = src[i].Sample
	}
}

// familiesByName parses a comma-separated list of family names; the error
// names the first unknown one.
func familiesByName(list string) ([]eval.Family, error) {
	var out []eval.Family
	for _, name := range strings.Split(list, ",") {
		f, ok := familyByName(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unknown family %q", name)
		}
		out = append(out, f)
	}
	return out, nil
}

func familyByName(s string) (eval.Family, bool) {
	i := slices.IndexFunc([]eval.Family{eval.FamilyFreestyle, eval.FamilyStandard, eval.FamilyRenju, eval.FamilyCaro},
		func(f eval.Family) bool { return f.String() == s })
	return eval.Family(i), i >= 0
}

// parseFlags parses args into fs. ok is false when the command should end
// at once, with code: 0 after --help, 2 after a bad flag (pflag has
// printed why).
func parseFlags(fs *pflag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// openInput opens a positions file for reading, decompressing it when
// its name ends in ".gz" (how the project keeps its training data, see
// data/README.md).
func openInput(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return f, err
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return gzipFile{z, f}, nil
}

// gzipFile reads the decompressed stream and closes both it and the file.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	err := g.Reader.Close()
	if e := g.f.Close(); err == nil {
		err = e
	}
	return err
}

// createOutput opens the output file path, or takes stdout when path is
// empty, behind a buffer; the returned function flushes the buffer,
// closes what was opened and says whether everything was written (a full
// disk shows only there). Deferring it as well for the early returns is
// harmless.
func createOutput(path string, stdout io.Writer) (*bufio.Writer, func() error, error) {
	if path == "" {
		bw := bufio.NewWriter(stdout)
		return bw, bw.Flush, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriter(f)
	return bw, func() error { return errors.Join(bw.Flush(), f.Close()) }, nil
}
