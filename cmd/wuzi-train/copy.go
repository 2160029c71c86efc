package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"wuzi/eval"
)

// runCopy is `wuzi-train copy`: it writes the chosen families' weights
// files as copies of one weights file, evaluation and move order alike,
// only the family changed. A family whose own tables play worse than
// another family's (renju's and standard's older fits against the
// freestyle tables, 64th session) takes them so, reproducibly.
func runCopy(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train copy", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "eval/weights", "folder the weights files are written to (<family>.bin)")
	families := fs.String("families", "", "rule families to write, comma-separated (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train copy --families F[,F...] FILE  (writes FILE's evaluation and move order as F's weights)")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 || *families == "" {
		fs.Usage()
		return 2
	}
	fams, err := familiesByName(*families)
	if err != nil {
		fmt.Fprintf(stderr, "wuzi-train copy: %v\n", err)
		return 2
	}
	for _, f := range fams {
		msg, err := copyWeights(fs.Arg(0), f, *out, false)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train copy:", err)
			return 1
		}
		fmt.Fprintln(stdout, msg)
	}
	return 0
}

// copyWeights writes family f's weights file into dir from the weights
// file src: with orderOnly, f's embedded weights with src's move order
// (the policy tables) and nothing else changed; without it, src's tables
// entire. It returns a line saying what was written.
func copyWeights(src string, f eval.Family, dir string, orderOnly bool) (string, error) {
	from, err := readWeightsFile(src)
	if err != nil {
		return "", err
	}
	srcFamily := from.Family
	what := "evaluation and move order"
	w := from
	if orderOnly {
		what = "move order"
		if w, err = eval.EmbeddedWeights(f); err != nil {
			return "", err
		}
		w.PolicyAttack, w.PolicyDefend = from.PolicyAttack, from.PolicyDefend
	}
	w.Family = f
	path, n, err := writeWeights(dir, w)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: the %s of %s (%v) copied; wrote %s (%d bytes)", f, what, src, srcFamily, path, n), nil
}
