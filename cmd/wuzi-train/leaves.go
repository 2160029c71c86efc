package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/search"
	"wuzi/selfplay"
)

// runLeaves is `wuzi-train leaves`: it searches positions of self-play
// files as the engine does, to a node limit, and writes positions drawn
// at random among the horizon nodes of each search, where the static
// evaluation is what the search reads. Games reach positions of good
// play; a search's leaves are mostly positions after moves no one would
// play, and they are what the evaluation is asked about most. Like
// `perturb`'s, the positions carry no score and result 0: they are meant
// to be labelled (`wuzi-train label`) and fitted with --scores-only.
// Leaves where a five is on the board or must be blocked are left out.
// The output depends only on the input and the flags.
func runLeaves(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train leaves", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	seed := fs.Uint64("seed", 1, "seed of the draws")
	every := fs.Int("every", 4, "search every Nth input position")
	nodes := fs.Uint64("nodes", 60000, "node limit of each search")
	per := fs.Int("per", 4, "leaves drawn from each search (at most)")
	hashMB := fs.Int("hash", 16, "transposition table, in MiB")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train leaves [flags] positions.txt...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 || *every < 1 || *nodes < 1 || *per < 1 || *hashMB < 1 {
		fs.Usage()
		return 2
	}
	bw, finish, err := createOutput(*out, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	defer finish() // on the early returns
	rng := rand.New(rand.NewPCG(*seed, 0x2545f4914f6cdd1d))
	s := search.New(*hashMB)
	sm := leafSampler{per: *per, rng: rng}
	s.OnLeaf = sm.visit
	var line []byte
	searched, written := 0, 0
	read, err := eachSampled(fs.Args(), *every, func(b *eval.Board, pos selfplay.Position) {
		if !replay(b, pos) {
			return
		}
		sm.reset(pos)
		s.Search(context.Background(), b, search.Limits{MaxNodes: *nodes}, nil)
		searched++
		for _, q := range sm.kept {
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
	fmt.Fprintf(stderr, "wuzi-train: %d positions read, %d searched, %d leaves written\n", read, searched, written)
	return 0
}

// leafSampler draws up to per leaves of one search, each horizon node
// equally likely (reservoir sampling: the n-th node replaces a kept one
// with probability per/n, so a search of many nodes copies few boards).
type leafSampler struct {
	per  int
	rng  *rand.Rand
	root selfplay.Position
	seen int
	kept []selfplay.Position
	cs   []scoredCell
}

// reset starts the draw of a search from root.
func (l *leafSampler) reset(root selfplay.Position) {
	l.root, l.seen, l.kept = root, 0, l.kept[:0]
}

// visit is the searcher's OnLeaf.
func (l *leafSampler) visit(b *eval.Board) {
	us := b.SideToMove()
	if b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(us.Opp(), eval.ComboFive) > 0 {
		return
	}
	l.seen++
	slot := len(l.kept)
	if slot >= l.per {
		if slot = l.rng.IntN(l.seen); slot >= l.per {
			return
		}
	}
	l.cs = candidates(b, l.cs[:0])
	if len(l.cs) == 0 {
		return
	}
	q := l.root
	q.Moves = make([]selfplay.Move, 0, b.Ply())
	for i := range b.Ply() {
		p, c := b.MoveAt(i)
		if c == eval.Wall {
			continue
		}
		x, y := b.XY(p)
		q.Moves = append(q.Moves, selfplay.Move{X: x, Y: y})
	}
	x, y := b.XY(l.cs[0].p)
	q.Best = selfplay.Move{X: x, Y: y}
	q.Score, q.Depth, q.Result = 0, 0, 0
	if slot == len(l.kept) {
		l.kept = append(l.kept, q)
	} else {
		l.kept[slot] = q
	}
}

// replay clears b and plays pos's moves on it; it fails on a move to an
// occupied cell.
func replay(b *eval.Board, pos selfplay.Position) bool {
	b.Clear()
	for _, m := range pos.Moves {
		p := b.Pos(m.X, m.Y)
		if !b.IsEmpty(p) {
			return false
		}
		b.Play(p)
	}
	return true
}
