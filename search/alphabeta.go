package search

import "wuzi/eval"

// historySize covers every Pos of the largest board.
const historySize = 2048

// lazyPicks is how many moves of a node are picked from its unsorted list
// one at a time before the rest is sorted.
const lazyPicks = 3

// lmpPicks is how many moves at most a node that late-move pruning may
// cut short picks one at a time: up to its quota, after which it searches
// no more, so it need never sort the whole list.
const lmpPicks = 8

// plyTenths is a ply in the tenths that forced blocks earn: Params.BlockExt
// (3 by default) is what a forced block of the opponent's four adds to
// the depth, in tenths of a ply, beyond the ply the block itself takes: a
// four and its block cost 0.7 of a ply instead of one, so attacks that mix
// fours with threes are followed further. The tenths add up along the
// path (Searcher.blockFrac, which the root starts at half a ply, so that
// they round to the nearest ply) and a whole ply is added to the depth
// each time they make one. Rapfi extends its forced blocks by 1.3 plies.
// Against Rapfi at 30,000 nodes, Wuzi 300 ms: about +18 ± 27 Elo over 800
// games (docs/evidence.md).
const plyTenths = 10

// noEval marks a ply whose node computed no static evaluation.
const noEval = -1 << 30

// pvs is a fail-soft principal-variation search of the side to move at
// the given remaining depth, ply plies from the root. Invariants: the
// board is returned as it was; a result obtained after the stop flag was
// raised is meaningless and never stored; s.pv[ply][:s.pvLen[ply]] holds
// the best line found from this node when the score is inside the window.
func (s *Searcher) pvs(depth, ply, alpha, beta int, pvNode bool) int {
	s.poll()
	prm := &s.Options.Params
	cutNode := s.expectCut[ply] && !pvNode
	s.pvLen[ply] = 0
	s.evalStack[ply] = noEval
	if s.aborted() {
		s.CutStats.end(depth, endStop)
		return 0
	}
	if ply > s.selDepth {
		s.selDepth = ply
	}
	b := s.b
	us := b.SideToMove()
	them := us.Opp()

	// A five of ours ends the game next ply.
	if b.ComboCount(us, eval.ComboFive) > 0 {
		s.CutStats.end(depth, endDecided)
		return Win - (ply + 1)
	}
	if b.Empties() == 0 {
		s.CutStats.end(depth, endDecided)
		return 0
	}
	if ply >= MaxPly {
		s.CutStats.end(depth, endDecided)
		return int(b.Evaluate())
	}
	// Mate-distance pruning: no line from here can beat a shorter win.
	alpha = max(alpha, -Win+ply)
	beta = min(beta, Win-ply-1)
	if alpha >= beta {
		s.CutStats.end(depth, endDecided)
		return alpha
	}

	// The opponent's five must be blocked, at once and only there.
	if n := b.ComboCount(them, eval.ComboFive); n > 0 {
		s.CutStats.end(depth, endBlock)
		p := s.findCombo(them, eval.ComboFive)
		if n > 1 || s.forbidden(p) {
			return -(Win - (ply + 2))
		}
		d, f := depth, s.blockFrac[ply]
		if depth >= 1 {
			if f += int8(prm.BlockExt); f >= plyTenths {
				d++
				f -= plyTenths
			}
		}
		if d >= 1 {
			s.TT.prefetch(b.HashAfter(p))
		}
		s.play(p)
		s.expectCut[ply+1] = !cutNode
		s.blockFrac[ply+1] = f
		score := -s.pvs(d, ply+1, -beta, -alpha, pvNode)
		s.undo()
		if !s.aborted() {
			s.setPV(ply, p)
		}
		return score
	}
	// An open four (or two fours) of ours wins: the opponent has no five.
	if b.ComboCount(us, eval.ComboFlexFour) > 0 {
		s.CutStats.end(depth, endDecided)
		return Win - (ply + 3)
	}
	// A four-three or a double three of ours wins when the opponent has no
	// four to interrupt it with.
	if s.quickWin(us, them) {
		s.CutStats.end(depth, endDecided)
		return Win - (ply + 5)
	}

	if depth <= 0 {
		s.CutStats.end(depth, endHorizon)
		return s.quiesce(ply, alpha, beta)
	}

	// Transposition table.
	key := b.Hash()
	ttMove := eval.NoPos
	// ttPv: the node is on the principal variation, or was when the
	// table stored it; its late moves are reduced less.
	ttPv := pvNode
	if e, ok := s.TT.probe(key); ok {
		ttMove = e.move
		ttPv = ttPv || e.pv
		if !pvNode && int(e.depth) >= depth {
			sc := scoreFromTT(int(e.score), ply)
			bd := bound(e.flags & 3)
			if bd == boundExact || (bd == boundLower && sc >= beta) || (bd == boundUpper && sc <= alpha) {
				s.tableCutStats(ply, ttMove, depth, sc, alpha, beta)
				s.CutStats.end(depth, endTable)
				return sc
			}
		}
	}

	threatened := s.Options.UseThreatGen && b.ComboCount(them, eval.ComboFlexFour) > 0
	// improving: the side to move stands better than two plies ago (or
	// that node kept no evaluation); such nodes are pruned less.
	ev := s.nodeEval(ply)
	s.evalStack[ply] = ev
	improving := ply < 2 || s.evalStack[ply-2] == noEval || ev > s.evalStack[ply-2]
	// Static pruning at quiet non-PV nodes, where the opponent threatens
	// neither an open four nor a four-three (the threat features of the
	// evaluation price the rest): far below alpha only a win by fours can
	// help (razoring), far above beta the node is taken to fail high
	// (reverse futility).
	if s.Options.UseStaticPrune && !pvNode && !threatened && b.ComboCount(them, eval.ComboFourThree) == 0 {
		if depth <= prm.RazorDepth && ev+prm.RazorMargin*depth < alpha {
			s.CutStats.end(depth, endRazor)
			return s.quiesce(ply, alpha, beta)
		}
		fd := depth
		if improving {
			fd--
		}
		if ev-prm.FutilityMargin*fd >= beta && beta > -winBound {
			s.CutStats.end(depth, endFutility)
			return ev
		}
	}
	// The table's move is searched before the others are generated: when
	// it cuts, as it mostly does at a cut node, the list is never made.
	// It is the same position's candidate, so it is first in the list
	// genMoves would make (orderTT) and passes its filters. The killers
	// come in the list, ranked by their score (Params.KillerBonus).
	moves := s.moveBuf[ply][:0]
	if ttMove != eval.NoPos && b.IsEmpty(ttMove) {
		moves = append(moves, scoredMove{ttMove, orderTT})
	}
	generated := false
	// An expected cut node far above beta will most likely cut: its moves
	// that make no four are searched a ply shallower.
	likelyFailHigh := cutNode && ev >= beta+prm.FailHighMargin*depth && beta < winBound
	s.blockFrac[ply+1] = s.blockFrac[ply]
	origAlpha := alpha
	best := -infinity
	bestMove := eval.NoPos
	searched := 0
	// Under an open-three threat a move that is neither a four nor a
	// block is skipped. Where the rule allows (BlocksExact) and the
	// opponent's open-four cells are all known, the board tells a block
	// without playing it; else the move is played and the threat looked
	// for. Either way the same moves are searched.
	blocksKnown := false
	// Late-move pruning (move-count pruning, as Rapfi's): once a node
	// has searched its quota of moves and one of them did not lose, it
	// searches no more. Every node prunes so, PV nodes and nodes under
	// an open-three threat too, and every move past the quota is
	// dropped, fours and the opponent's four points too. Until the 79th
	// session Wuzi pruned only quiet moves and threes, at non-PV nodes
	// not under a threat, and without the guard; each of those three
	// exemptions, put into Rapfi, cost it 45-113 Elo (77th session), and
	// removing them here, with the reductions under the threat below,
	// scored +17 ± 41 and +31 ± 36 Elo against Rapfi at a clock (Wuzi at
	// 300 ms a move, Rapfi at 30,000 nodes, two seeds of 400 games;
	// docs/evidence.md). The guard keeps a node whose searched moves all
	// lose from claiming the loss before its other moves are tried.
	lmpOn := s.Options.UseLMP
	lmpLimit, picks := 0, lazyPicks
	if lmpOn {
		lmpLimit = s.lmpLimit(depth, improving)
		picks = max(picks, min(lmpLimit, lmpPicks))
	}
	for i := 0; i < len(moves) || !generated; i++ {
		if lmpOn && searched >= lmpLimit && best > -winBound {
			break
		}
		if i == len(moves) {
			moves = s.genMoves(ply, ttMove, threatened)
			generated = true
			blocksKnown = threatened && s.blocksKnown(ply, them)
			for j := range i {
				pickMove(moves, j) // the table's move, searched already
			}
			if len(moves) <= i {
				break // they were the only candidates
			}
		}
		// The first few moves are picked one by one (a cut node mostly
		// cuts at one of them; one that prunes late moves searches few
		// more), the rest sorted at once.
		if i < picks {
			pickMove(moves, i)
		} else if i == picks {
			sortMoves(moves[i:])
		}
		m := moves[i]
		p := m.pos
		ourCombo := b.Combo(p, us)
		if blocksKnown && ourCombo < eval.ComboFour && !b.BlocksOpenFours(p, them, s.flexBuf[ply]) {
			continue // neither a four nor a block of the open-four threat
		}
		if depth >= 2 {
			// The child probes the table unless a reduction takes
			// it to depth 0 (the horizon probes none).
			s.TT.prefetch(b.HashAfter(p))
		}
		s.play(p)
		if threatened && !blocksKnown && ourCombo < eval.ComboFour && b.ComboCount(them, eval.ComboFlexFour) > 0 {
			// Neither a four nor a block of the open-four threat.
			s.undo()
			continue
		}
		var score int
		newDepth := depth - 1
		if likelyFailHigh && ourCombo < eval.ComboFour && newDepth > 1 {
			newDepth--
		}
		if searched == 0 {
			s.expectCut[ply+1] = !cutNode
			score = -s.pvs(newDepth, ply+1, -beta, -alpha, pvNode)
		} else {
			r := 0
			lmr := s.Options.UseLMR && depth >= 3 && reducible(ourCombo) && !threatened && m.pos != s.killers[ply][0] && m.pos != s.killers[ply][1]
			if lmr && i >= 3 {
				r = s.lmrReduction(depth, i)
				if !improving {
					r++
				}
				// Moves the move order rates poorly: shallower still.
				if m.score < int32(prm.PolicyReduce1) {
					r++
				}
				if m.score < int32(prm.PolicyReduce2) {
					r++
				}
				// Rapfi's pair: a cut node's late moves reduced a ply
				// more, those of a node on the principal variation (or
				// once on it) a ply less (Params.CutNodeReduce).
				if cutNode {
					r += prm.CutNodeReduce
				}
				if ttPv {
					r = max(r-prm.PVNodeReduce, 0)
				}
				if depth-1-r < 1 {
					r = depth - 2
				}
			}
			if threatened && depth >= 3 {
				// Under an open-three threat every move after the first
				// (a block or a four of ours) is reduced by its count,
				// as Rapfi reduces the defender's moves, and a move that
				// takes none of the opponent's four points by the
				// distant-defence plies on top.
				r = s.lmrReduction(depth, searched)
				if prm.DistantDefence > 0 && b.Combo(p, them) < eval.ComboFour {
					r += s.distantDefence(p, prm.DistantDefence)
				}
				r = min(r, depth-2)
			}
			s.expectCut[ply+1] = true
			score = -s.pvs(newDepth-r, ply+1, -alpha-1, -alpha, false)
			if score > alpha && r > 0 && !s.aborted() {
				s.expectCut[ply+1] = !cutNode
				score = -s.pvs(newDepth, ply+1, -alpha-1, -alpha, false)
			}
			if score > alpha && score < beta && pvNode && !s.aborted() {
				s.expectCut[ply+1] = false
				score = -s.pvs(newDepth, ply+1, -beta, -alpha, true)
			}
		}
		s.undo()
		if s.aborted() {
			s.CutStats.end(depth, endStop)
			return 0
		}
		searched++
		if score > best {
			best = score
			bestMove = p
			if score > alpha {
				alpha = score
				s.setPV(ply, p)
				if score >= beta {
					s.CutStats.cut(pvNode, threatened, searched-1)
					s.cutStats(ply, p, ourCombo, moves[:i], depth)
					break
				}
			}
		}
	}
	if searched > 0 && best < beta {
		s.CutStats.noCut(pvNode, threatened)
	}
	s.CutStats.loop(depth, threatened, searched)
	if searched == 0 {
		// Every move loses to the open four (or no move is legal).
		return -(Win - (ply + 4))
	}
	bd := boundUpper
	if best >= beta {
		bd = boundLower
	} else if best > origAlpha {
		bd = boundExact
	}
	if s.corr != nil && !threatened && best > -winBound && best < winBound &&
		(bestMove == eval.NoPos || b.Combo(bestMove, us) < eval.ComboFour) &&
		!(bd == boundLower && best <= ev) && !(bd == boundUpper && best >= ev) {
		s.updateCorrection(us, s.corrAt[ply], best, s.rawEval[ply], depth)
	}
	s.TT.store(key, bestMove, scoreToTT(best, ply), depth, bd, ttPv)
	return best
}

