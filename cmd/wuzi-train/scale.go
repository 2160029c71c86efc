package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"wuzi/eval"
)

// runScale is `wuzi-train scale`: it multiplies the embedded weights of
// the chosen families by percentages (eval.Weights.Scaled) and writes
// them as weights files, so that values a tuner found in play
// (pbrain-wuzi --param evattack=… and scripts/spsa.py) become the
// engine's own. The percentages are the --param ones: attack, defence and
// threat tables of the evaluation (the late game's attack and defence
// tables again on top), and the move order's attack and defence tables.
func runScale(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train scale", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "eval/weights", "folder the weights files are written to (<family>.bin)")
	families := fs.String("families", "freestyle", "rule families to scale, comma-separated")
	attack := fs.Int("attack", 100, "percent on the attack tables (--param evattack)")
	defend := fs.Int("defend", 100, "percent on the defence tables (--param evdefend)")
	threat := fs.Int("threat", 100, "percent on the threat table (--param evthreat)")
	polDefend := fs.Int("policy-defend", 100, "percent on the move order's defence table (--param poldefend)")
	attackLate := fs.Int("attack-late", 100, "percent on the late game's attack tables, on top of --attack (--param evlateatt)")
	defendLate := fs.Int("defend-late", 100, "percent on the late game's defence tables, on top of --defend (--param evlatedef)")
	polAttack := fs.Int("policy-attack", 100, "percent on the move order's attack table (--param polattack)")
	// Per class of shape codes (eval.ShapeClass), on top of --attack and
	// --defend: --attack1 … --defend3o, the --param att1 … def3o.
	var classFlags [2][eval.NumShapeClasses]*int
	for k, name := range shapeClassNames() {
		classFlags[0][k] = fs.Int("attack"+name.flag, 100, "percent on the attack values of shape codes whose best line is "+name.what+" (--param att"+name.flag+")")
		classFlags[1][k] = fs.Int("defend"+name.flag, 100, "percent on the defence values of shape codes whose best line is "+name.what+" (--param def"+name.flag+")")
	}
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
	sc := eval.NoScales()
	sc.Attack, sc.Defend, sc.AttackLate, sc.DefendLate = *attack, *defend, *attackLate, *defendLate
	sc.Threat, sc.PolicyAttack, sc.PolicyDefend = *threat, *polAttack, *polDefend
	pcs := []int{*attack, *defend, *threat, *polDefend, *attackLate, *defendLate, *polAttack}
	for k := range eval.NumShapeClasses {
		sc.AttackClass[k], sc.DefendClass[k] = *classFlags[0][k], *classFlags[1][k]
		pcs = append(pcs, sc.AttackClass[k], sc.DefendClass[k])
	}
	for _, v := range pcs {
		if v < 0 || v > 400 {
			fmt.Fprintf(stderr, "wuzi-train scale: percentage %d: want 0 to 400\n", v)
			return 2
		}
	}
	fams, err := familiesByName(*families)
	if err != nil {
		fmt.Fprintf(stderr, "wuzi-train scale: %v\n", err)
		return 2
	}
	for _, f := range fams {
		w, err := eval.EmbeddedWeights(f)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train scale:", err)
			return 1
		}
		path, _, err := writeWeights(*out, w.Scaled(sc))
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train scale:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: wrote %s: attack %d %% (late %d %% more), defence %d %% (late %d %% more), threat %d %%, move order's attack %d %% and defence %d %%, by shape class attack %v %% and defence %v %%\n",
			f, path, *attack, *attackLate, *defend, *defendLate, *threat, *polAttack, *polDefend, sc.AttackClass, sc.DefendClass)
	}
	return 0
}

// shapeClassNames name eval.ShapeClass's classes for the flags of
// wuzi-train scale, as pbrain-wuzi's --param names them (att1 … def3o).
func shapeClassNames() [eval.NumShapeClasses]struct{ flag, what string } {
	return [eval.NumShapeClasses]struct{ flag, what string }{
		{"1", "a lone stone or less"},
		{"2", "a two"},
		{"3", "a closed three"},
		{"3o", "an open three"},
	}
}
