package search

import "fmt"

// Node kinds of CutStats: PV or not, and whether the opponent threatens an
// open four (an open three) at the node.
const (
	kindQuiet = iota
	kindThreatened
	kindPVQuiet
	kindPVThreatened
	numNodeKinds
)

// nodeKindName names node kind k in CutStats' report.
func nodeKindName(k int) string {
	switch k {
	case kindQuiet:
		return "non-PV, quiet"
	case kindThreatened:
		return "non-PV, under a threat"
	case kindPVQuiet:
		return "PV, quiet"
	}
	return "PV, under a threat"
}

// CutStats counts where the alpha-beta's nodes fail high, the measure of a
// move order: a node expected to cut should cut at its first move. Only
// nodes that reach the move loop and search a move count; table cut-offs,
// static pruning and forced blocks do not. A Searcher counts into it when
// its CutStats field is set (bench --cut-stats); counting does not change
// the search.
type CutStats struct {
	// Cut[k][i] counts the nodes of kind k that failed high at their
	// (i+1)-th searched move, the fourth and later ones together at i = 3.
	Cut [numNodeKinds][4]uint64
	// NoCut[k] counts the nodes of kind k that searched a move and did not
	// fail high.
	NoCut [numNodeKinds]uint64
}

// nodeKind is the CutStats index of a node.
func nodeKind(pvNode, threatened bool) int {
	k := kindQuiet
	if threatened {
		k = kindThreatened
	}
	if pvNode {
		k += kindPVQuiet
	}
	return k
}

// cut counts a node that failed high at its i-th searched move (from 0).
// A nil CutStats counts nothing.
func (c *CutStats) cut(pvNode, threatened bool, i int) {
	if c != nil {
		c.Cut[nodeKind(pvNode, threatened)][min(i, 3)]++
	}
}

// noCut counts a node that searched a move and did not fail high.
func (c *CutStats) noCut(pvNode, threatened bool) {
	if c != nil {
		c.NoCut[nodeKind(pvNode, threatened)]++
	}
}

// Lines reports the counts, one line a node kind: the nodes that cut at
// their first, second, third and a later move, those that did not cut,
// and the share of the cutting nodes that cut at the first move.
func (c *CutStats) Lines() []string {
	out := []string{fmt.Sprintf("%-24s %9s %9s %9s %9s %9s %7s", "nodes", "cut 1st", "2nd", "3rd", "later", "no cut", "1st %")}
	for k := range numNodeKinds {
		cuts := c.Cut[k][0] + c.Cut[k][1] + c.Cut[k][2] + c.Cut[k][3]
		rate := "-"
		if cuts > 0 {
			rate = fmt.Sprintf("%.1f", 100*float64(c.Cut[k][0])/float64(cuts))
		}
		out = append(out, fmt.Sprintf("%-24s %9d %9d %9d %9d %9d %7s", nodeKindName(k), c.Cut[k][0], c.Cut[k][1], c.Cut[k][2], c.Cut[k][3], c.NoCut[k], rate))
	}
	return out
}
