package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/eval"
)

// vcfPositions returns random positions (fixed seeds) in which the side to
// move has a win by continuous fours.
func vcfPositions(tb testing.TB, n int) []*eval.Board {
	var out []*eval.Board
	for g := 0; len(out) < n && g < 2000; g++ {
		rng := rand.New(rand.NewPCG(uint64(g), 99))
		b := setup(tb, eval.Freestyle, 15)
		for b.Ply() < 16+rng.IntN(24) {
			p := b.Pos(7+rng.IntN(9)-4, 7+rng.IntN(9)-4)
			if b.IsEmpty(p) && !b.WinsAt(p, b.SideToMove()) {
				b.Play(p)
			}
		}
		if hasFivePoint(b, b.SideToMove().Opp()) || hasFivePoint(b, b.SideToMove()) {
			continue
		}
		s := New(1)
		s.b = b
		s.resetArea()
		if seq, ok := s.vcfRoot(0); ok && len(seq) >= 5 {
			out = append(out, b)
		}
	}
	return out
}

// BenchmarkVCF measures the VCF solver proving wins of three or more fours
// (a fresh table each time, so nothing is remembered between runs).
func BenchmarkVCF(bm *testing.B) {
	pos := vcfPositions(bm, 20)
	s := New(1)
	bm.ResetTimer()
	var nodes uint64
	for i := 0; i < bm.N; i++ {
		b := pos[i%len(pos)]
		s.TT.Clear()
		s.b = b
		s.nodes = 0
		s.resetArea()
		if _, ok := s.vcfRoot(0); !ok {
			bm.Fatal("VCF lost")
		}
		nodes += s.nodes
	}
	bm.ReportMetric(float64(nodes)/float64(bm.N), "nodes/op")
}

// benchBoards sets up the bench positions (a search returns its board as
// it was, so a benchmark may search them again and again).
func benchBoards(tb testing.TB) []*eval.Board {
	var out []*eval.Board
	for _, bp := range BenchPositions() {
		b := setup(tb, bp.Rule, bp.Size)
		for _, m := range bp.Moves {
			b.Play(b.Pos(m[0], m[1]))
		}
		out = append(out, b)
	}
	return out
}

// BenchmarkSearch searches the bench positions to depth 6 and reports the
// speed in nodes per second.
func BenchmarkSearch(bm *testing.B) {
	var nodes uint64
	boards := benchBoards(bm)
	for i := 0; i < bm.N; i++ {
		for _, b := range boards {
			s := New(16)
			s.Search(context.Background(), b, Limits{MaxDepth: 6}, nil)
			nodes += s.Nodes()
		}
	}
	bm.ReportMetric(float64(nodes)/bm.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSearchNodes searches each bench position for 200,000 nodes with
// one 64 MB table, cleared between positions, as a move of a game does:
// the time a node takes in play, table misses and threat searches
// included, without BenchmarkSearch's allocation of a table a position.
func BenchmarkSearchNodes(bm *testing.B) { searchEach(bm, benchBoards(bm)) }

// searchEach searches each board for 200,000 nodes with one 64 MB table,
// cleared between boards, and reports the nodes a second and the nodes of
// a pass (the same for the same code).
func searchEach(bm *testing.B, boards []*eval.Board) {
	s := New(64)
	var nodes uint64
	for i := 0; i < bm.N; i++ {
		for _, b := range boards {
			s.Clear()
			s.Search(context.Background(), b, Limits{MaxNodes: 200000}, nil)
			nodes += s.Nodes()
		}
	}
	bm.ReportMetric(float64(nodes)/bm.Elapsed().Seconds(), "nodes/s")
	bm.ReportMetric(float64(nodes)/float64(bm.N), "nodes/op")
}

// gameBoards sets up testdata/game_positions.txt: positions of real games
// against another engine, before Wuzi's moves in the opening and early
// middle game, where a game's time goes (the bench positions are
// threat-heavy and spend most of theirs in the threat search).
func gameBoards(tb testing.TB) []*eval.Board {
	return positionBoards(tb, "game_positions.txt", eval.Freestyle)
}

// positionBoards sets up the 15×15 positions of testdata/name under rule
// r, one a line, moves as x,y;x,y from the empty board.
func positionBoards(tb testing.TB, name string, r eval.Rule) []*eval.Board {
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	list, err := ParsePositions(f, r, 15)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var out []*eval.Board
	for _, bp := range list {
		b := setup(tb, r, 15)
		for _, m := range bp.Moves {
			p := b.Pos(m[0], m[1])
			if !b.IsEmpty(p) {
				tb.Fatalf("%s %s: a move on a stone", name, bp.Name)
			}
			b.Play(p)
		}
		out = append(out, b)
	}
	return out
}

// BenchmarkGamePositions searches each position of real games for 200,000
// nodes with one 64 MB table, cleared between positions: the node rate of
// a game's moves (see gameBoards). The tree depends only on the code, so
// two builds with the same nodes/op searched the same nodes.
func BenchmarkGamePositions(bm *testing.B) { searchEach(bm, gameBoards(bm)) }

// BenchmarkLatePositions is BenchmarkGamePositions on later positions of
// real games (testdata/late_positions.txt: plies 20 to 41), where Wuzi's
// tree grows far faster than Rapfi's (docs/evidence.md, 100th session).
func BenchmarkLatePositions(bm *testing.B) {
	searchEach(bm, positionBoards(bm, "late_positions.txt", eval.Freestyle))
}

// TestParsePositions checks that ParsePositions, which `pbrain-wuzi bench
// --positions` and the benchmarks (positionBoards) read position files
// with, reads each line of the three position files to the moves the
// tactical suites' parser (parseMoves) reads from it, and names each
// position by its line.
func TestParsePositions(t *testing.T) {
	for _, c := range []struct {
		name string
		rule eval.Rule
	}{{"game_positions.txt", eval.Freestyle}, {"late_positions.txt", eval.Freestyle}, {"renju_positions.txt", eval.Renju}} {
		data, err := os.ReadFile(filepath.Join("testdata", c.name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParsePositions(strings.NewReader(string(data)), c.rule, 15)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		i := 0
		for n, line := range strings.Split(string(data), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if i >= len(got) {
				t.Fatalf("%s: %d positions read, line %d not among them", c.name, len(got), n+1)
			}
			bp := got[i]
			i++
			b := setup(t, c.rule, 15)
			want, err := parseMoves(b, line)
			if err != nil {
				t.Fatal(err)
			}
			if bp.Name != fmt.Sprintf("line-%d", n+1) || bp.Rule != c.rule || bp.Size != 15 || len(bp.Moves) != len(want) {
				t.Fatalf("%s: line %d read as %+v, want %d moves", c.name, n+1, bp, len(want))
			}
			for j, m := range bp.Moves {
				if b.Pos(m[0], m[1]) != want[j] {
					t.Fatalf("%s: line %d move %d is %v, parseMoves reads %v", c.name, n+1, j, m, want[j])
				}
			}
		}
		if i != len(got) || i != 40 {
			t.Fatalf("%s: %d positions read, %d lines hold one (want 40)", c.name, len(got), i)
		}
	}
}

// BenchmarkRenjuPositions is BenchmarkGamePositions under renju, on
// positions of real renju games (testdata/renju_positions.txt), where
// Black's foul checks cost the board and the threat searches time.
func BenchmarkRenjuPositions(bm *testing.B) {
	searchEach(bm, positionBoards(bm, "renju_positions.txt", eval.Renju))
}
