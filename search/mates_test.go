package search

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

var (
	matesNodes = flag.Int("mates", 0, "search every position of testdata/mates_engines.txt for this many nodes and report how many wins the search proves")
	matesTime  = flag.Duration("mates-time", 0, "the same with this much time a position (soft deadline half of it), as the engine plays")
)

// TestEngineMates runs the positions where a stronger engine proved a
// forced win for the side to move in Wuzi's lost games (most of them begin
// with a quiet move, which no threat-space search finds). Without -mates
// it checks that the file reads and replays; with -mates=N it searches
// each for N nodes and reports how many the search proves (a win score)
// and how often it plays the stronger engine's first move.
func TestEngineMates(t *testing.T) {
	suite := loadTacticsFile(t, filepath.Join("testdata", "mates_engines.txt"))
	if len(suite) < 100 {
		t.Fatalf("%d positions, want at least 100", len(suite))
	}
	for _, tc := range suite {
		if tc.kind != "mate" || len(tc.answers) != 1 || tc.plies < 11 {
			t.Fatalf("bad entry %+v", tc)
		}
		tc.replay(t)
	}
	if *matesNodes == 0 && *matesTime == 0 {
		return
	}
	proven, same := 0, 0
	var nodes uint64
	start := time.Now()
	for i, tc := range suite {
		b := tc.replay(t)
		s := New(64)
		lim := Limits{MaxNodes: uint64(*matesNodes)}
		if *matesTime > 0 {
			now := time.Now()
			lim = Limits{Soft: now.Add(*matesTime * 3 / 4), Hard: now.Add(*matesTime)}
		}
		t0 := time.Now()
		res := s.Search(context.Background(), b, lim, nil)
		el := time.Since(t0)
		nodes += res.Nodes
		won := IsMate(res.Score) && res.Score > 0
		if won {
			proven++
		}
		if slices.Contains(tc.answers, res.Move) {
			same++
		}
		if testing.Verbose() {
			t.Logf("%3d: mate %2d, played %v (engine %v), score %d, depth %d, %s, %v", i, tc.plies, xy(b, res.Move), xy(b, tc.answers[0]), res.Score, res.Depth, res.Reason, el.Round(time.Millisecond))
		}
	}
	budget := fmt.Sprintf("%d nodes", *matesNodes)
	if *matesTime > 0 {
		budget = matesTime.String()
	}
	t.Logf("%d positions at %s: %d wins proven, %d times the engine's first move; %d nodes in %v",
		len(suite), budget, proven, same, nodes, time.Since(start).Round(time.Millisecond))
}
