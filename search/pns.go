package search

import (
	"slices"

	"wuzi/eval"
)

// The threat-space search as a depth-first proof-number search (df-pn).
//
// The tree is the AND-OR tree of a win by continuous threats: at an
// attacker node (OR) the attacker plays a four or a three; at a defender
// node (AND) the defender answers with one of the real defences (see
// defences) or a four of its own, and a four of the defender's is answered
// by the attacker's forced block. Every node carries a proof number (how
// many leaves still have to be proven for the attacker to win) and a
// disproof number; the search always expands the most-proving node under
// the thresholds of Nagai's df-pn, so wide attacker choices cost nothing
// until they look promising, and a long narrow win (a defender with one
// answer at each step) is followed to its end at once.
//
// Results live in the searcher's proof table (pnTable) under an absolute
// stone limit: a node with n stones may still use limit-n plies. Proofs
// hold for any larger limit and disproofs for any smaller one. A reported
// win is always a real one: defences are never pruned by a guess.

const (
	pnInf  = uint32(1) << 28
	pnWays = 4
	// The proof table has 2^bits buckets of pnWays entries: an eighth of
	// the main table's size, between 2^10 and 2^17 buckets (96 KB to
	// 12 MB), so that the engine's memory limit still holds.
	pnMinBits, pnMaxBits = 10, 17
	pnEntrySize          = 24
	// defCacheBits sizes the cache of defender answers (see andKids).
	defCacheBits = 14
	// defCacheMax is the longest list of answers the cache keeps.
	defCacheMax = 22
)

// pnSalt separates the entries of a search for Black's win from those for
// White's: the same position is an attacker node in one and a defender
// node in the other.
func pnSalt(attacker eval.Color) uint64 {
	if attacker == eval.Black {
		return 0x2545F4914F6CDD1D
	}
	return 0x9E6C63D0676A9A99
}

// pnEntry is one stored node.
type pnEntry struct {
	key    uint64
	pn, dn uint32
	work   uint32   // nodes spent below it: the replacement priority
	limit  int16    // the absolute stone limit it was searched under
	move   eval.Pos // for a proven attacker node, its winning move
}

// pnTable is the proof-number search's own transposition table.
type pnTable struct {
	e    []pnEntry
	mask uint64
	// def caches the checked answers of defender nodes: df-pn comes back
	// to a node many times, and checking each answer costs a move.
	def []defAnswers
}

// defAnswers is one defender node's list of answers.
type defAnswers struct {
	key   uint64
	n     uint8
	moves [defCacheMax]eval.Pos
}

// pnBitsFor sizes the proof table for a main table of ttBytes bytes.
func pnBitsFor(ttBytes int) int {
	bits := pnMinBits
	for bits < pnMaxBits && (2<<bits)*pnWays*pnEntrySize <= ttBytes/8 {
		bits++
	}
	return bits
}

func newPNTable(bits int) *pnTable {
	n := 1 << bits
	e := make([]pnEntry, n*pnWays)
	adviseHugePages(e)
	return &pnTable{e: e, mask: uint64(n - 1), def: make([]defAnswers, 1<<defCacheBits)}
}

// clear empties the table.
func (t *pnTable) clear() {
	clear(t.e)
	clear(t.def)
}

// get returns the entry for key usable under limit: a proof found within
// a smaller limit, a disproof under a larger one, or an open node under
// the same limit.
func (t *pnTable) get(key uint64, limit int) (pnEntry, bool) {
	i := int(key&t.mask) * pnWays
	for _, e := range t.e[i : i+pnWays] {
		if e.key != key {
			continue
		}
		switch {
		case e.pn == 0 && int(e.limit) <= limit,
			e.dn == 0 && int(e.limit) >= limit,
			int(e.limit) == limit && e.pn != 0 && e.dn != 0:
			return e, true
		}
	}
	return pnEntry{}, false
}

// put stores an entry, over the same key or else the entry with the least
// work in the bucket.
func (t *pnTable) put(n pnEntry) {
	i := int(n.key&t.mask) * pnWays
	b := t.e[i : i+pnWays]
	victim := 0
	for j := range b {
		if b[j].key == n.key || b[j].key == 0 {
			victim = j
			break
		}
		if b[j].work < b[victim].work {
			victim = j
		}
	}
	b[victim] = n
}

