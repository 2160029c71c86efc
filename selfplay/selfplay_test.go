package selfplay

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"wuzi/eval"
	"wuzi/match"
)

// small is a quick run: every default rule on both sizes, a few hundred
// nodes a move, a small table.
func small(seed uint64, games int) Config {
	nodes := uint64(300)
	if raceDetector {
		nodes = 120
	}
	return Config{Games: games, Seed: seed, Nodes: nodes, HashMB: 1, Jobs: 1,
		RandomPlies: DefaultRandomPlies, RandomBest: DefaultRandomBest, RandomMargin: DefaultRandomMargin}
}

// scaled is n games, or half as many (at least 2) under the race detector.
func scaled(n int) int {
	if raceDetector {
		return max(2, n/2)
	}
	return n
}

func runBytes(t *testing.T, cfg Config) ([]byte, Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := Run(context.Background(), cfg, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), st
}

func lines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestReproducible: the same seed gives the same bytes, with one job or
// two; another seed gives other games.
func TestReproducible(t *testing.T) {
	n := scaled(8)
	a, st := runBytes(t, small(7, n))
	if st.Positions < n || st.Positions != len(lines(a)) {
		t.Fatalf("%+v for %d lines", st, len(lines(a)))
	}
	b, _ := runBytes(t, small(7, n))
	if !bytes.Equal(a, b) {
		t.Error("the same seed wrote different bytes")
	}
	cfg := small(7, n)
	cfg.Jobs = 2
	if c, _ := runBytes(t, cfg); !bytes.Equal(a, c) {
		t.Errorf("two jobs wrote other bytes than one:\n%s\nwant\n%s", c, a)
	}
	d, _ := runBytes(t, small(8, n))
	if bytes.Equal(a, d) {
		t.Error("seeds 7 and 8 wrote the same bytes")
	}
	// Every game differs between the seeds (its moves so far at the
	// first position written).
	first := func(b []byte) map[int]string {
		m := map[int]string{}
		for _, l := range lines(b) {
			p, err := ParseLine(l)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := m[p.Game]; !ok {
				m[p.Game] = fmt.Sprint(p.Moves)
			}
		}
		return m
	}
	fa, fd := first(a), first(d)
	openings := map[string]bool{}
	for _, l := range lines(a) {
		p, _ := ParseLine(l)
		openings[fmt.Sprint(p.Moves[:3])] = true
	}
	if len(openings) < n-2 {
		t.Errorf("%d games, %d openings", n, len(openings))
	}
	for g, m := range fa {
		if fd[g] == m {
			t.Errorf("game %d starts the same under seeds 7 and 8: %s", g, m)
		}
	}
}

// TestGameIndependent: a game is the same played first by a job or after
// others (the table and the ordering heuristics are cleared).
func TestGameIndependent(t *testing.T) {
	cfg := small(6, 8)
	cfg.Nodes = 10000
	before := []int{3, 1, 2}
	if raceDetector {
		cfg.Nodes, before = 3000, []int{3}
	}
	cfg.Rules, cfg.Sizes = []eval.Rule{eval.Freestyle}, []int{15}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	fresh := newPlayer(&cfg).play(context.Background(), 5)
	p := newPlayer(&cfg)
	for _, i := range before {
		p.play(context.Background(), i)
	}
	again := p.play(context.Background(), 5)
	if !slices.Equal(fresh.moves, again.moves) || !slices.Equal(fresh.recs, again.recs) {
		t.Errorf("game 5 fresh:\n%v\nafter games %v:\n%v", fresh.moves, before, again.moves)
	}
}