// blocksKnown reports whether the board can tell, without playing them,
// which moves of the node at ply block the open-four cells of them that
// genMoves listed: the rule must allow it and the list must hold every
// such cell.
func (s *Searcher) blocksKnown(ply int, them eval.Color) bool {
	return s.b.BlocksExact(them) && len(s.flexBuf[ply]) == s.b.ComboCount(them, eval.ComboFlexFour)
}

// nodeEval is the static evaluation of the node at ply, corrected by the
// correction history when it is on; its key and the raw evaluation are
// kept for the node's update.
func (s *Searcher) nodeEval(ply int) int {
	ev := s.staticEval()
	if s.corr == nil {
		return ev
	}
	s.rawEval[ply] = ev
	k := s.corrKey()
	s.corrAt[ply] = k
	return max(-winBound+1, min(winBound-1, ev+s.correction(s.b.SideToMove(), k)))
}

// quiesce scores a horizon node: the static evaluation when it already
// reaches beta, else a win by continuous fours if a local search finds one
// (fours near our last stone, each next four near the one before, as
// Rapfi's quick VCF does), else the static evaluation. A full-board VCF at
// every leaf took over half the search's time (profile of 1 s searches,
// docs/evidence.md).
func (s *Searcher) quiesce(ply, alpha, beta int) int {
	b := s.b
	if s.OnLeaf != nil {
		s.OnLeaf(b)
	}
	us := b.SideToMove()
	ev := s.nodeEval(ply)
	if ev >= beta {
		// Standing pat already fails high: a win by fours could only
		// raise the score of a node its parent will not take.
		return ev
	}
	if s.Options.QuiesceVCF && s.Options.UseVCF {
		if b.ComboCount(us, eval.ComboFour)+b.ComboCount(us, eval.ComboFourThree) > 0 {
			s.vcfLocal = true
			n := s.nodes
			won := s.vcf(ply, 12)
			s.CutStats.horizon(s.nodes-n, won)
			s.vcfLocal = false
			if won {
				return Win - (ply + 1 + s.vcfLen)
			}
		}
	}
	return ev
}