// pnKid is a child of a node: its move, key and numbers.
type pnKid struct {
	pos    eval.Pos
	key    uint64
	pn, dn uint32 // the first estimate, until the table knows better
}

// vctPN looks for a win by continuous threats for the side to move within
// budget plies, by df-pn. It returns the first move of the win.
func (s *Searcher) vctPN(ply, budget int) (eval.Pos, bool) {
	if s.pnt == nil {
		s.pnt = newPNTable(pnBitsFor(s.TT.SizeBytes()))
	}
	b := s.b
	s.pnAttacker = b.SideToMove()
	s.pnSalt = pnSalt(s.pnAttacker)
	limit := b.Stones() + budget
	pn, _ := s.mid(ply, pnInf, pnInf, limit)
	if pn != 0 {
		return eval.NoPos, false
	}
	e, ok := s.pnt.get(b.Hash()^s.pnSalt, limit)
	if !ok || e.pn != 0 || !b.IsEmpty(e.move) {
		return eval.NoPos, false // overwritten: rare, and never a false win
	}
	return e.move, true
}

// mid is df-pn's multiple iterative deepening at one node: it searches
// below the node until its proof number reaches thpn or its disproof
// number thdn (or the search stops), and returns the numbers.
func (s *Searcher) mid(ply int, thpn, thdn uint32, limit int) (uint32, uint32) {
	s.poll()
	b := s.b
	key := b.Hash() ^ s.pnSalt
	seen := false
	if e, ok := s.pnt.get(key, limit); ok {
		if e.pn == 0 || e.dn == 0 || e.pn >= thpn || e.dn >= thdn {
			return e.pn, e.dn
		}
		seen = true
	}
	if s.stop.Load() || ply >= maxGamePly-2 {
		return 1, 1
	}
	start := s.nodes
	or := b.SideToMove() == s.pnAttacker
	var kids []pnKid
	var win eval.Pos
	var proven, disproven bool
	if or {
		kids, win, proven, disproven = s.orKids(ply, limit, seen)
	} else {
		kids, proven, disproven = s.andKids(ply, limit)
	}
	if proven || disproven {
		e := pnEntry{key: key, pn: pnInf, dn: 0, limit: int16(limit), work: uint32(s.nodes - start), move: win}
		if proven {
			e.pn, e.dn = 0, pnInf
		}
		if !s.stop.Load() {
			s.pnt.put(e)
		}
		return e.pn, e.dn
	}
	if len(kids) == 0 {
		return 1, 1 // stopped while expanding
	}
	// The side to move's numbers: at an attacker node the proof number is
	// the least of the children's and the disproof number their sum; at a
	// defender node the other way round. flip maps (pn, dn) to (least,
	// sum) and back.
	flip := func(a, b uint32) (uint32, uint32) {
		if or {
			return a, b
		}
		return b, a
	}
	thLeast, thSum := flip(thpn, thdn)
	var pn, dn uint32
	for {
		best, least, second, sum := -1, pnInf, pnInf, uint32(0)
		var bSum uint32
		for i := range kids {
			cpn, cdn := kids[i].pn, kids[i].dn
			if e, ok := s.pnt.get(kids[i].key, limit); ok {
				cpn, cdn = e.pn, e.dn
			}
			x, y := flip(cpn, cdn)
			sum = min(sum+y, pnInf)
			if x < least {
				second = least
				least, best, bSum = x, i, y
			} else if x < second {
				second = x
			}
		}
		pn, dn = flip(least, sum)
		if pn == 0 && or {
			win = kids[best].pos
		}
		if least >= thLeast || sum >= thSum || s.stop.Load() {
			break
		}
		// The 1+ε trick: a child is searched until it is a quarter worse
		// than its best sibling, not just worse, which saves most of the
		// back-and-forth between close siblings.
		cthpn, cthdn := flip(min(thLeast, second+second/4+1), min(thSum-sum+bSum, pnInf))
		s.play(kids[best].pos)
		// The child's numbers are kept here too, in case the table lets
		// its entry go.
		kids[best].pn, kids[best].dn = s.mid(ply+1, cthpn, cthdn, limit)
		s.undo()
	}
	if !s.stop.Load() || pn == 0 || dn == 0 {
		if pn == 0 && dn == 0 {
			dn = pnInf // cannot happen with exact children; keep the proof
		}
		s.pnt.put(pnEntry{key: key, pn: pn, dn: dn, limit: int16(limit), work: uint32(s.nodes - start), move: win})
	}
	return pn, dn
}

