package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"wuzi/eval"
	"wuzi/match/results"
	"wuzi/selfplay"
)

// runGames is `wuzi-train games`: it turns the games of wuzi-match results
// files into positions of the self-play format, one for every move after
// the opening, so that games against other engines can be labelled
// (`wuzi-train label`) and trained on like self-play. A position's best
// move is the move played in the game and its score and depth are 0 until
// a labeller fills them in.
func runGames(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-train games", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	name := fs.String("engine", "", "keep only the positions this engine (its name in the results) was to move in")
	lost := fs.String("lost", "", "keep only the games this engine lost on the board")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: wuzi-train games [flags] results.jsonl...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	bw, finish, err := createOutput(*out, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	defer finish() // on the early returns
	games, positions, skipped := 0, 0, 0
	var line []byte
	for _, path := range fs.Args() {
		f, err := results.ReadFile(path)
		if err != nil {
			fmt.Fprintln(stderr, "wuzi-train:", err)
			return 1
		}
		h := f.Header
		rule, err := eval.ParseRule(h.Rule)
		if err != nil || h.Width != h.Height || h.Width < selfplay.MinSize || h.Width > selfplay.MaxSize {
			fmt.Fprintf(stderr, "wuzi-train: %s: rule %d on %dx%d is not a board the self-play format holds\n", path, h.Rule, h.Width, h.Height)
			return 1
		}
		for _, g := range f.Games {
			ps, ok := gamePositions(g, rule, h.Width, games, *name, *lost)
			if !ok {
				skipped++
				continue
			}
			for _, p := range ps {
				line = p.AppendLine(line[:0])
				bw.Write(line)
			}
			if len(ps) > 0 {
				games++
				positions += len(ps)
			}
		}
	}
	if err := finish(); err != nil {
		fmt.Fprintln(stderr, "wuzi-train:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wuzi-train: %d positions from %d games (%d games left out: forfeits or illegal records)\n", positions, games, skipped)
	return 0
}

// gamePositions lists the positions of one game, numbered number, that
// the filters keep: the side to move is the engine called name (any, if
// name is ""), and if lost is not "" only a game the engine called lost
// lost. ok is false for
// a game that was not decided on the board (a forfeit) or whose moves do
// not replay.
func gamePositions(g results.Game, rule eval.Rule, size, number int, name, lost string) ([]selfplay.Position, bool) {
	if g.Failure {
		return nil, false
	}
	var winner eval.Color
	switch g.Result {
	case "1-0":
		winner = eval.Black
	case "0-1":
		winner = eval.White
	case "1/2-1/2":
	default:
		return nil, false
	}
	if lost != "" {
		loser := g.Black
		if winner == eval.Black {
			loser = g.White
		}
		if winner == eval.Empty || loser != lost {
			return nil, true
		}
	}
	if len(g.Moves) == 0 {
		return nil, false
	}
	moves := make([]selfplay.Move, len(g.Moves))
	for i, m := range g.Moves {
		if m[0] < 0 || m[0] >= size || m[1] < 0 || m[1] >= size {
			return nil, false
		}
		moves[i] = selfplay.Move{X: m[0], Y: m[1]}
	}
	// The position before the last stone, with that stone as its best
	// move, replays every move: on empty cells, no foul, no early five.
	last := len(moves) - 1
	whole := selfplay.Position{Rule: rule, Size: size, Game: number, Moves: moves[:last], Best: moves[last]}
	if _, err := whole.Replay(); err != nil {
		return nil, false
	}
	var out []selfplay.Position
	for ply := max(g.OpeningStones, 0); ply < len(moves); ply++ {
		p := selfplay.Position{Rule: rule, Size: size, Game: number, Moves: moves[:ply], Best: moves[ply]}
		side := p.Side()
		mover := g.Black
		if side == eval.White {
			mover = g.White
		}
		if name != "" && mover != name {
			continue
		}
		switch winner {
		case side:
			p.Result = 1
		case side.Opp():
			p.Result = -1
		}
		out = append(out, p)
	}
	return out, true
}
