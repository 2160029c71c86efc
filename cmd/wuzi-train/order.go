package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/selfplay"
	"wuzi/train"
)

// runOrder is `wuzi-train order`: it fits the move order alone (the
// policy tables of the chosen families) from zero to the labelling
// search's moves by mini-batch Adam (train.FitOrder), maps the fit onto
// the scale of the embedded order (train.MatchOrderScale, at the search's
// two policy-reduction thresholds), and writes the embedded weights with
// the new order. Games whose number ends in 0 are held out.
func runOrder(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train order", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "eval/weights", "folder the weights files are written to (<family>.bin)")
	families := fs.String("families", "freestyle", "rule families to fit, comma-separated")
	epochs := fs.Int("epochs", 6, "passes over the training positions")
	rate := fs.Float64("rate", 0.02, "Adam step size (in logits)")
	batch := fs.Int("batch", 256, "positions a step")
	seed := fs.Int64("seed", 1, "seed of the order the positions are visited in")
	hi := fs.Int("hi", 0, "the upper policy-reduction threshold the scale is matched at (search --param policy1)")
	lo := fs.Int("lo", -600, "the lower threshold (search --param policy2)")
	scaleFrom := fs.String("scale-from", "", "weights file whose move order sets the scale (default: the embedded order)")
	copyFrom := fs.String("copy-from", "", "weights file whose move order is copied as it is, no positions read or fitted (e.g. freestyle's into standard)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train order [flags] positions.txt[.gz]...  (fits the move order of this build's embedded weights)")
		fmt.Fprintln(stderr, "       wuzi-train order --copy-from FILE --families F  (copies FILE's move order into F's embedded weights)")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if (*copyFrom == "") == (fs.NArg() == 0) || *epochs < 1 || *batch < 1 || *rate <= 0 || *hi <= *lo {
		fs.Usage()
		return 2
	}
	fams, err := familiesByName(*families)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train order:", err)
		return 2
	}
	for _, f := range fams {
		if *copyFrom != "" {
			msg, err := copyWeights(*copyFrom, f, *out, true)
			if err != nil {
				fmt.Fprintln(stderr, "wuzi-train order:", err)
				return 1
			}
			fmt.Fprintln(stdout, msg)
			continue
		}
		samples, err := readOrderSamples(fs.Args(), f)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train order:", err)
			return 1
		}
		w, err := eval.EmbeddedWeights(f)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train order:", err)
			return 1
		}
		start := train.PolicyParams(w)
		if *scaleFrom != "" {
			sw, err := readWeightsFile(*scaleFrom)
			if err == nil && sw.Family != f {
				err = fmt.Errorf("%s holds %v weights, not %v", *scaleFrom, sw.Family, f)
			}
			if err != nil {
				fmt.Fprintln(stderr, "wuzi-train order:", err)
				return 1
			}
			start = train.PolicyParams(sw)
		}
		_, t0 := train.PolicyLoss(samples, start, 1, true)
		fmt.Fprintf(stdout, "%s: %d positions; the scale's order: held-out best move first %.1f%%\n", f, len(samples), 100*t0)
		p := train.FitOrder(samples, train.OrderConfig{Epochs: *epochs, Rate: *rate, Batch: *batch, Seed: *seed, Tied: f != eval.FamilyRenju,
			Progress: func(epoch int, tr, ho float64) {
				fmt.Fprintf(stdout, "%s: pass %d: best move first %.1f%% (held out %.1f%%)\n", f, epoch, 100*tr, 100*ho)
			}})
		train.SetPolicy(w, train.MatchOrderScale(samples, p, start, float64(*hi), float64(*lo)))
		path, n, err := writeWeights(*out, w)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train order:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: wrote %s (%d bytes)\n", f, path, n)
	}
	return 0
}

// readOrderSamples reads the move-order samples of family f from the
// position files, in file order (train.PolicyFeatures; games whose number
// ends in 0 held out).
func readOrderSamples(names []string, f eval.Family) ([]train.PolicySample, error) {
	var out []train.PolicySample
	boards := map[[2]int]*eval.Board{} // one board a rule and size, replayed for each line
	for _, name := range names {
		r, err := openInput(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p, err := selfplay.ParseLine(sc.Text())
			if err != nil || eval.FamilyOf(p.Rule) != f {
				continue
			}
			k := [2]int{int(p.Rule), p.Size}
			b := boards[k]
			if b == nil {
				if b, err = eval.NewBoard(p.Size, p.Size, p.Rule); err != nil {
					continue
				}
				boards[k] = b
			}
			if train.Replay(b, p) != nil {
				continue
			}
			s, ok := train.PolicyFeatures(b, b.Pos(p.Best.X, p.Best.Y))
			if !ok {
				continue
			}
			s.Holdout = p.Game%10 == 0
			out = append(out, s)
		}
		err = sc.Err()
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}
