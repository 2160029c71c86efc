package search

import (
	"slices"
	"testing"
	"time"

	"wuzi/eval"
)

// checkProof follows the proof the threat search left in its table from
// the current position (the attacker, s.pnAttacker, to move at an OR node)
// and checks it without trusting the search's move generation: at every
// defender node each empty cell of the board is tried, and every one that
// does not leave the attacker a five or an open four at once must lead to
// a proven node. It returns the number of nodes checked, or a description
// of the first hole.
func checkProof(s *Searcher, limit int, path []eval.Pos) (int, string) {
	b := s.b
	att := s.pnAttacker
	us := b.SideToMove()
	if b.Stones() > limit {
		return 0, "past the limit at " + fmtMoves(b, path)
	}
	if us == att {
		if p := s.findCombo(us, eval.ComboFive); p != eval.NoPos {
			return 1, ""
		}
		e, ok := s.pnt.get(b.Hash()^s.pnSalt, limit)
		if !ok || e.pn != 0 || e.move == eval.NoPos || !b.IsEmpty(e.move) || s.forbidden(e.move) {
			return 0, "attacker node not proven at " + fmtMoves(b, path)
		}
		if _, ok := s.pnt.get(b.HashAfter(e.move)^s.pnSalt, limit); !ok {
			// A win by fours: the VCF search proves it again.
			s.vcfPath = s.vcfPath[:0]
			if !s.vcf(len(path), limit-b.Stones()) {
				return 0, "VCF win not found again at " + fmtMoves(b, path)
			}
			return 1, ""
		}
		s.play(e.move)
		n, hole := checkProof(s, limit, append(path, e.move))
		s.undo()
		return n + 1, hole
	}
	if s.findCombo(us, eval.ComboFive) != eval.NoPos {
		return 0, "the defender makes five at " + fmtMoves(b, path)
	}
	total := 1
	for _, q := range b.Cells() {
		if !b.IsEmpty(q) || s.forbidden(q) {
			continue
		}
		s.play(q)
		// Unless the answer is a four, a five or an open four of the
		// attacker's wins at once.
		four := b.ComboCount(us, eval.ComboFive) > 0
		lost := !four && (b.ComboCount(att, eval.ComboFive) > 0 || b.ComboCount(att, eval.ComboFlexFour) > 0)
		if !lost {
			n, hole := checkProof(s, limit, append(path, q))
			total += n
			if hole != "" {
				s.undo()
				return total, hole
			}
		}
		s.undo()
	}
	return total, ""
}

// TestVCTProofs: every win the threat search reports on the tactical
// suite is a complete proof in its table, checked against every answer
// of the defender's, not just the ones the search generated.
func TestVCTProofs(t *testing.T) {
	suite := loadTactics(t)
	checked := 0
	for i, tc := range suite {
		if tc.kind != "vct" || (testing.Short() || raceDetector) && i%5 != 0 {
			continue
		}
		b := tc.replay(t)
		s := New(16)
		s.b = b
		s.resetArea()
		// The largest proof table, as under a 256 MB main table: the check
		// follows the proof through it, so it must keep the whole proof.
		s.pnt = newPNTable(pnMaxBits)
		p, ok := s.vctRoot(tacticsPlies, tacticsNodes)
		if !ok {
			t.Errorf("%d: no VCT found", i)
			continue
		}
		n, hole := checkProof(s, b.Stones()+tacticsPlies, nil)
		if hole != "" {
			t.Errorf("%d: the win starting %v has a hole: %s", i, xy(b, p), hole)
		}
		checked += n
	}
	t.Logf("%d proof nodes checked", checked)
}

// TestPNTableSize: the proof table is an eighth of the main table at most
// (above the smallest size), so the memory limit the main table is sized
// for still holds.
func TestPNTableSize(t *testing.T) {
	for _, mb := range []int{1, 8, 76, 256, 1024} {
		tt := NewTT(mb)
		bits := pnBitsFor(tt.SizeBytes())
		bytes := (1 << bits) * pnWays * pnEntrySize
		if bits > pnMinBits && bytes > tt.SizeBytes()/8 {
			t.Errorf("%d MB table: proof table %d bytes", mb, bytes)
		}
		if bits < pnMinBits || bits > pnMaxBits {
			t.Errorf("%d MB table: %d bits", mb, bits)
		}
	}
	if pnBitsFor(NewTT(256).SizeBytes()) != pnMaxBits {
		t.Errorf("a 256 MB table should get the largest proof table")
	}
}

