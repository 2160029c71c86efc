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
//
// It also counts where every alpha-beta node ends, by the depth it had
// left (End, Moves, Horizon*): the 99th session's comparison with Rapfi,
// node by node, showed where Wuzi's larger tree lies (the last three
// plies and the horizon's VCF; docs/evidence.md).
type CutStats struct {
	// Cut[k][i] counts the nodes of kind k that failed high at their
	// (i+1)-th searched move, the fourth and later ones together at i = 3.
	Cut [numNodeKinds][4]uint64
	// NoCut[k] counts the nodes of kind k that searched a move and did not
	// fail high.
	NoCut [numNodeKinds]uint64
	// End[d][e] counts the alpha-beta nodes (every call below the root)
	// with d plies left (0: the horizon; the last row: that many or more)
	// that ended as e (one of the end* kinds).
	End [statDepths][numNodeEnds]uint64
	// Moves[d][t] counts the moves searched by the move loops of the
	// nodes with d plies left, t = 1 for nodes under an open-three threat.
	Moves [statDepths][2]uint64
	// RootMoves counts the root's move searches (the root's own nodes).
	RootMoves uint64
	// HorizonVCF counts the quiescence's searches for a win by fours,
	// HorizonWins those that found one and HorizonNodes their nodes.
	HorizonVCF, HorizonWins, HorizonNodes uint64
}

// statDepths is how many rows of depth left CutStats keeps.
const statDepths = 16

// How an alpha-beta node ends (CutStats.End).
const (
	// endStop: the search was stopped.
	endStop = iota
	// endDecided: a five, an open four or a quick win of the side to
	// move, a full board, the ply limit, or a mate-distance cut.
	endDecided
	// endBlock: the opponent's five blocked, the only move.
	endBlock
	// endHorizon: no depth left, the quiescence.
	endHorizon
	// endTable: a table entry's bound.
	endTable
	// endRazor: razored to the quiescence.
	endRazor
	// endFutility: reverse futility.
	endFutility
	// endQuiet and endThreatened: the move loop, at a node not under
	// (under) an open-three threat.
	endQuiet
	endThreatened
	numNodeEnds
)

// nodeEndName names end kind e, a column of NodeLines.
func nodeEndName(e int) string {
	names := [numNodeEnds]string{"stopped", "decided", "block", "horizon", "table", "razor", "futility", "quiet", "threatened"}
	return names[e]
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

// end counts a node that had depth plies left and ended as e. A nil
// CutStats counts nothing.
func (c *CutStats) end(depth, e int) {
	if c != nil {
		c.End[statRow(depth)][e]++
	}
}

// statRow is the row of End and Moves for a node with depth plies left.
func statRow(depth int) int { return max(0, min(depth, statDepths-1)) }

// root counts one of the root's move searches.
func (c *CutStats) root() {
	if c != nil {
		c.RootMoves++
	}
}

// loop counts a node whose move loop searched n moves; it ends as
// endThreatened when threatened, else endQuiet.
func (c *CutStats) loop(depth int, threatened bool, n int) {
	if c == nil {
		return
	}
	d, t, e := statRow(depth), 0, endQuiet
	if threatened {
		t, e = 1, endThreatened
	}
	c.End[d][e]++
	c.Moves[d][t] += uint64(n)
}

// horizon counts one of the quiescence's VCF searches, its nodes and
// whether it won.
func (c *CutStats) horizon(nodes uint64, won bool) {
	if c == nil {
		return
	}
	c.HorizonVCF++
	c.HorizonNodes += nodes
	if won {
		c.HorizonWins++
	}
}

// Nodes is how many nodes the counts account for: the root's move
// searches, the alpha-beta nodes and the horizon's VCF nodes. The rest
// of a search's nodes are its threat searches at the root.
func (c *CutStats) Nodes() uint64 {
	n := c.RootMoves + c.HorizonNodes
	for _, row := range c.End {
		for _, v := range row {
			n += v
		}
	}
	return n
}

// NodeLines reports where the alpha-beta's nodes ended, a line a depth
// left: the count of each end, then the moves a move loop searched at the
// quiet and at the threatened nodes; then the totals, the horizon's VCF
// and the root.
func (c *CutStats) NodeLines() []string {
	head := fmt.Sprintf("%-5s", "left")
	for e := range numNodeEnds {
		head += fmt.Sprintf(" %10s", nodeEndName(e))
	}
	out := []string{head + fmt.Sprintf(" %8s %8s", "mv/quiet", "mv/thr")}
	var sum [numNodeEnds]uint64
	var moves [2]uint64
	for d, row := range c.End {
		var n uint64
		for e, v := range row {
			n += v
			sum[e] += v
		}
		moves[0] += c.Moves[d][0]
		moves[1] += c.Moves[d][1]
		if n == 0 {
			continue
		}
		label := fmt.Sprint(d)
		if d == statDepths-1 {
			label += "+"
		}
		out = append(out, nodeRow(label, row, c.Moves[d]))
	}
	out = append(out, nodeRow("all", sum, moves))
	out = append(out, fmt.Sprintf("horizon VCF: %d searches, %d won, %d nodes; root move searches: %d; nodes accounted: %d",
		c.HorizonVCF, c.HorizonWins, c.HorizonNodes, c.RootMoves, c.Nodes()))
	return out
}

// nodeRow is one line of NodeLines.
func nodeRow(label string, row [numNodeEnds]uint64, moves [2]uint64) string {
	l := fmt.Sprintf("%-5s", label)
	for _, v := range row {
		l += fmt.Sprintf(" %10d", v)
	}
	return l + fmt.Sprintf(" %8s %8s", perNode(moves[0], row[endQuiet]), perNode(moves[1], row[endThreatened]))
}

// perNode is moves per node to two places, or "-" without nodes.
func perNode(moves, nodes uint64) string {
	if nodes == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(moves)/float64(nodes))
}
