// Package selfplay generates training positions: it plays Wuzi against
// itself in-process, from random three-stone openings, under every rule
// and board size asked for, and writes each position it searched with the
// search's score, its best move and the game's final result, one line per
// position (see Position and docs/selfplay.md).
//
// With a node limit per move a run is reproducible: the same Config gives
// the same bytes whatever the number of jobs. Game i of a run belongs to
// shard i mod N, so shards played on several machines and merged (Merge)
// give the file of the whole run.
package selfplay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/opening"
	"wuzi/search"
)

// Rules is the default rule set: one of each rule family.
func Rules() []eval.Rule {
	return []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree}
}

// Sizes is the default set of board sizes: the tournaments' two.
func Sizes() []int { return []int{15, 20} }

// Config says what to play.
type Config struct {
	// Rules and Sizes: game i plays combination i mod (len(Rules) ×
	// len(Sizes)), rules varying fastest. Empty means Rules() and Sizes().
	Rules []eval.Rule
	Sizes []int
	// Games is the number of games of the whole run (all shards).
	Games int
	// Seed draws the openings and the early random choices.
	Seed uint64
	// Nodes limits each move's search (reproducible); when zero, MoveTime
	// limits it instead (not reproducible).
	Nodes    uint64
	MoveTime time.Duration
	// HashMB is each job's transposition table, cleared before each game.
	HashMB int
	// Jobs is the number of games played at once (at least 1).
	Jobs int
	// Shard plays only the games i with i mod Count == Index.
	Shard match.Shard
	// RandomPlies is how many moves after the opening are chosen at
	// random among near-best root moves: the search then reports its
	// RandomBest best lines, and a line within RandomMargin of the best
	// is drawn uniformly. The position's best move stays the search's.
	RandomPlies  int
	RandomBest   int
	RandomMargin int
	// NoVCT switches off the search's root threat searches (search.Options
	// UseVCT and VerifyVCT). Under a small node limit they can take the
	// whole budget, leaving a depth-1 search.
	NoVCT bool
	// Progress, when set, is called after each game is written.
	Progress func(Progress)
}

// Defaults for the random choice after the opening.
const (
	DefaultRandomPlies  = 4
	DefaultRandomBest   = 4
	DefaultRandomMargin = 20
)

// Progress is a run's state after a game.
type Progress struct {
	Games, GamesTotal int // games written and to play in this shard
	Stats
	Elapsed time.Duration
}

// Stats counts what a run or a merge wrote and left out.
type Stats struct {
	Positions  int // lines written
	Duplicates int // positions left out because an earlier line had them
	Decided    int // searched positions left out as decided (see Run)
}

// Validate checks cfg and fills in the defaults.
func (cfg *Config) Validate() error {
	if len(cfg.Rules) == 0 {
		cfg.Rules = Rules()
	}
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = Sizes()
	}
	for _, r := range cfg.Rules {
		if !r.Valid() {
			return fmt.Errorf("unsupported rule %d", r)
		}
	}
	for _, s := range cfg.Sizes {
		if s < MinSize || s > MaxSize {
			return fmt.Errorf("board size %d: sizes from %d to %d", s, MinSize, MaxSize)
		}
	}
	switch {
	case cfg.Games < 0:
		return fmt.Errorf("games %d is negative", cfg.Games)
	case cfg.Nodes == 0 && cfg.MoveTime <= 0:
		return errors.New("give each move a node limit or a time")
	case cfg.Jobs < 1:
		return fmt.Errorf("jobs %d: at least 1", cfg.Jobs)
	case cfg.HashMB < 1:
		return fmt.Errorf("hash %d MiB: at least 1", cfg.HashMB)
	case cfg.RandomPlies < 0 || cfg.RandomBest < 0 || cfg.RandomMargin < 0:
		return errors.New("the random-choice settings cannot be negative")
	}
	return cfg.Shard.Validate()
}

// combo is the rule and size of game i.
func (cfg *Config) combo(i int) (eval.Rule, int) {
	k := i % (len(cfg.Rules) * len(cfg.Sizes))
	return cfg.Rules[k%len(cfg.Rules)], cfg.Sizes[k/len(cfg.Rules)]
}

