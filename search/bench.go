package search

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"wuzi/eval"
)

// DefaultBenchDepth is the depth `pbrain-wuzi bench` searches to.
const DefaultBenchDepth = 7

// BenchPosition is one fixed position of the bench: a rule, a board size
// and the moves (x, y) played from the empty board.
type BenchPosition struct {
	Name  string
	Rule  eval.Rule
	Size  int
	Moves [][2]int
}

// BenchPositions returns the bench's positions: openings and middle games
// under every rule, on 15×15 and 20×20.
func BenchPositions() []BenchPosition {
	return []BenchPosition{
		{"freestyle-15-opening", eval.Freestyle, 15, [][2]int{{7, 7}, {8, 7}, {8, 10}}},
		{"freestyle-15-middle", eval.Freestyle, 15, [][2]int{{7, 7}, {8, 8}, {8, 6}, {6, 8}, {9, 7}, {7, 8}, {9, 8}, {9, 6}, {10, 9}, {6, 6}}},
		{"freestyle-20-opening", eval.Freestyle, 20, [][2]int{{10, 10}, {11, 11}, {10, 13}}},
		{"freestyle-20-middle", eval.Freestyle, 20, [][2]int{{10, 10}, {11, 10}, {10, 11}, {10, 9}, {11, 12}, {12, 13}, {9, 11}, {8, 11}, {11, 11}, {12, 11}}},
		{"standard-15-middle", eval.Standard, 15, [][2]int{{7, 7}, {7, 8}, {8, 7}, {6, 7}, {8, 8}, {9, 9}, {8, 9}, {8, 6}, {6, 9}, {10, 8}}},
		{"renju-15-opening", eval.Renju, 15, [][2]int{{7, 7}, {8, 6}, {9, 7}}},
		{"renju-15-middle", eval.Renju, 15, [][2]int{{7, 7}, {8, 8}, {6, 8}, {8, 6}, {8, 7}, {6, 7}, {9, 8}, {7, 9}, {5, 9}, {10, 9}}},
		{"caro-15-middle", eval.CaroFree, 15, [][2]int{{7, 7}, {8, 8}, {7, 8}, {7, 6}, {6, 7}, {8, 7}, {8, 6}, {5, 6}, {9, 5}}},
	}
}

// ParsePositions reads positions of one rule and board size, one a line,
// as search/testdata/game_positions.txt holds them: the moves x,y
// (0-based) from the empty board, Black first, separated by ";". Blank
// lines and lines starting with "#" are skipped; each position is named
// by its line number. A move off the board or a malformed line is an
// error naming the line; a move on an occupied cell is found when the
// position is set up (Bench).
func ParsePositions(r io.Reader, rule eval.Rule, size int) ([]BenchPosition, error) {
	var out []BenchPosition
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bp := BenchPosition{Name: fmt.Sprintf("line-%d", n), Rule: rule, Size: size}
		for _, f := range strings.Split(line, ";") {
			var x, y int
			var rest string
			if k, _ := fmt.Sscanf(strings.TrimSpace(f)+" .", "%d,%d %s", &x, &y, &rest); k != 3 || rest != "." {
				return nil, fmt.Errorf("line %d: bad move %q (want x,y;x,y;...)", n, f)
			}
			if x < 0 || y < 0 || x >= size || y >= size {
				return nil, fmt.Errorf("line %d: move %d,%d off the %dx%d board", n, x, y, size, size)
			}
			bp.Moves = append(bp.Moves, [2]int{x, y})
		}
		out = append(out, bp)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}

// BenchResult sums a bench run.
type BenchResult struct {
	Nodes   uint64
	Elapsed time.Duration
}

// NPS is the speed in nodes per second.
func (r BenchResult) NPS() uint64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return uint64(float64(r.Nodes) / r.Elapsed.Seconds())
}

// Bench searches every position of positions (nil: BenchPositions) to
// depth with a cleared table of hashMB MiB and reports one line per
// position. The node total depends
// only on the code (and params), so it is a signature of the search's
// behaviour. params, when not nil, replaces DefaultParams, the
// evaluation's percentages included, as the engine's --param does. stats,
// when not nil, gets the counts of where the nodes failed high over all
// positions (counting does not change the search).
func Bench(positions []BenchPosition, depth, hashMB int, params *Params, stats *CutStats, line func(string)) (BenchResult, error) {
	if positions == nil {
		positions = BenchPositions()
	}
	var total BenchResult
	s := New(hashMB)
	s.CutStats = stats
	if params != nil {
		s.Options.Params = *params
	}
	for _, bp := range positions {
		b, err := params.NewBoard(bp.Size, bp.Size, bp.Rule)
		if err != nil {
			return total, err
		}
		for _, m := range bp.Moves {
			p := b.Pos(m[0], m[1])
			if !b.IsEmpty(p) {
				return total, fmt.Errorf("%s: %d,%d played twice", bp.Name, m[0], m[1])
			}
			b.Play(p)
		}
		s.Clear()
		start := time.Now()
		res := s.Search(context.Background(), b, Limits{MaxDepth: depth}, nil)
		el := time.Since(start)
		x, y := b.XY(res.Move)
		line(fmt.Sprintf("%-22s depth %2d move %2d,%-2d score %6d nodes %9d time %6dms", bp.Name, res.Depth, x, y, res.Score, s.Nodes(), el.Milliseconds()))
		total.Nodes += s.Nodes()
		total.Elapsed += el
	}
	return total, nil
}