// TestVerifyDropsLongVCTLoss: from a game lost to an engine, a move after
// which the opponent wins by continuous threats in more than 17 plies (the
// best-move check's old reach) but within 25. The check of each
// iteration's best move must drop it for a move that saves the game.
func TestVerifyDropsLongVCTLoss(t *testing.T) {
	b := setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{8, 8}, [2]int{7, 8}, [2]int{7, 6}, [2]int{7, 9}, [2]int{7, 10},
		[2]int{6, 7}, [2]int{5, 7}, [2]int{6, 9}, [2]int{5, 9}, [2]int{5, 8}, [2]int{8, 9}, [2]int{8, 7}, [2]int{5, 10},
		[2]int{4, 8}, [2]int{6, 10})
	losing, saving := b.Pos(4, 10), b.Pos(8, 10)
	s := New(16)
	s.prepare(b, Limits{})
	for _, tc := range []struct {
		move  eval.Pos
		plies int
		lost  bool
	}{{losing, 17, false}, {losing, vctVerifyPlies, true}, {saving, vctVerifyPlies, false}} {
		s.play(tc.move)
		restore := s.nodeBudget(vctVerifyNodes)
		_, lost := s.vctDeepen(1, tc.plies)
		restore()
		s.undo()
		if lost != tc.lost {
			t.Fatalf("after %v, %d plies: opponent's VCT %v, want %v", xy(b, tc.move), tc.plies, lost, tc.lost)
		}
	}
	moves := []rootMove{{pos: losing}, {pos: saving}}
	if got := s.dropLosingMoves(moves, time.Time{}); got[0].pos != saving {
		t.Errorf("best move after the check: %v, want %v", xy(b, got[0].pos), xy(b, saving))
	}
}

// TestRootDropsProvenLosses: where the opponent has a VCT at the root, the
// moves refuteOpponentVCT drops are lost (a fresh threat search with a
// larger budget proves the opponent's win after each), at least one move
// is kept, and no move of the suite's defence answers is dropped.
func TestRootDropsProvenLosses(t *testing.T) {
	dropped := 0
	for i, tc := range loadTactics(t) {
		if tc.kind != "defence" || testing.Short() && i%4 != 0 || raceDetector && i%16 != 0 {
			continue
		}
		b := tc.replay(t)
		s := New(16)
		s.b = b
		s.resetArea()
		legal := s.rootMoves()
		restore := s.nodeBudget(vctDefenceNodes)
		out := s.refuteOpponentVCT(slices.Clone(legal), time.Time{})
		restore()
		if len(out) == 0 {
			t.Fatalf("%d: no move kept", i)
		}
		for _, p := range legal {
			if slices.Contains(out, p) {
				continue
			}
			dropped++
			if slices.Contains(tc.answers, p) {
				t.Errorf("%d: answer %v dropped", i, xy(b, p))
			}
			v := New(16)
			v.b = b
			v.resetArea()
			v.play(p)
			if _, lost := v.vctRoot(tacticsPlies, tacticsNodes); !lost {
				t.Errorf("%d: %v dropped, but no VCT of the opponent's is found after it", i, xy(b, p))
			}
			v.undo()
		}
	}
	if dropped == 0 {
		t.Error("no move dropped in any defence position")
	}
	t.Logf("%d moves dropped", dropped)
}

// TestVerifyClearsAMoveOnce: the check of an iteration's best move for the
// opponent's VCT runs once a move in a search. The position comes from a
// 1 s game Wuzi lost as Black to Rapfi: at its 19th stone Rapfi proved a
// 35-ply win with 5,6, which Wuzi did not play. Here Black has played it
// and White is to move: Black's win is too long for the check, and the
// same best move came back from every iteration, each check spending its
// whole share again.
func TestVerifyClearsAMoveOnce(t *testing.T) {
	b := setup(t, eval.Freestyle, 15,
		[2]int{7, 7}, [2]int{8, 8}, [2]int{7, 10}, [2]int{7, 9}, [2]int{6, 10}, [2]int{5, 10}, [2]int{6, 9},
		[2]int{6, 8}, [2]int{5, 7}, [2]int{4, 8}, [2]int{5, 8}, [2]int{4, 7}, [2]int{8, 11}, [2]int{9, 12},
		[2]int{6, 11}, [2]int{4, 9}, [2]int{4, 6}, [2]int{9, 11}, [2]int{5, 6})
	s := New(16)
	s.prepare(b, Limits{})
	moves := []rootMove{{pos: b.Pos(5, 5)}, {pos: b.Pos(8, 10)}}
	out := s.dropLosingMoves(slices.Clone(moves), time.Time{})
	if len(out) != 2 || out[0].pos != moves[0].pos {
		t.Fatalf("the check dropped %v: the test wants a move it clears", xy(b, moves[0].pos))
	}
	checked := s.nodes
	if checked == 0 {
		t.Fatal("the first check searched no node")
	}
	out = s.dropLosingMoves(out, time.Time{})
	if len(out) != 2 || s.nodes != checked {
		t.Errorf("the cleared move was checked again: %d nodes more, %d moves left", s.nodes-checked, len(out))
	}
	// A new search checks it again.
	s.prepare(b, Limits{})
	s.dropLosingMoves(slices.Clone(moves), time.Time{})
	if s.nodes == 0 {
		t.Error("a new search did not check the move")
	}
}