// gameSeed mixes the run's seed and a game number into the game's own
// seed (a SplitMix64 step), so a game does not depend on the others.
func gameSeed(seed uint64, game int) uint64 {
	z := seed + uint64(game+1)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// posKey identifies a position for deduplication.
type posKey struct {
	hash uint64
	rule eval.Rule
	size uint8
}

// Run plays cfg's games (its shard's) and writes their positions to w in
// game order, each position once per run (the first time it occurs, by
// Zobrist key, rule and size). A position is written when the search
// searched it (not a five to make or block, an only move or an only
// defence) and found no proven result; the others count as Decided. A
// cancelled ctx stops the run after the games already written, with the
// context's error.
func Run(ctx context.Context, cfg Config, w io.Writer) (Stats, error) {
	if err := cfg.Validate(); err != nil {
		return Stats{}, err
	}
	var games []int
	for i := 0; i < cfg.Games; i++ {
		if cfg.Shard.Has(i + 1) {
			games = append(games, i)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Jobs take games in order; the writer puts finished games back in
	// order, so the output does not depend on the number of jobs.
	next := make(chan int)
	done := make(chan *game, cfg.Jobs)
	var wg sync.WaitGroup
	for range cfg.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(&cfg)
			for i := range next {
				g := p.play(ctx, i)
				select {
				case done <- g:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(next)
		for _, i := range games {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()

	out := newWriter(w)
	pending := make(map[int]*game)
	var werr error
	start := time.Now()
	written := 0
	for g := range done {
		pending[g.index] = g
		// Once cancelled, nothing more is written, not even games
		// already finished: a run stops where it was told to.
		for written < len(games) && werr == nil && ctx.Err() == nil {
			g, ok := pending[games[written]]
			if !ok || g.err != nil {
				break
			}
			delete(pending, g.index)
			werr = out.writeGame(g)
			written++
			if cfg.Progress != nil {
				cfg.Progress(Progress{Games: written, GamesTotal: len(games), Stats: out.st, Elapsed: time.Since(start)})
			}
		}
		if werr != nil {
			cancel()
		}
	}
	if err := out.bw.Flush(); werr == nil {
		werr = err
	}
	st := out.st
	if werr != nil {
		return st, werr
	}
	if written < len(games) {
		err := ctx.Err()
		if err == nil {
			err = errors.New("a game was not finished")
		}
		return st, fmt.Errorf("stopped after %d of %d games: %w", written, len(games), err)
	}
	return st, nil
}

// writer writes games' positions, each position once.
type writer struct {
	bw   *bufio.Writer
	seen map[posKey]struct{}
	st   Stats
	line []byte
}

func newWriter(w io.Writer) *writer {
	return &writer{bw: bufio.NewWriterSize(w, 1<<16), seen: make(map[posKey]struct{})}
}

// writeGame writes the positions of g not written before.
func (w *writer) writeGame(g *game) error {
	w.st.Decided += g.decided
	for _, r := range g.recs {
		k := posKey{r.hash, g.rule, uint8(g.size)}
		if _, dup := w.seen[k]; dup {
			w.st.Duplicates++
			continue
		}
		w.seen[k] = struct{}{}
		w.line = g.position(r).AppendLine(w.line[:0])
		if _, err := w.bw.Write(w.line); err != nil {
			return err
		}
		w.st.Positions++
	}
	return nil
}

// game is one finished game: its moves, how it ended and the positions
// recorded on the way.
type game struct {
	index  int
	rule   eval.Rule
	size   int
	moves  []Move
	winner eval.Color // Empty for a draw
	end    string     // "five", "foul" (renju Black forced into one) or "full"
	recs   []record
	// decided counts searched positions not recorded.
	decided int
	err     error // the game was abandoned (the run was cancelled)
}

// record is a position of a game: the first ply stones of the game's
// moves, and what the search found there.
type record struct {
	ply   int
	hash  uint64
	score int
	depth int
	best  Move
}

// position turns r into a line of the format.
func (g *game) position(r record) Position {
	p := Position{Rule: g.rule, Size: g.size, Game: g.index, Moves: g.moves[:r.ply],
		Score: r.score, Depth: r.depth, Best: r.best}
	if g.winner != eval.Empty {
		p.Result = -1
		if p.Side() == g.winner {
			p.Result = 1
		}
	}
	return p
}

// player plays games one after another: one job's searcher and boards.
type player struct {
	cfg    *Config
	s      *search.Searcher
	boards map[posKey]*eval.Board // by rule and size (hash 0)
	lines  []line                 // the last iteration's root lines
}

// line is one root line the search reported.
type line struct {
	depth int
	move  eval.Pos
	score int
}

func newPlayer(cfg *Config) *player {
	s := search.New(cfg.HashMB)
	if cfg.NoVCT {
		s.Options.UseVCT, s.Options.VerifyVCT = false, false
	}
	return &player{cfg: cfg, s: s, boards: make(map[posKey]*eval.Board)}
}

// board returns the player's empty board for rule and size.
func (p *player) board(r eval.Rule, size int) *eval.Board {
	k := posKey{rule: r, size: uint8(size)}
	b := p.boards[k]
	if b == nil {
		var err error
		if b, err = eval.NewBoard(size, size, r); err != nil {
			panic("selfplay: " + err.Error()) // sizes were validated
		}
		p.boards[k] = b
	}
	b.Clear()
	return b
}

// play plays game i to its end.
func (p *player) play(ctx context.Context, i int) *game {
	cfg := p.cfg
	rule, size := cfg.combo(i)
	g := &game{index: i, rule: rule, size: size}
	seed := gameSeed(cfg.Seed, i)
	rng := rand.New(rand.NewPCG(seed, ^seed))
	op := opening.Generate(seed, 1)[0]
	pts, err := op.Place(size, size)
	if err != nil {
		panic("selfplay: " + err.Error()) // openings fit 11×11
	}
	b := p.board(rule, size)
	p.s.Clear()
	for _, pt := range pts {
		b.Play(b.Pos(pt.X, pt.Y))
		g.moves = append(g.moves, Move{pt.X, pt.Y})
	}
	for b.Empties() > 0 {
		if err := ctx.Err(); err != nil {
			g.err = err
			return g
		}
		lim := search.Limits{MaxNodes: cfg.Nodes}
		if cfg.Nodes == 0 {
			now := time.Now()
			lim = search.Limits{Soft: now.Add(cfg.MoveTime / 2), Hard: now.Add(cfg.MoveTime)}
		}
		random := b.Ply()-len(pts) < cfg.RandomPlies && cfg.RandomBest > 1
		var onInfo func(search.Info)
		p.lines = p.lines[:0]
		if random {
			lim.NBest = cfg.RandomBest
			onInfo = p.collect
		}
		res := p.s.Search(ctx, b, lim, onInfo)
		if res.Move == eval.NoPos {
			break // no empty cell: cannot happen while Empties > 0
		}
		x, y := b.XY(res.Move)
		if res.Reason == "search" && !search.IsMate(res.Score) {
			g.recs = append(g.recs, record{ply: b.Ply(), hash: b.Hash(), score: res.Score, depth: res.Depth, best: Move{x, y}})
		} else {
			g.decided++
		}
		move := res.Move
		if random && res.Reason == "search" && !search.IsMate(res.Score) {
			move = p.pick(rng, res.Move)
		}
		if b.SideToMove() == eval.Black && b.IsForbidden(move) {
			// The search plays a foul only when Black has nothing else.
			x, y = b.XY(move)
			g.moves = append(g.moves, Move{x, y})
			g.winner, g.end = eval.White, "foul"
			return g
		}
		x, y = b.XY(move)
		b.Play(move)
		g.moves = append(g.moves, Move{x, y})
		if b.LastMoveWins() {
			g.winner, g.end = b.SideToMove().Opp(), "five"
			return g
		}
	}
	g.end = "full"
	return g
}

// collect keeps the root lines of the deepest iteration reported.
func (p *player) collect(in search.Info) {
	if in.MultiPV == 0 || len(in.PV) == 0 {
		return
	}
	if len(p.lines) > 0 && in.Depth > p.lines[0].depth {
		p.lines = p.lines[:0]
	}
	p.lines = append(p.lines, line{depth: in.Depth, move: in.PV[0], score: in.Score})
}

// pick draws a move among the root lines within the margin of the best
// line, or returns best when there are none.
func (p *player) pick(rng *rand.Rand, best eval.Pos) eval.Pos {
	if len(p.lines) == 0 {
		return best
	}
	top := p.lines[0].score
	var cands []eval.Pos
	for _, l := range p.lines {
		if l.score >= top-p.cfg.RandomMargin && !search.IsMate(l.score) {
			cands = append(cands, l.move)
		}
	}
	if len(cands) == 0 {
		return best
	}
	return cands[rng.IntN(len(cands))]
}
