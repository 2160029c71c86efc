package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"wuzi/eval"
)

// runScale is `wuzi-train scale`: it multiplies the embedded weights of
// the chosen families by percentages (eval.Weights.Scaled) and writes
// them as weights files, so that values a tuner found in play
// (pbrain-wuzi --param evattack=… and scripts/spsa.py) become the
// engine's own. The percentages are the --param ones: attack, defence and
// threat tables of the evaluation, and the move order's defence table.
func runScale(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train scale", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "eval/weights", "folder the weights files are written to (<family>.bin)")
	families := fs.String("families", "freestyle", "rule families to scale, comma-separated")
	attack := fs.Int("attack", 100, "percent on the attack tables (--param evattack)")
	defend := fs.Int("defend", 100, "percent on the defence tables (--param evdefend)")
	threat := fs.Int("threat", 100, "percent on the threat table (--param evthreat)")
	polDefend := fs.Int("policy-defend", 100, "percent on the move order's defence table (--param poldefend)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train scale [flags]  (scales this build's embedded weights)")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	for _, v := range []int{*attack, *defend, *threat, *polDefend} {
		if v < 0 || v > 400 {
			fmt.Fprintf(stderr, "wuzi-train scale: percentage %d: want 0 to 400\n", v)
			return 2
		}
	}
	var fams []eval.Family
	for _, name := range strings.Split(*families, ",") {
		f, ok := familyByName(strings.TrimSpace(name))
		if !ok {
			fmt.Fprintf(stderr, "wuzi-train scale: unknown family %q\n", name)
			return 2
		}
		fams = append(fams, f)
	}
	for _, f := range fams {
		w, err := eval.EmbeddedWeights(f)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train scale:", err)
			return 1
		}
		path, _, err := writeWeights(*out, w.Scaled(*attack, *defend, *threat, *polDefend))
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train scale:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: wrote %s: attack %d %%, defence %d %%, threat %d %%, move order's defence %d %%\n",
			f, path, *attack, *defend, *threat, *polDefend)
	}
	return 0
}