// quickWin reports whether side us, to move, wins within five plies by
// the threat counts alone, the opponent having no five to block: us has a
// four-three (the opponent must block the four, then the three becomes an
// open four) or a double three (the opponent can block only one), and the
// opponent has no cell where a stone makes a four, nor an open three, to
// interrupt with. Where the opponent has such cells a four-three still
// wins when the forced block of its four makes no four for the opponent:
// the block is off the three's line, so the three becomes an open four,
// and the opponent's next four comes a move too late (Rapfi's quick win
// check does the same). Renju Black's threes may be fake (their open-four
// cell a foul): its double threes are never trusted, and its four-three
// counts only when, after the block, it still has an open-four cell that
// is no foul. Under caro a blocked five does not win: no quick win is
// trusted.
func (s *Searcher) quickWin(us, them eval.Color) bool {
	b := s.b
	renjuBlack := b.Rule() == eval.Renju && us == eval.Black
	switch b.Rule() {
	case eval.CaroFree, eval.CaroExact:
		return false
	}
	// Our threat first: it is the rarer, and this runs at every node.
	fourThrees := b.ComboCount(us, eval.ComboFourThree)
	if !renjuBlack && fourThrees+b.ComboCount(us, eval.ComboDoubleThree) > 0 && !canFour(b, them) {
		return true
	}
	if fourThrees == 0 {
		return false
	}
	// Play the four-three (the combo excludes renju's fouls) and the
	// opponent's forced block of its four; only the first four-three cell
	// the board names is tried.
	b.Play(b.FirstCombo(us, eval.ComboFourThree))
	block := b.FirstCombo(us, eval.ComboFive)
	won := block != eval.NoPos && b.Combo(block, them) < eval.ComboFour
	if won && renjuBlack {
		b.Play(block)
		won = b.ComboCount(us, eval.ComboFlexFour) > 0
		b.Undo()
	}
	b.Undo()
	return won
}

