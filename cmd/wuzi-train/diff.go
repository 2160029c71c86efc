package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/selfplay"
	"wuzi/train"
)

// readWeightsFile reads and decodes a weights file, naming the file in
// any error.
func readWeightsFile(path string) (*eval.Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var w eval.Weights
	if err := w.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &w, nil
}

// runDiff is `wuzi-train diff`: how far a weights file's evaluation is
// from this build's embedded one, measured where it matters, on
// positions. A table entry moved by a few units looks small, but the
// evaluation sums a table over every empty cell of the board, so a few
// units on the codes that nearly every cell has (the empty cells away
// from the stones) move the evaluation by hundreds: the 44th session
// found a refit whose entries moved 2 to 3 units (root mean square) that
// changed the evaluation of real positions by as much as its own spread,
// and lost 230 Elo. The report says, per side to move, the embedded
// evaluation's mean and spread, the change's mean and spread, and the
// correlation of the two evaluations.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train diff", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	every := fs.Int("every", 1, "use every Nth position of the files")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train diff [flags] family.bin positions.txt...  (against this build's embedded weights of the file's family)")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() < 2 || *every < 1 {
		fs.Usage()
		return 2
	}
	w, err := readWeightsFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train diff:", err)
		return 1
	}
	base, err := eval.EmbeddedWeights(w.Family)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train diff:", err)
		return 1
	}
	var st [2]diffStats
	n := 0
	for _, name := range fs.Args()[1:] {
		if err := diffFile(name, base, w, *every, &n, &st); err != nil {
			fmt.Fprintln(stderr, "wuzi-train diff:", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "%s: the tables moved %.2f units (root mean square over every entry)\n", w.Family, tableRMS(base, w))
	for i, side := range []string{"Black", "White"} {
		s := &st[i]
		if s.n == 0 {
			fmt.Fprintf(stdout, "%s to move: no positions of the family\n", side)
			continue
		}
		mb, sb := s.meanSD(s.sb, s.sbb)
		md, sd := s.meanSD(s.sd, s.sdd)
		fmt.Fprintf(stdout, "%s to move: %d positions; embedded %.0f ± %.0f, change %+.0f ± %.0f, correlation %.3f\n",
			side, s.n, mb, sb, md, sd, s.corr())
	}
	return 0
}

// diffStats sums one side to move's evaluations: b the embedded one, f
// the file's, d their difference.
type diffStats struct {
	n                     int
	sb, sbb, sf, sff, sbf float64
	sd, sdd               float64
}

func (s *diffStats) add(b, f float64) {
	s.n++
	s.sb += b
	s.sbb += b * b
	s.sf += f
	s.sff += f * f
	s.sbf += b * f
	s.sd += f - b
	s.sdd += (f - b) * (f - b)
}

func (s *diffStats) meanSD(sum, sq float64) (float64, float64) {
	m := sum / float64(s.n)
	return m, math.Sqrt(max(0, sq/float64(s.n)-m*m))
}

func (s *diffStats) corr() float64 {
	n := float64(s.n)
	cov := s.sbf/n - s.sb/n*s.sf/n
	vb := s.sbb/n - s.sb/n*s.sb/n
	vf := s.sff/n - s.sf/n*s.sf/n
	if vb <= 0 || vf <= 0 {
		return 1
	}
	return cov / math.Sqrt(vb*vf)
}

// diffFile adds every nth position of the file's that belong to w's
// family to st; n counts the lines read so far over all files. Each
// position is set up on one board per weights, rule and size, reused (a
// Board is large).
func diffFile(name string, base, w *eval.Weights, every int, n *int, st *[2]diffStats) error {
	f, err := openInput(name)
	if err != nil {
		return err
	}
	defer f.Close()
	boards := map[[3]int]*eval.Board{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		*n++
		if (*n-1)%every != 0 {
			continue
		}
		p, err := selfplay.ParseLine(sc.Text())
		if err != nil || eval.FamilyOf(p.Rule) != w.Family {
			continue
		}
		var ev [2]float64
		for i, ws := range []*eval.Weights{base, w} {
			k := [3]int{i, int(p.Rule), p.Size}
			b := boards[k]
			if b == nil {
				if b, err = eval.NewBoard(p.Size, p.Size, p.Rule); err != nil {
					return fmt.Errorf("%s: %v", name, err)
				}
				b.SetWeights(ws)
				boards[k] = b
			}
			if err := train.Replay(b, p); err != nil {
				return fmt.Errorf("%s: line %d: %v", name, *n, err)
			}
			ev[i] = float64(b.Evaluate())
		}
		st[p.Side()-eval.Black].add(ev[0], ev[1])
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// tableRMS is the root mean square of the differences of every
// evaluation table entry of a and b.
func tableRMS(a, b *eval.Weights) float64 {
	ta, tb := a.Tables(), b.Tables()
	var s float64
	k := 0
	for i := range ta {
		for j := range ta[i] {
			d := float64(tb[i][j]) - float64(ta[i][j])
			s += d * d
			k++
		}
	}
	return math.Sqrt(s / float64(k))
}