// TestRandomChoice: with no random plies two games from the same opening
// are the same game; with them, the early moves differ at least sometimes
// from the search's best move.
func TestRandomChoice(t *testing.T) {
	cfg := small(3, 8)
	cfg.Rules, cfg.Sizes = []eval.Rule{eval.Freestyle}, []int{15}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p := newPlayer(&cfg)
	differs := 0
	for i := range 8 {
		g := p.play(context.Background(), i)
		for _, r := range g.recs {
			if r.ply < 3+cfg.RandomPlies && g.moves[r.ply] != r.best {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Error("no early move differed from the search's best move")
	}
	cfg.RandomPlies = 0
	p = newPlayer(&cfg)
	for i := range 8 {
		g := p.play(context.Background(), i)
		for _, r := range g.recs {
			if g.moves[r.ply] != r.best {
				t.Fatalf("game %d ply %d: played %s, the search's best was %s", i, r.ply, g.moves[r.ply], r.best)
			}
		}
	}
}

// TestShardsMerge: shards play disjoint games (game i in shard i mod N),
// and merging them gives the bytes of the whole run.
func TestShardsMerge(t *testing.T) {
	n := 9
	if raceDetector {
		n = 5
	}
	whole, _ := runBytes(t, small(11, n))
	var inputs []Input
	seen := map[int]int{}
	for i := range 3 {
		cfg := small(11, n)
		cfg.Shard = match.Shard{Index: i, Count: 3}
		b, _ := runBytes(t, cfg)
		for _, l := range lines(b) {
			p, err := ParseLine(l)
			if err != nil {
				t.Fatal(err)
			}
			if p.Game%3 != i {
				t.Errorf("shard %d/3 wrote game %d", i, p.Game)
			}
			if s, ok := seen[p.Game]; ok && s != i {
				t.Errorf("game %d in shards %d and %d", p.Game, s, i)
			}
			seen[p.Game] = i
		}
		// Shards given out of order merge the same.
		inputs = append([]Input{{Name: fmt.Sprint(i), R: bytes.NewReader(b)}}, inputs...)
	}
	var merged bytes.Buffer
	st, err := Merge(&merged, inputs...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged.Bytes(), whole) {
		t.Errorf("merged shards\n%s\nwant the whole run\n%s", merged.Bytes(), whole)
	}
	if st.Positions != len(lines(whole)) {
		t.Errorf("merge counted %d positions for %d lines", st.Positions, len(lines(whole)))
	}
}

// TestPositionsReplay: every line parses, writes back the same, replays
// legally to its side to move, and its best move is an empty cell that is
// no renju foul; no position is decided.
func TestPositionsReplay(t *testing.T) {
	cfg := small(5, 10)
	cfg.Rules = append(Rules(), eval.CaroExact)
	if raceDetector {
		cfg.Games, cfg.Sizes = 5, []int{15}
	}
	out, _ := runBytes(t, cfg)
	rules := map[eval.Rule]bool{}
	for _, l := range lines(out) {
		p, err := ParseLine(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if p.String() != l {
			t.Errorf("%q written back as %q", l, p.String())
		}
		b, err := p.Replay()
		if err != nil {
			t.Errorf("%q: %v", l, err)
			continue
		}
		rules[p.Rule] = true
		if b.SideToMove() != p.Side() {
			t.Errorf("%q: %v to move after the replay", l, b.SideToMove())
		}
		if b.ComboCount(b.SideToMove(), eval.ComboFive) > 0 {
			t.Errorf("%q: the side to move can make five", l)
		}
	}
	if len(rules) != 5 {
		t.Errorf("rules written: %v", rules)
	}
}

// TestReplayRejects: Replay refuses positions a game cannot reach.
func TestReplayRejects(t *testing.T) {
	for _, l := range []string{
		"freestyle 15 0 4 b 0 1 a1 0 h8i8h8j8",              // occupied
		"freestyle 15 0 9 w 0 1 a1 0 h8a1h9a2h10a3h11a4h12", // five on the board
		"freestyle 15 0 3 w 0 1 h8 0 h8i8j8",                // best move occupied
		"renju 15 0 8 b 0 1 h8 0 f8a1g8c1h9e1h10a3",         // best move a double three
		"renju 15 0 9 w 0 1 a15 0 f8a1g8c1h9e1h10a3h8",      // a foul played
	} {
		p, err := ParseLine(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if _, err := p.Replay(); err == nil {
			t.Errorf("%q replayed", l)
		}
	}
	for _, l := range []string{
		"freestyle 15 0 3 b 0 1 a1 0 h8i8j8", // wrong side
		"freestyle 15 0 2 w 0 1 a1 0 h8i8j8", // wrong ply
		"freestyle 10 0 3 w 0 1 a1 0 h8i8j8", // size
		"freestyle 15 0 3 w 0 1 a1 2 h8i8j8", // result
		"freestyle 15 0 3 w 0 1 p1 0 h8i8j8", // off the board
		"gomoku 15 0 3 w 0 1 a1 0 h8i8j8",    // rule
		"freestyle 15 0 3 w 0 1 a1 0",        // fields
	} {
		if _, err := ParseLine(l); err == nil {
			t.Errorf("%q parsed", l)
		}
	}
}

// TestResults: each game ends as its result says (a five by the winner, a
// forced renju foul, or a full board for a draw), and every position's
// result is the game's from its side to move.
func TestResults(t *testing.T) {
	cfg := small(9, scaled(16))
	cfg.Rules = append(Rules(), eval.CaroExact)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p := newPlayer(&cfg)
	ends := map[string]int{}
	for i := range cfg.Games {
		g := p.play(context.Background(), i)
		ends[g.end]++
		b, err := eval.NewBoard(g.size, g.size, g.rule)
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range g.moves {
			c := b.Pos(m.X, m.Y)
			if !b.IsEmpty(c) {
				t.Fatalf("game %d move %d on an occupied cell", i, k)
			}
			foul := b.SideToMove() == eval.Black && b.IsForbidden(c)
			last := k == len(g.moves)-1
			if foul && !(last && g.end == "foul") {
				t.Fatalf("game %d move %d is a foul; the game ended by %q", i, k, g.end)
			}
			b.Play(c)
			if win := b.LastMoveWins(); win != (last && g.end == "five") {
				t.Fatalf("game %d move %d: five %v, the game ended by %q after %d moves", i, k, win, g.end, len(g.moves))
			}
		}
		_, lastColor := b.MoveAt(b.Ply() - 1)
		switch g.end {
		case "five":
			if g.winner != lastColor {
				t.Errorf("game %d: %v made five, winner %v", i, lastColor, g.winner)
			}
		case "foul":
			if g.rule != eval.Renju || lastColor != eval.Black || g.winner != eval.White {
				t.Errorf("game %d: foul under %v by %v, winner %v", i, g.rule, lastColor, g.winner)
			}
		case "full":
			if b.Empties() != 0 || g.winner != eval.Empty {
				t.Errorf("game %d: a draw with %d empty cells, winner %v", i, b.Empties(), g.winner)
			}
		default:
			t.Errorf("game %d ended by %q", i, g.end)
		}
		for _, r := range g.recs {
			pos := g.position(r)
			want := 0
			if g.winner != eval.Empty {
				want = -1
				if pos.Side() == g.winner {
					want = 1
				}
			}
			if pos.Result != want {
				t.Errorf("game %d ply %d: result %d, want %d", i, r.ply, pos.Result, want)
			}
		}
	}
	if ends["five"] == 0 {
		t.Errorf("no game ended by a five: %v", ends)
	}
}

// TestDedup: a game written twice is written once; the positions a run
// writes are all different; merge drops a position reached by another
// move order and a file merged with itself gives the file.
func TestDedup(t *testing.T) {
	cfg := small(2, 1)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	g := newPlayer(&cfg).play(context.Background(), 0)
	var buf bytes.Buffer
	w := newWriter(&buf)
	if err := w.writeGame(g); err != nil {
		t.Fatal(err)
	}
	once := w.st.Positions
	if once == 0 || once != len(g.recs) {
		t.Fatalf("%d positions of %d written", once, len(g.recs))
	}
	g2 := *g
	g2.index = 1
	if err := w.writeGame(&g2); err != nil {
		t.Fatal(err)
	}
	// Under another rule the same stones are another position.
	g3 := *g
	g3.index, g3.rule = 2, eval.Standard
	if err := w.writeGame(&g3); err != nil {
		t.Fatal(err)
	}
	w.bw.Flush()
	if w.st.Positions != 2*once || w.st.Duplicates != once {
		t.Errorf("%+v after writing %d positions twice and once under another rule", w.st, once)
	}

	out, _ := runBytes(t, small(4, scaled(16)))
	keys := map[posKey]string{}
	for _, l := range lines(out) {
		p, _ := ParseLine(l)
		b, err := p.Replay()
		if err != nil {
			t.Fatal(err)
		}
		k := posKey{b.Hash(), p.Rule, uint8(p.Size)}
		if o, ok := keys[k]; ok {
			t.Errorf("one position twice:\n%s\n%s", o, l)
		}
		keys[k] = l
	}

	a := "freestyle 15 0 5 w 0 1 a1 0 h8i8j8i9k8\n"
	b := "freestyle 15 1 5 w 0 1 b1 0 k8i9j8i8h8\n" // the same stones
	c := "freestyle 15 2 5 w 0 1 b1 0 k8i9j8i7h8\n"
	var m bytes.Buffer
	st, err := Merge(&m, Input{"x", strings.NewReader(a + b)}, Input{"y", strings.NewReader(c)})
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != a+c || st.Positions != 2 || st.Duplicates != 1 {
		t.Errorf("merged %+v:\n%s", st, m.String())
	}
	m.Reset()
	if _, err := Merge(&m, Input{"x", bytes.NewReader(out)}, Input{"x again", bytes.NewReader(out)}); err != nil || !bytes.Equal(m.Bytes(), out) {
		t.Errorf("a file merged with itself: %v\n%s", err, m.Bytes())
	}
	// Out of order input is refused.
	if _, err := Merge(&m, Input{"z", strings.NewReader(c + a)}); err == nil {
		t.Error("a file out of game order merged")
	}
}

// TestCancel: a cancelled run stops with an error and writes whole games
// only.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := small(1, 50)
	cfg.Jobs = 2
	cfg.Progress = func(p Progress) {
		if p.Games == 2 {
			cancel()
		}
	}
	var buf bytes.Buffer
	_, err := Run(ctx, cfg, &buf)
	if err == nil {
		t.Fatal("a cancelled run reported no error")
	}
	games := map[int]bool{}
	for _, l := range lines(buf.Bytes()) {
		p, _ := ParseLine(l)
		games[p.Game] = true
	}
	if gs := slices.Sorted(maps.Keys(games)); len(gs) == 0 || gs[len(gs)-1] > 5 {
		t.Errorf("games written after cancelling at the second: %v", gs)
	}
}

// TestValidate: bad settings are refused.
func TestValidate(t *testing.T) {
	for _, c := range []Config{
		{Games: 1, Nodes: 0, HashMB: 1, Jobs: 1},
		{Games: 1, Nodes: 10, HashMB: 1, Jobs: 0},
		{Games: 1, Nodes: 10, HashMB: 1, Jobs: 1, Sizes: []int{10}},
		{Games: 1, Nodes: 10, HashMB: 1, Jobs: 1, Rules: []eval.Rule{3}},
		{Games: 1, Nodes: 10, HashMB: 1, Jobs: 1, Shard: match.Shard{Index: 2, Count: 2}},
		{Games: -1, Nodes: 10, HashMB: 1, Jobs: 1},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