// canFour reports whether side c has a cell where a stone makes a four
// (alone, with a three, or an open four).
func canFour(b *eval.Board, c eval.Color) bool {
	return b.ComboCount(c, eval.ComboFour)+b.ComboCount(c, eval.ComboFourThree)+b.ComboCount(c, eval.ComboFlexFour) > 0
}

// staticEval is the board's evaluation (shape codes and the threat table,
// see eval.Weights), kept clear of the mate scores.
func (s *Searcher) staticEval() int {
	return max(-winBound+1, min(winBound-1, int(s.b.Evaluate())))
}

func (s *Searcher) setPV(ply int, p eval.Pos) {
	s.pv[ply][0] = p
	n := s.pvLen[ply+1]
	copy(s.pv[ply][1:], s.pv[ply+1][:n])
	s.pvLen[ply] = n + 1
}

func (s *Searcher) addKiller(ply int, p eval.Pos) {
	if s.killers[ply][0] != p {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = p
	}
}

// scoreToTT makes a mate score relative to the node, so that it stays true
// when the position is reached at another ply.
func scoreToTT(score, ply int) int {
	switch {
	case score >= winBound:
		return score + ply
	case score <= -winBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score >= winBound:
		return score - ply
	case score <= -winBound:
		return score + ply
	}
	return score
}

