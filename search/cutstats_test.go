package search

import (
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
	plain, err := Bench(depth, 16, nil, nil, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	var st CutStats
	counted, err := Bench(depth, 16, nil, &st, func(string) {})
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
