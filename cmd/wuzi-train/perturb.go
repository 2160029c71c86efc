package main

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/selfplay"
)

// runPerturb is `wuzi-train perturb`: from the positions of self-play
// files it makes positions a search meets but a game seldom does. Each
// chosen position gets one to --plies moves more, each drawn at random
// among the side to move's --top candidates by the move order (cells near
// a stone where a five is still possible, never a renju foul), so the
// last of them is often a move the engine would not play. The evaluation
// is fitted to a labelling engine's scores of such positions (wuzi-train
// label, then wuzi-train --scores-only): the game's result says nothing
// about a position the game never reached, so it is written as 0 and
// not used. Positions where a five was made or must be blocked are left
// out. The output depends only on the input and the flags.
func runPerturb(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train perturb", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	seed := fs.Uint64("seed", 1, "seed of the draws")
	every := fs.Int("every", 2, "perturb every Nth input position")
	plies := fs.Int("plies", 3, "at most this many moves are added (at least one)")
	top := fs.Int("top", 12, "each move is drawn among this many best candidates by the move order")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train perturb [flags] positions.txt...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 || *every < 1 || *plies < 1 || *top < 1 {
		fs.Usage()
		return 2
	}
	bw, finish, err := createOutput(*out, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	defer finish() // on the early returns
	rng := rand.New(rand.NewPCG(*seed, 0x9e3779b97f4a7c15))
	var line []byte
	written := 0
	read, err := eachSampled(fs.Args(), *every, func(b *eval.Board, pos selfplay.Position) {
		if q, ok := perturb(b, pos, 1+rng.IntN(*plies), *top, rng); ok {
			line = q.AppendLine(line[:0])
			bw.Write(line)
			written++
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	if err := finish(); err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wuzi-train: %d positions read, %d perturbed positions written\n", read, written)
	return 0
}

// eachSampled calls fn with every every-th position of the named files
// and a board of the position's rule and size (one board for each, reused;
// fn sets it up), and returns how many positions it read.
func eachSampled(names []string, every int, fn func(b *eval.Board, pos selfplay.Position)) (int, error) {
	boards := map[[2]int]*eval.Board{}
	read := 0
	err := eachPosition(names, func(pos selfplay.Position) {
		read++
		if read%every != 0 {
			return
		}
		bk := [2]int{int(pos.Rule), pos.Size}
		b := boards[bk]
		if b == nil {
			var err error
			if b, err = eval.NewBoard(pos.Size, pos.Size, pos.Rule); err != nil {
				return
			}
			boards[bk] = b
		}
		fn(b, pos)
	})
	return read, err
}

// perturb plays k moves drawn among the top candidates from pos on b (b is
// cleared first) and returns the position reached, with no score, result
// 0 and the move order's first candidate as its best move. It fails when
// pos cannot be replayed, when a side has a five to make or block before
// or after a move, or when no candidate is left.
func perturb(b *eval.Board, pos selfplay.Position, k, top int, rng *rand.Rand) (selfplay.Position, bool) {
	if !replay(b, pos) {
		return pos, false
	}
	q := pos
	q.Moves = slices.Clone(pos.Moves)
	var cs []scoredCell
	for i := 0; ; i++ {
		us := b.SideToMove()
		if b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(us.Opp(), eval.ComboFive) > 0 {
			return pos, false
		}
		cs = candidates(b, cs[:0])
		if len(cs) == 0 {
			return pos, false
		}
		if i == k {
			q.Score, q.Depth, q.Result = 0, 0, 0
			x, y := b.XY(cs[0].p)
			q.Best = selfplay.Move{X: x, Y: y}
			return q, true
		}
		p := cs[rng.IntN(min(top, len(cs)))].p
		b.Play(p)
		x, y := b.XY(p)
		q.Moves = append(q.Moves, selfplay.Move{X: x, Y: y})
	}
}

// scoredCell is a candidate move and its move-order value.
type scoredCell struct {
	p  eval.Pos
	sc int32
}

// candidates appends the side to move's candidate cells to cs, best first
// by the move order (equal values by cell, so draws are reproducible):
// empty cells near a stone where a five is still possible, never a renju
// foul.
func candidates(b *eval.Board, cs []scoredCell) []scoredCell {
	us := b.SideToMove()
	renjuBlack := b.Rule() == eval.Renju && us == eval.Black
	for _, p := range b.Cells() {
		if !b.IsEmpty(p) || !b.Near(p) || !b.Alive(p) || (renjuBlack && b.IsForbidden(p)) {
			continue
		}
		cs = append(cs, scoredCell{p, b.Policy(p, us)})
	}
	slices.SortFunc(cs, func(x, y scoredCell) int {
		if c := cmp.Compare(y.sc, x.sc); c != 0 {
			return c
		}
		return cmp.Compare(x.p, y.p)
	})
	return cs
}