// orKids expands an attacker node: the winning move when it is proven at
// once (a five, or a VCF), or its children. seen says the node was
// expanded before (its VCF then failed already).
func (s *Searcher) orKids(ply, limit int, seen bool) (kids []pnKid, win eval.Pos, proven, disproven bool) {
	b := s.b
	us := b.SideToMove()
	them := us.Opp()
	left := limit - b.Stones()
	if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
		return nil, p, true, false
	}
	kids = s.pnBuf[ply][:0]
	if n := b.ComboCount(them, eval.ComboFive); n > 0 {
		// The defender's four must be blocked; then it moves again.
		p := s.findCombo(them, eval.ComboFive)
		if n > 1 || s.forbidden(p) || left < 2 {
			return nil, eval.NoPos, false, true
		}
		kids = append(kids, pnKid{pos: p, key: b.HashAfter(p) ^ s.pnSalt, pn: 1, dn: 1})
		s.pnBuf[ply] = kids
		return kids, eval.NoPos, false, false
	}
	if left < 3 {
		return nil, eval.NoPos, false, true
	}
	if !seen {
		// Continuous fours first: cheap, and most wins end that way.
		s.vcfPath = s.vcfPath[:0]
		if s.vcf(ply, left) {
			return nil, s.vcfWin[0], true, false
		}
		if s.stop.Load() {
			return nil, eval.NoPos, false, false
		}
	}
	// An open three of the defender's makes an open four before our three
	// could: only fours help then, and the VCF has tried them.
	if b.ComboCount(them, eval.ComboFlexFour) > 0 {
		return nil, eval.NoPos, false, true
	}
	moves := s.vctBuf[ply][:0]
	for p := range s.emptyInArea {
		cb := b.Combo(p, us)
		if cb < eval.ComboThree || cb == eval.ComboForbidden {
			continue
		}
		if cb == eval.ComboDoubleThree && s.forbidden(p) {
			continue
		}
		moves = append(moves, scoredMove{p, b.MoveValue(p, us) + b.MoveValue(p, them)/2})
	}
	sortMoves(moves)
	s.vctBuf[ply] = moves
	for _, m := range moves {
		// A four leaves the defender one answer; a three about three.
		k := pnKid{pos: m.pos, key: b.HashAfter(m.pos) ^ s.pnSalt, pn: 3, dn: 1}
		if cb := b.Combo(m.pos, us); cb >= eval.ComboFour && cb != eval.ComboDoubleThree {
			k.pn = 1
		}
		kids = append(kids, k)
	}
	s.pnBuf[ply] = kids
	if len(kids) == 0 {
		return nil, eval.NoPos, false, true
	}
	return kids, eval.NoPos, false, false
}

