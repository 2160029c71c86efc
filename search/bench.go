package search

import (
	"context"
	"fmt"
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

// Bench searches every bench position to depth with a cleared table of
// hashMB MiB and reports one line per position. The node total depends
// only on the code (and params), so it is a signature of the search's
// behaviour. params, when not nil, replaces DefaultParams, the
// evaluation's percentages included, as the engine's --param does. stats,
// when not nil, gets the counts of where the nodes failed high over all
// positions (counting does not change the search).
func Bench(depth, hashMB int, params *Params, stats *CutStats, line func(string)) (BenchResult, error) {
	var total BenchResult
	s := New(hashMB)
	s.CutStats = stats
	if params != nil {
		s.Options.Params = *params
	}
	for _, bp := range BenchPositions() {
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