// distantDefence is the reduction of the move p just played at a node
// under an open-three threat when p takes none of the opponent's four
// points (Params.DistantDefence): base plies when p lies more than four
// cells (king moves) from the opponent's last move, one more when also
// more than four from our own move before it, else 0. Such a move, a
// counter-four far from the fight mostly, only delays the threat: in the
// forced wins Wuzi failed to prove, the defender's delaying fours took
// most of the nodes (docs/evidence.md, 47th session).
func (s *Searcher) distantDefence(p eval.Pos, base int) int {
	b := s.b
	n := b.Ply() // p is move n-1, the opponent's last n-2, ours n-3
	r := 0
	if n >= 2 && b.Distance(p, lastMove(b, n-2)) > 4 {
		r += base
	}
	if n >= 3 && b.Distance(p, lastMove(b, n-3)) > 4 {
		r++
	}
	return r
}

// lastMove is the cell of the i-th move played (from 0).
func lastMove(b *eval.Board, i int) eval.Pos {
	p, _ := b.MoveAt(i)
	return p
}

// reducible reports whether a late move whose combo for the side playing
// it is cb may be searched shallower (late-move reductions): a quiet move
// or a lone four, never a three, a double three or a four that makes a
// three too. A lone four forces one reply and costs less than a ply with
// its block (blockExt), so where the attacker has several, each one
// searched at full depth multiplied the tree: in a sharp position of a
// lost gauntlet game, fours were 40-50 % of the attacker's moves at plies 8
// to 10, and reducing the late ones halved the nodes to depth 10. Against
// Rapfi at 30,000 nodes, Wuzi 300 ms, +40 ± 27 Elo over 800 games, every
// one of four seeds ahead (docs/evidence.md). Threes must keep their
// depth: reducing them lost about 34 Elo (the 19th session).
func reducible(cb eval.Combo) bool {
	return cb < eval.ComboThree || cb == eval.ComboFour
}

// lmpLimit is how many moves a non-PV node at depth searches before
// late-move pruning drops quiet moves: 3 + depth^1.32 as Rapfi counts
// (Params.LMPBase, LMPExp), half as many when the node is not improving.
func (s *Searcher) lmpLimit(depth int, improving bool) int {
	n := s.ptab.lmp[min(depth, len(s.ptab.lmp)-1)]
	if !improving {
		n /= 2
	}
	return n
}

// lmrReduction is the late-move reduction of the i-th move (from 0) at
// depth, before the adjustments for improvement and the move order:
// 0.5 + 0.75 ln(depth) ln(i+1) plies (Params.LMRBase, LMRScale), rounded
// down.
func (s *Searcher) lmrReduction(depth, i int) int {
	t := &s.ptab.lmr
	return int(t[min(depth, len(t)-1)][min(i, len(t[0])-1)])
}