// andKids expands a defender node: the attacker has won already (proven),
// cannot win here (disproven), or the defender's real answers.
func (s *Searcher) andKids(ply, limit int) (kids []pnKid, proven, disproven bool) {
	b := s.b
	us := b.SideToMove() // the defender
	att := us.Opp()
	left := limit - b.Stones()
	if b.ComboCount(us, eval.ComboFive) > 0 {
		return nil, false, true // the defender makes five first
	}
	kids = s.pnBuf[ply][:0]
	if n := b.ComboCount(att, eval.ComboFive); n > 0 {
		q := s.findCombo(att, eval.ComboFive)
		if n > 1 || s.forbidden(q) {
			return nil, true, false // renju Black may not block at a foul
		}
		if left < 2 {
			return nil, false, true
		}
		kids = append(kids, pnKid{pos: q, key: b.HashAfter(q) ^ s.pnSalt, pn: 1, dn: 1})
		s.pnBuf[ply] = kids
		return kids, false, false
	}
	if b.ComboCount(us, eval.ComboFlexFour) > 0 {
		return nil, false, true // the defender's open four comes first
	}
	f := s.findCombo(att, eval.ComboFlexFour)
	if f == eval.NoPos || left < 2 {
		return nil, false, true // no threat: the defender has a free move
	}
	c := &s.pnt.def[b.Hash()&(1<<defCacheBits-1)]
	if c.key == b.Hash() {
		for _, q := range c.moves[:c.n] {
			kids = append(kids, pnKid{pos: q, key: b.HashAfter(q) ^ s.pnSalt, pn: 1, dn: 1})
		}
	} else {
		// Where the board can tell a block without playing it (see
		// BlocksOpenFours; the attacker has no five here, and a block
		// cannot give it one), every open-four cell of the attacker is
		// listed first.
		flex, known := s.pnFlexBuf[ply][:0], b.BlocksExact(att)
		if known {
			for q := range s.emptyInArea {
				if b.Combo(q, att) == eval.ComboFlexFour {
					flex = append(flex, q)
				}
			}
			s.pnFlexBuf[ply] = flex
			known = len(flex) == b.ComboCount(att, eval.ComboFlexFour)
		}
		for _, q := range s.defences(ply, f) {
			if s.forbidden(q) {
				continue
			}
			cb := b.Combo(q, us)
			if counter := cb >= eval.ComboFour && cb != eval.ComboDoubleThree; !counter {
				var open bool
				if known {
					open = !b.BlocksOpenFours(q, att, flex)
				} else {
					s.play(q)
					open = b.ComboCount(att, eval.ComboFlexFour) > 0 || b.ComboCount(att, eval.ComboFive) > 0
					s.undo()
				}
				if open {
					continue // the open four follows: not a defence
				}
			}
			kids = append(kids, pnKid{pos: q, key: b.HashAfter(q) ^ s.pnSalt, pn: 1, dn: 1})
		}
		// The likeliest refutations first: where both sides' shapes
		// meet.
		slices.SortStableFunc(kids, func(x, y pnKid) int {
			return int(b.MoveValue(y.pos, us)+b.MoveValue(y.pos, att)) - int(b.MoveValue(x.pos, us)+b.MoveValue(x.pos, att))
		})
		if len(kids) <= defCacheMax {
			c.key, c.n = b.Hash(), uint8(len(kids))
			for i, k := range kids {
				c.moves[i] = k.pos
			}
		}
	}
	s.pnBuf[ply] = kids
	if len(kids) == 0 {
		return nil, true, false
	}
	return kids, false, false
}

// defences lists the cells that may stop the attacker's open-four point f,
// and the defender's own fours (counter-attacks that gain a tempo). The
// caller checks each by playing it.
func (s *Searcher) defences(ply int, f eval.Pos) []eval.Pos {
	b := s.b
	us := b.SideToMove()
	out := s.vctDefBuf[ply][:0]
	if b.Rule() == eval.CaroFree || b.Rule() == eval.CaroExact {
		// Caro: a stone beyond a five's end can spoil it, so every cell
		// near the stones is tried.
		for q := range s.emptyInArea {
			out = append(out, q)
		}
	} else {
		// Any answer that takes away the open-four point f must change
		// the pattern of a line through f on which the attacker's four
		// would be open: it lies on that line, within five of f.
		att := us.Opp()
		lines := 0
		for d := 0; d < 4; d++ {
			if b.Pattern(f, d, att) == eval.F4 {
				lines |= 1 << d
			}
		}
		if lines == 0 {
			lines = 0xF
		}
		for d := 0; d < 4; d++ {
			if lines&(1<<d) == 0 {
				continue
			}
			step := b.Dir(d)
			for k := -5; k <= 5; k++ {
				q := eval.Pos(int(f) + k*step)
				if b.Inner(q) && b.At(q) == eval.Empty {
					out = append(out, q)
				}
			}
		}
	}
	for q := range s.emptyInArea {
		if cb := b.Combo(q, us); cb >= eval.ComboFour && cb != eval.ComboDoubleThree && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	s.vctDefBuf[ply] = out
	return out
}
