package search

import (
	"context"
	"strings"
	"testing"
)

// TestCutStats checks bench's cut counts: counting leaves the search as it
// was (the same nodes), every node kind of the alpha-beta is seen, no more
// nodes are counted than were searched, and Lines reports them.
// (The first-move rate itself is no test of the move order on its own: a
// search that ranked the worst moves first cut at the first move as often
// here, in a different and smaller tree.)
func TestCutStats(t *testing.T) {
	const depth = 5
	plain, err := Bench(nil, depth, 16, nil, nil, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	var st CutStats
	counted, err := Bench(nil, depth, 16, nil, &st, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if counted.Nodes != plain.Nodes {
		t.Fatalf("counting changed the search: %d nodes, %d without", counted.Nodes, plain.Nodes)
	}
	var all uint64
	for k := range numNodeKinds {
		n := st.NoCut[k]
		for _, c := range st.Cut[k] {
			n += c
		}
		if n == 0 {
			t.Errorf("%s: no node counted", nodeKindName(k))
		}
		if (k == kindQuiet || k == kindThreatened) && (n == st.NoCut[k] || st.NoCut[k] == 0) {
			t.Errorf("%s: %d nodes, %d of them without a cut: want both kinds", nodeKindName(k), n, st.NoCut[k])
		}
		all += n
	}
	if all > counted.Nodes {
		t.Errorf("%d nodes counted, %d searched", all, counted.Nodes)
	}
	lines := st.Lines()
	if len(lines) != 1+numNodeKinds || !strings.HasPrefix(lines[1], "non-PV, quiet") {
		t.Errorf("Lines: %q", lines)
	}
}

// TestNodeStatsAccount checks the table of where the nodes end: without
// threat searches every node a search counts is accounted for once (the
// root's move searches plus one end per alpha-beta node), so no exit of
// the alpha-beta is missed or counted twice; with them the horizon's VCF
// is counted too and nothing is counted that was not searched; and on
// real games' positions each way a node can end is seen.
func TestNodeStatsAccount(t *testing.T) {
	boards := gameBoards(t)[:12]
	var all CutStats
	for i, b := range boards {
		for _, threats := range []bool{false, true} {
			s := New(16)
			s.Options.UseVCF, s.Options.UseVCT, s.Options.VerifyVCT = threats, threats, threats
			st := new(CutStats)
			s.CutStats = st
			s.Search(context.Background(), b, Limits{MaxDepth: 8}, nil)
			switch {
			case !threats && st.Nodes() != s.Nodes():
				t.Errorf("position %d, no threat searches: %d nodes accounted, %d searched", i, st.Nodes(), s.Nodes())
			case !threats && st.HorizonVCF != 0:
				t.Errorf("position %d, no threat searches: %d horizon VCF searches counted", i, st.HorizonVCF)
			case threats && st.Nodes() > s.Nodes():
				t.Errorf("position %d: %d nodes accounted, only %d searched", i, st.Nodes(), s.Nodes())
			}
			if threats {
				for d := range st.End {
					for e, v := range st.End[d] {
						all.End[d][e] += v
					}
				}
				all.HorizonNodes += st.HorizonNodes
			}
		}
	}
	var sum [numNodeEnds]uint64
	for _, row := range all.End {
		for e, v := range row {
			sum[e] += v
		}
	}
	for e := endDecided; e < numNodeEnds; e++ {
		if sum[e] == 0 {
			t.Errorf("no node ended as %q on %d positions", nodeEndName(e), len(boards))
		}
	}
	if sum[endStop] != 0 {
		t.Errorf("%d nodes counted as stopped in searches without a limit", sum[endStop])
	}
	if all.HorizonNodes == 0 {
		t.Error("no horizon VCF node counted")
	}
	lines := all.NodeLines()
	if !strings.HasPrefix(lines[0], "left ") || !strings.HasPrefix(lines[len(lines)-2], "all ") {
		t.Errorf("NodeLines: %q", lines)
	}
}