// The history: what a cut at a node of depth d adds to the cutting quiet
// move's value (and takes from each quiet move searched before it without
// cutting) is statBonus(d); a value stays within ±historyMax, updates
// shrinking towards zero as it nears the bound, so recent results weigh
// more than old ones; the move order adds a cell's value divided by
// historyDiv (at most about ±820, a third of the spread of the quiet
// candidates' scores). Until the 85th session a cut added d² to a value
// bounded by 2^16 and read in sixteenths: after a search, the root's
// moves' history had moved them a median 8 in the order, next to a median
// 107 between neighbouring candidates, so the history barely ordered
// anything. At Rapfi's strength (a bonus of 40d² + 160d − 240, from 16 to
// 13,600, a cut at depth 8 moves a cell by 180) and with the table's
// cut-offs updating it too (tableCutStats), as Rapfi's is: +11 ± 30,
// +16 ± 33 and +28 ± 33 Elo against Rapfi at 100,000 nodes with Wuzi at
// 300 ms (three seeds of 400 games, about +18 ± 19), as Black 74-80 %
// against 72 % (docs/evidence.md, 85th session).
//
// Attacks (a three or better for the side playing it) keep their own
// history, attHistory, read at twice the weight (attHistoryDiv), as
// Rapfi keeps one: until the 86th session a cutting four updated
// nothing and threes shared the quiet moves' values. Split: +24 ± 34,
// +2 ± 34 and +28 ± 35 Elo on the same yardstick and seeds (about
// +18 ± 20), and 151 of the 186 forced wins of mates_engines.txt
// proven at 300,000 nodes, was 131 (see cutStats).
const (
	historyMax    = 1 << 14
	historyDiv    = 20
	attHistoryDiv = 10
)

// statBonus is the history bonus of a cut at depth.
func statBonus(depth int) int32 {
	return int32(max(16, min(13600, 40*depth*depth+160*depth-240)))
}

// tableCutStats updates the history and killers of the node at ply whose
// table entry has just decided its score sc for the window (alpha, beta)
// as a cut searched there would: a quiet table move (no three or better
// for the side to move; the side to move not under an open-three threat)
// that fails high earns the bonus of a cut and becomes a killer, one that
// fails low takes the malus.
func (s *Searcher) tableCutStats(ply int, ttMove eval.Pos, depth, sc, alpha, beta int) {
	b := s.b
	us := b.SideToMove()
	if ttMove == eval.NoPos || !b.IsEmpty(ttMove) || b.Combo(ttMove, us) >= eval.ComboThree ||
		b.ComboCount(us.Opp(), eval.ComboFlexFour) > 0 {
		return
	}
	switch {
	case sc >= beta:
		s.addKiller(ply, ttMove)
		s.updateHistory(us, ttMove, statBonus(depth))
	case sc <= alpha:
		s.updateHistory(us, ttMove, -statBonus(depth))
	}
}

// updateHistory adds bonus (a malus when negative) to side c's history of
// cell p.
func (s *Searcher) updateHistory(c eval.Color, p eval.Pos, bonus int32) {
	updateStat(&s.history[c-1][p], bonus)
}

// updateStat adds bonus to the history value *h, the step shrinking as
// *h nears ±historyMax in the bonus's direction, so that *h stays within.
func updateStat(h *int32, bonus int32) {
	abs := bonus
	if abs < 0 {
		abs = -abs
	}
	*h += bonus - *h*abs/historyMax
}

// histOrder is what side c's history adds to the order of cell p, where
// c's combo is cb: the attacks' history for a three or better, the quiet
// moves' for the rest.
func (s *Searcher) histOrder(c eval.Color, p eval.Pos, cb eval.Combo) int32 {
	if cb >= eval.ComboThree {
		return s.attHistory[c-1][p] / attHistoryDiv
	}
	return s.history[c-1][p] / historyDiv
}

// cutStats updates the killers and the histories of the side to move
// after its move p, whose combo is cb, cut at ply, where before are the
// moves ordered ahead of it (searched without a cut, or skipped as no
// defence). As Rapfi's: an attack (a three or better) that cuts earns
// the attacks' history the bonus, a quiet move the quiet moves'
// history; every attack before it takes the malus, and the quiet moves
// before it too when p is quiet. A move that makes no four becomes the
// ply's killer.
func (s *Searcher) cutStats(ply int, p eval.Pos, cb eval.Combo, before []scoredMove, depth int) {
	b := s.b
	us := b.SideToMove()
	bonus := statBonus(depth)
	if cb < eval.ComboFour {
		s.addKiller(ply, p)
	}
	quiet := cb < eval.ComboThree
	if quiet {
		s.updateHistory(us, p, bonus)
	} else {
		s.updateAttHistory(us, p, bonus)
	}
	for _, q := range before {
		if b.Combo(q.pos, us) >= eval.ComboThree {
			s.updateAttHistory(us, q.pos, -bonus)
		} else if quiet {
			s.updateHistory(us, q.pos, -bonus)
		}
	}
}

// updateAttHistory is updateHistory for the attacks' history.
func (s *Searcher) updateAttHistory(c eval.Color, p eval.Pos, bonus int32) {
	updateStat(&s.attHistory[c-1][p], bonus)
}
