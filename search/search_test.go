package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"wuzi/eval"
)

// setup returns a board of the given rule and size with the moves played
// alternately from Black.
func setup(t testing.TB, r eval.Rule, size int, moves ...[2]int) *eval.Board {
	t.Helper()
	b, err := eval.NewBoard(size, size, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		p := b.Pos(m[0], m[1])
		if !b.IsEmpty(p) {
			t.Fatalf("%v played twice", m)
		}
		b.Play(p)
	}
	return b
}

func think(t testing.TB, b *eval.Board, d time.Duration) Result {
	t.Helper()
	s := New(16)
	now := time.Now()
	return s.Search(context.Background(), b, Limits{Soft: now.Add(d / 2), Hard: now.Add(d)}, nil)
}

func xy(b *eval.Board, p eval.Pos) [2]int {
	x, y := b.XY(p)
	return [2]int{x, y}
}

func TestTactics(t *testing.T) {
	cases := []struct {
		name  string
		rule  eval.Rule
		size  int
		moves [][2]int
		want  [][2]int // any of these
		avoid [][2]int // none of these
	}{
		{
			name: "win with the four", rule: eval.Freestyle, size: 15,
			moves: [][2]int{{7, 7}, {7, 8}, {8, 7}, {8, 8}, {9, 7}, {9, 8}, {10, 7}, {0, 0}},
			want:  [][2]int{{6, 7}, {11, 7}},
		},
		{
			name: "block the five", rule: eval.Freestyle, size: 15,
			moves: [][2]int{{7, 7}, {7, 8}, {8, 7}, {8, 8}, {9, 7}, {9, 8}, {6, 7}, {0, 0}, {14, 14}},
			want:  [][2]int{{5, 7}, {10, 7}},
		},
		{
			name: "block the open three", rule: eval.Freestyle, size: 15,
			// Black _XXX_ on row 7 from 6 to 8; White to move and has nothing.
			moves: [][2]int{{6, 7}, {0, 0}, {7, 7}, {0, 14}, {8, 7}},
			want:  [][2]int{{5, 7}, {9, 7}, {4, 7}, {10, 7}},
		},
		{
			name: "twenty by twenty: take the win", rule: eval.Freestyle, size: 20,
			moves: [][2]int{{10, 10}, {0, 0}, {11, 11}, {0, 1}, {12, 12}, {0, 2}, {13, 13}, {0, 3}},
			want:  [][2]int{{9, 9}, {14, 14}},
		},
		{
			name: "standard: an overline is no win, block instead", rule: eval.Standard, size: 15,
			// White (to move) has 3,7 4,7 5,7 6,7 _ 8,7: 7,7 makes six. Black
			// threatens an open three on row 11 that must be stopped... the
			// position is the Gomocup check.
			moves: [][2]int{{7, 7}, {7, 8}, {8, 7}, {7, 9}, {6, 7}, {7, 10}, {9, 12}, {7, 11}, {6, 13}, {7, 13}, {8, 14}},
			want:  [][2]int{{5, 7}, {9, 7}},
		},
		{
			name: "renju: black never plays the foul", rule: eval.Renju, size: 15,
			moves: [][2]int{{7, 7}, {7, 8}, {8, 6}, {8, 8}, {7, 9}, {8, 5}, {8, 10}, {8, 11}},
			avoid: [][2]int{{6, 8}},
		},
		{
			name: "renju: black does not block at a foul point", rule: eval.Renju, size: 15,
			// White's four 3,3..6,6 (blocked at 2,2) makes five at 7,7,
			// where Black would make a double three: lost, but no foul.
			moves: [][2]int{{5, 7}, {3, 3}, {6, 7}, {4, 4}, {7, 5}, {5, 5}, {7, 6}, {6, 6}, {2, 2}, {14, 0}},
			avoid: [][2]int{{7, 7}},
		},
		{
			name: "renju: white wins with an overline", rule: eval.Renju, size: 15,
			// White 1,1 2,1 3,1 _ 5,1 6,1: 4,1 makes six, a win for White.
			moves: [][2]int{{7, 7}, {1, 1}, {9, 9}, {2, 1}, {11, 7}, {3, 1}, {7, 11}, {5, 1}, {13, 13}, {6, 1}, {0, 14}},
			want:  [][2]int{{4, 1}},
		},
		{
			name: "caro: a five blocked at both ends is no win", rule: eval.CaroFree, size: 15,
			moves: [][2]int{{7, 7}, {5, 7}, {6, 7}, {5, 8}, {8, 7}, {5, 6}, {9, 7}, {11, 7}},
			want:  [][2]int{{5, 4}, {5, 5}, {5, 9}, {5, 10}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := setup(t, c.rule, c.size, c.moves...)
			key := b.Hash()
			r := think(t, b, 500*time.Millisecond)
			if b.Hash() != key {
				t.Fatal("search did not restore the board")
			}
			got := xy(b, r.Move)
			if len(c.want) > 0 {
				ok := false
				for _, w := range c.want {
					ok = ok || w == got
				}
				if !ok {
					t.Errorf("played %v (%s, score %d); want one of %v", got, r.Reason, r.Score, c.want)
				}
			}
			for _, a := range c.avoid {
				if a == got {
					t.Errorf("played %v, which it must avoid", got)
				}
			}
		})
	}
}

// TestVCFLinesAreForcing checks every VCF the solver claims in random
// positions by replaying it with the exact referee: each attacker move is
// legal and leaves exactly one five point (or more, ending the line), the
// defender's move is that block, and the line ends in a five.
func TestVCFLinesAreForcing(t *testing.T) {
	rules := []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree}
	games := 60
	if testing.Short() {
		games = 15
	}
	found := 0
	for _, r := range rules {
		for g := 0; g < games; g++ {
			rng := rand.New(rand.NewPCG(uint64(g), uint64(r)))
			size := 15
			if g%3 == 0 {
				size = 20
			}
			b := setup(t, r, size)
			for b.Ply() < 14+rng.IntN(30) {
				p, ok := randomQuietMove(b, rng, 4)
				if !ok {
					continue
				}
				b.Play(p)
			}
			opp := b.SideToMove().Opp()
			if hasFivePoint(b, opp) {
				continue // VCF applies only when the opponent has no five
			}
			s := New(4)
			s.b = b
			s.hard = time.Now().Add(2 * time.Second)
			seq, ok := s.vcfRoot(0)
			if !ok {
				continue
			}
			found++
			verifyVCF(t, b, seq)
		}
	}
	t.Logf("%d VCF lines verified", found)
	if found < 5 {
		t.Errorf("only %d positions with a VCF: the test would prove nothing", found)
	}
}

func hasFivePoint(b *eval.Board, c eval.Color) bool {
	for _, p := range b.Cells() {
		if b.WinsAt(p, c) {
			return true
		}
	}
	return false
}

func fivePoints(b *eval.Board, c eval.Color) []eval.Pos {
	var out []eval.Pos
	for _, p := range b.Cells() {
		if b.WinsAt(p, c) {
			out = append(out, p)
		}
	}
	return out
}

func verifyVCF(t *testing.T, b *eval.Board, seq []eval.Pos) {
	t.Helper()
	att := b.SideToMove()
	played := 0
	defer func() {
		for ; played > 0; played-- {
			b.Undo()
		}
	}()
	for i := 0; i < len(seq); i++ {
		p := seq[i]
		if i%2 == 0 {
			if att == eval.Black && b.IsForbidden(p) {
				t.Fatalf("VCF %v: attacker move %d is a foul", seq, i)
			}
			if b.WinsAt(p, att) {
				if i != len(seq)-1 {
					t.Fatalf("VCF %v: five before the end", seq)
				}
				return
			}
			b.Play(p)
			played++
			fp := fivePoints(b, att)
			if len(fp) == 0 {
				t.Fatalf("VCF %v: move %d is not a four", seq, i)
			}
			if len(fp) >= 2 || (att.Opp() == eval.Black && b.IsForbidden(fp[0])) {
				return // the defender cannot stop every five
			}
			if i+1 < len(seq) && seq[i+1] != fp[0] {
				t.Fatalf("VCF %v: defence %d is not the forced block", seq, i+1)
			}
			if i+1 == len(seq) {
				t.Fatalf("VCF %v ends on a simple four", seq)
			}
			if hasFivePoint(b, att.Opp()) {
				t.Fatalf("VCF %v: defender already had a five", seq)
			}
		} else {
			b.Play(p)
			played++
		}
	}
	t.Fatalf("VCF %v ended without a five", seq)
}

// TestVCTWinsArePlayedOut checks the threat-space wins the root finds in
// random positions: from each, the engine plays both sides (the defender
// searching to depth 6 for its best defence) and the attacker must make
// five. An unsound VCT (a missed defence) shows up as a game the
// attacker does not win.
func TestVCTWinsArePlayedOut(t *testing.T) {
	rules := []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju}
	games := 40
	if testing.Short() {
		games = 10
	}
	found := 0
	for _, r := range rules {
		for g := 0; g < games && found < 3*games/4; g++ {
			rng := rand.New(rand.NewPCG(uint64(g)+1000, uint64(r)))
			b := setup(t, r, 15)
			for b.Ply() < 10+rng.IntN(16) {
				p, ok := randomQuietMove(b, rng, 3)
				if !ok {
					continue
				}
				b.Play(p)
			}
			att := b.SideToMove()
			if hasFivePoint(b, att.Opp()) || hasFivePoint(b, att) {
				continue
			}
			s := New(4)
			s.b = b
			s.resetArea()
			if _, ok := s.vcfRoot(0); ok {
				continue // a VCF: covered by TestVCFLinesAreForcing
			}
			p, ok := s.vctRoot(vctPlies, vctNodes)
			if !ok {
				continue
			}
			found++
			start := b.Ply()
			b.Play(p)
			won := false
			for n := 0; n < 40 && b.Empties() > 0; n++ {
				if b.LastMoveWins() {
					won = b.SideToMove().Opp() == att
					break
				}
				res := New(4).Search(context.Background(), b, Limits{MaxDepth: 6}, nil)
				b.Play(res.Move)
			}
			if !won {
				var line [][2]int
				for i := start; i < b.Ply(); i++ {
					q, _ := b.MoveAt(i)
					line = append(line, xy(b, q))
				}
				t.Errorf("%v game %d: the VCT of %v starting %v did not win: %v", r, g, att, xy(b, p), line)
			}
			for b.Ply() > start {
				b.Undo()
			}
		}
	}
	t.Logf("%d VCT wins played out", found)
	if found < 5 {
		t.Errorf("only %d VCT positions: the test would prove nothing", found)
	}
}

// TestHistoryStaysBounded: however long a search runs (an analysis has
// no time limit), the history of a cell stays within ±historyMax, so the
// move order never wraps around; a malus lowers what bonuses raised.
func TestHistoryStaysBounded(t *testing.T) {
	s := New(1)
	const p = eval.Pos(40)
	for range 1_000_000 {
		s.updateHistory(eval.Black, p, statBonus(30))
	}
	if h := s.history[eval.Black-1][p]; h <= 0 || h > historyMax {
		t.Fatalf("after a million cuts at depth 30: history %d, want in (0, %d]", h, historyMax)
	}
	top := s.history[eval.Black-1][p]
	s.updateHistory(eval.Black, p, -100)
	if h := s.history[eval.Black-1][p]; h >= top {
		t.Errorf("a malus left the history at %d (was %d)", h, top)
	}
	for range 1_000_000 {
		s.updateHistory(eval.White, p, -statBonus(30))
	}
	if h := s.history[eval.White-1][p]; h >= 0 || h < -historyMax {
		t.Fatalf("after a million maluses: history %d, want in [-%d, 0)", h, historyMax)
	}
	if h := s.history[eval.Black-1][p+1]; h != 0 {
		t.Errorf("another cell's history changed: %d", h)
	}
}

// historySetup is a searcher on a small freestyle position, the side to
// move, two cells where its move is quiet and one where it makes a three.
func historySetup(t *testing.T) (s *Searcher, us eval.Color, quiet, quiet2, three eval.Pos) {
	t.Helper()
	s = New(1)
	s.b = setup(t, eval.Freestyle, 15, [2]int{7, 7}, [2]int{9, 9}, [2]int{7, 8}, [2]int{12, 3})
	s.resetArea()
	b := s.b
	us = b.SideToMove()
	quiet, quiet2, three = b.Pos(2, 12), b.Pos(3, 12), b.Pos(7, 9)
	if b.Combo(quiet, us) >= eval.ComboThree || b.Combo(quiet2, us) >= eval.ComboThree || b.Combo(three, us) < eval.ComboThree {
		t.Fatalf("setup: combos %v, %v and %v", b.Combo(quiet, us), b.Combo(quiet2, us), b.Combo(three, us))
	}
	return s, us, quiet, quiet2, three
}

// TestTableCutUpdatesHistory: a node whose table entry decides its score
// treats a quiet table move as a cut searched there would: failing high,
// the move gains history and becomes the ply's killer; failing low, it
// loses history. A table move that makes a three is no quiet move and
// is left alone.
func TestTableCutUpdatesHistory(t *testing.T) {
	s, us, quiet, _, three := historySetup(t)
	b := s.b
	const ply, depth = 2, 4
	key := b.Hash()
	s.TT.store(key, quiet, 500, depth+2, boundLower, false)
	if sc := s.pvs(depth, ply, 100, 101, false); sc != 500 {
		t.Fatalf("table cut-off scored %d, want 500", sc)
	}
	h := s.history[us-1][quiet]
	if h != statBonus(depth) || s.killers[ply][0] != quiet {
		t.Fatalf("after a fail high: history %d (want %d), killer %v", h, statBonus(depth), s.killers[ply][0])
	}
	s.TT.store(key, quiet, -500, depth+2, boundUpper, false)
	if sc := s.pvs(depth, ply, 100, 101, false); sc != -500 {
		t.Fatalf("table cut-off scored %d, want -500", sc)
	}
	if got := s.history[us-1][quiet]; got >= h {
		t.Errorf("after a fail low: history %d, was %d", got, h)
	}
	s.TT.store(key, three, 500, depth+2, boundLower, false)
	s.pvs(depth, ply, 100, 101, false)
	if got := s.history[us-1][three]; got != 0 || s.killers[ply][0] == three {
		t.Errorf("a three's table cut-off changed its history (%d) or killer", got)
	}
}

// TestCutStatsSplitsAttacks: a cut by an attack (a three or better)
// rewards the attacks' history and leaves the quiet moves' alone; the
// attacks searched before any cut lose, and the quiet moves searched
// before a quiet cut; the move order reads each move's own history, the
// attacks' at twice the weight.
func TestCutStatsSplitsAttacks(t *testing.T) {
	s, us, quiet, quiet2, three := historySetup(t)
	b := s.b
	const ply, depth = 2, 5
	bonus := statBonus(depth)
	// The three cuts after a quiet move.
	s.cutStats(ply, three, b.Combo(three, us), []scoredMove{{quiet, 0}}, depth)
	if a, q := s.attHistory[us-1][three], s.history[us-1][three]; a != bonus || q != 0 {
		t.Fatalf("after the three's cut: attacks' history %d (want %d), quiet history %d (want 0)", a, bonus, q)
	}
	if h := s.history[us-1][quiet]; h != 0 {
		t.Errorf("a quiet move before an attack's cut: history %d, want 0", h)
	}
	if s.killers[ply][0] != three {
		t.Errorf("killer %v, want the three", s.killers[ply][0])
	}
	// A quiet move cuts after the three and the other quiet move.
	s.cutStats(ply, quiet, b.Combo(quiet, us), []scoredMove{{three, 0}, {quiet2, 0}}, depth)
	if h := s.history[us-1][quiet]; h != bonus {
		t.Errorf("after the quiet cut: history %d, want %d", h, bonus)
	}
	if h := s.history[us-1][quiet2]; h != -bonus {
		t.Errorf("the quiet move before it: history %d, want %d", h, -bonus)
	}
	if a := s.attHistory[us-1][three]; a >= 0 {
		t.Errorf("the attack before it: attacks' history %d, want below 0 (the malus outweighs the bonus it had)", a)
	}
	if got, want := s.histOrder(us, three, b.Combo(three, us)), s.attHistory[us-1][three]/attHistoryDiv; got != want {
		t.Errorf("the three's order %d, want %d", got, want)
	}
	if got, want := s.histOrder(us, quiet, b.Combo(quiet, us)), bonus/historyDiv; got != want {
		t.Errorf("the quiet move's order %d, want %d", got, want)
	}
}

// TestQuickWinsAreWins: whenever the search scores a node as won from the
// threat counts alone (a four-three or a double three the opponent cannot
// interrupt), the threat-space solver finds a win there too, in random
// positions under every rule.
func TestQuickWinsAreWins(t *testing.T) {
	perRule := 25
	if testing.Short() {
		perRule = 10
	}
	rules := []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree}
	found := checkQuickWins(t, rules, 400, 55, perRule, func(*eval.Board) bool { return true })
	if found < 3*perRule {
		t.Errorf("only %d quick wins: the test would prove nothing", found)
	}
}

// TestQuickWinsPastFours: a four-three is scored as won even where the
// opponent has fours of its own to play, when the forced block of our four
// makes none; the threat-space solver confirms every such win, and the
// search does find them.
func TestQuickWinsPastFours(t *testing.T) {
	perRule := 15
	if testing.Short() {
		perRule = 5
	}
	rules := []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju}
	found := checkQuickWins(t, rules, 3000, 77, perRule, func(b *eval.Board) bool {
		return canFour(b, b.SideToMove().Opp())
	})
	if found < len(rules)*perRule {
		t.Errorf("only %d quick wins past the opponent's fours: the test would prove nothing", found)
	}
}

// TestRenjuBlackFourThreesAreWins: renju's Black, whose four-three the
// search now plays out (its three may be fake), is scored as won only
// where the threat-space solver confirms the win.
func TestRenjuBlackFourThreesAreWins(t *testing.T) {
	perRule := 25
	if testing.Short() {
		perRule = 10
	}
	found := checkQuickWins(t, []eval.Rule{eval.Renju}, 4000, 91, perRule, func(b *eval.Board) bool {
		return b.SideToMove() == eval.Black
	})
	if found < perRule {
		t.Errorf("only %d quick wins of renju's Black: the test would prove nothing", found)
	}
}

// TestRenjuBlackFakeThreeNoQuickWin: renju's Black has one four-three,
// at (8,7): a four up the anti-diagonal to (11,4) and the open three
// (6,7)–(8,7), whose one open-four cell (9,7) is an overline on the
// diagonal (6,4)–(11,9). White's forced block at (7,8) makes no four, so
// the threat counts alone would call it a win in five plies; the three
// is fake, and the search must not score the node so.
func TestRenjuBlackFakeThreeNoQuickWin(t *testing.T) {
	blacks := [][2]int{{6, 7}, {7, 7}, {9, 6}, {10, 5}, {11, 4}, {6, 4}, {7, 5}, {8, 6}, {10, 8}, {11, 9}}
	whites := [][2]int{{4, 7}, {12, 3}, {5, 3}, {12, 10}, {7, 9}, {10, 9}, {6, 14}, {9, 14}, {12, 14}, {14, 11}}
	var moves [][2]int
	for i := range blacks {
		moves = append(moves, blacks[i], whites[i])
	}
	b := setup(t, eval.Renju, 15, moves...)
	fourThree, block, open := b.Pos(8, 7), b.Pos(7, 8), b.Pos(9, 7)
	if n, p := b.ComboCount(eval.Black, eval.ComboFourThree), b.FirstCombo(eval.Black, eval.ComboFourThree); n != 1 || p != fourThree {
		t.Fatalf("Black has %d four-threes, first at %v; the test wants one, at (8,7)", n, xy(b, p))
	}
	b.Play(fourThree)
	if p := b.FirstCombo(eval.Black, eval.ComboFive); p != block || b.Combo(block, eval.White) >= eval.ComboFour {
		t.Fatalf("the four's block is %v (White's combo there %v); the test wants (7,8), making no four", xy(b, p), b.Combo(p, eval.White))
	}
	if !b.IsForbidden(open) || b.ComboCount(eval.Black, eval.ComboFlexFour) != 0 {
		t.Fatalf("(9,7) forbidden %v, Black's open-four cells %d: the three is not fake", b.IsForbidden(open), b.ComboCount(eval.Black, eval.ComboFlexFour))
	}
	b.Undo()
	s := New(4)
	s.b = b
	s.resetArea()
	if s.quickWin(eval.Black, eval.White) {
		t.Error("a four-three whose three is fake is scored as a win in five plies")
	}
}

// checkQuickWins plays random games (seeded by seed and the rule) under
// each rule and, at every position that keep accepts and the search
// scores as a quick win for the side to move, asks the threat-space
// solver to confirm the win; it stops a rule after perRule such positions
// or games games, and returns how many it checked.
func checkQuickWins(t *testing.T, rules []eval.Rule, games int, seed uint64, perRule int, keep func(*eval.Board) bool) int {
	t.Helper()
	found := 0
	s := New(4)
	s.hard = time.Now().Add(time.Hour)
	for _, r := range rules {
		start := found
		for g := 0; g < games && found-start < perRule; g++ {
			rng := rand.New(rand.NewPCG(uint64(g), seed+uint64(r)))
			b := setup(t, r, 15)
			for b.Ply() < 10+rng.IntN(30) {
				p, ok := randomQuietMove(b, rng, 4)
				if !ok {
					continue
				}
				b.Play(p)
				us, them := b.SideToMove(), b.SideToMove().Opp()
				if b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(them, eval.ComboFive) > 0 || b.ComboCount(us, eval.ComboFlexFour) > 0 || !keep(b) {
					continue
				}
				s.b = b
				s.resetArea()
				if !s.quickWin(us, them) {
					continue
				}
				found++
				if _, ok := s.vctRoot(vctPlies, vctNodes); !ok {
					t.Errorf("%v: after %v the search counts a win for %v that the threat-space search does not find",
						r, fmtMoves(b, movesOf(b)), us)
				}
				if found-start == perRule {
					break
				}
			}
		}
	}
	t.Logf("%d quick wins confirmed", found)
	return found
}

// movesOf lists the moves played on b, in order.
func movesOf(b *eval.Board) []eval.Pos {
	out := make([]eval.Pos, b.Ply())
	for i := range out {
		out[i], _ = b.MoveAt(i)
	}
	return out
}

// randomQuietMove draws a cell within radius of the board's centre for a
// random game: ok is false (draw again) when it is taken, would win, or
// is a renju foul for the side to move.
func randomQuietMove(b *eval.Board, rng *rand.Rand, radius int) (eval.Pos, bool) {
	cx, cy := b.Width()/2, b.Height()/2
	p := b.Pos(cx+rng.IntN(2*radius+1)-radius, cy+rng.IntN(2*radius+1)-radius)
	if !b.IsEmpty(p) || b.WinsAt(p, b.SideToMove()) || (b.SideToMove() == eval.Black && b.IsForbidden(p)) {
		return p, false
	}
	return p, true
}

// The pruning and reduction schedules: late-move pruning keeps 3 +
// depth^1.32 quiet moves (half when the node is not improving) and grows
// with depth; the base reduction is 0.5 + 0.75 ln(depth) ln(i+1) plies,
// rounded down, and grows with depth and with the move's place.
func TestPruningSchedules(t *testing.T) {
	s := New(1)
	for _, c := range []struct {
		depth     int
		improving bool
		want      int
	}{{1, true, 4}, {1, false, 2}, {3, true, 7}, {3, false, 3}, {6, true, 13}, {10, true, 23}, {10, false, 11}} {
		if got := s.lmpLimit(c.depth, c.improving); got != c.want {
			t.Errorf("lmpLimit(%d, %v) = %d, want %d", c.depth, c.improving, got, c.want)
		}
	}
	for _, c := range []struct{ depth, i, want int }{{1, 40, 0}, {3, 3, 1}, {3, 8, 2}, {6, 3, 2}, {10, 20, 5}} {
		if got := s.lmrReduction(c.depth, c.i); got != c.want {
			t.Errorf("lmrReduction(%d, %d) = %d, want %d", c.depth, c.i, got, c.want)
		}
	}
	for d := 1; d < MaxPly; d++ {
		if s.lmpLimit(d+1, true) < s.lmpLimit(d, true) || s.lmpLimit(d, false) > s.lmpLimit(d, true) {
			t.Fatalf("lmpLimit not monotone at depth %d", d)
		}
		for i := 0; i < 100; i++ {
			if s.lmrReduction(d+1, i) < s.lmrReduction(d, i) || s.lmrReduction(d, i+1) < s.lmrReduction(d, i) {
				t.Fatalf("lmrReduction not monotone at depth %d, move %d", d, i)
			}
		}
	}
}

// TestDistantDefence checks the reduction of a move that answers an open
// three with something other than a block: the parameter's plies when it
// lies more than four cells from the opponent's last move, one more when
// far from our own last move too, none near the fight.
func TestDistantDefence(t *testing.T) {
	// Black's open three on row 7 (its last stone 7,7); White's three on
	// column 12 and its last stone at 3,12. White to move, threatened.
	b := setup(t, eval.Freestyle, 15, [2]int{5, 7}, [2]int{12, 1}, [2]int{6, 7}, [2]int{12, 2},
		[2]int{1, 13}, [2]int{12, 3}, [2]int{0, 0}, [2]int{3, 12}, [2]int{7, 7})
	if b.ComboCount(eval.Black, eval.ComboFlexFour) == 0 {
		t.Fatal("setup: Black has no open three")
	}
	s := New(1)
	s.prepare(b, Limits{})
	for _, c := range []struct {
		x, y, base, want int
	}{
		{12, 4, 2, 3}, // a four far from both last moves
		{12, 4, 1, 2},
		{12, 0, 2, 3},
		{4, 8, 2, 0},  // beside Black's three, near our stone too
		{6, 13, 2, 2}, // far from Black's last stone, near our own
		{4, 4, 2, 1},  // near Black's last stone, far from our own
	} {
		p := b.Pos(c.x, c.y)
		b.Play(p)
		if got := s.distantDefence(p, c.base); got != c.want {
			t.Errorf("distantDefence(%d,%d, base %d) = %d, want %d", c.x, c.y, c.base, got, c.want)
		}
		b.Undo()
	}
}

// TestPickMoveOrder checks that taking moves with pickMove, some of them
// one by one and the rest sorted as pvs does, gives sortMoves' order:
// best first, equal scores in the order they were listed.
func TestPickMoveOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 500; trial++ {
		n := rng.IntN(40)
		ms := make([]scoredMove, n)
		for i := range ms {
			ms[i] = scoredMove{pos: eval.Pos(i), score: int32(rng.IntN(6))}
		}
		want := slices.Clone(ms)
		sortMoves(want)
		got := slices.Clone(ms)
		picks := rng.IntN(n + 1)
		for i := range got {
			if i < picks {
				pickMove(got, i)
			} else if i == picks {
				sortMoves(got[i:])
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d picks of %v: got %v, want %v", picks, ms, got, want)
		}
	}
}

// TestLastReportIsTheMove: whatever iteration the search stops in, the last
// line it reports starts with the move it returns. A move that beat the
// first one in an unfinished iteration is played (iterate), and analysis
// tools show the last reported line as the engine's choice, so that move
// must be reported too. Node limits stop the search at many points of its
// iterations, some of them after such an improvement.
func TestLastReportIsTheMove(t *testing.T) {
	positions := []struct {
		rule  eval.Rule
		moves [][2]int
	}{
		{eval.Renju, [][2]int{{7, 7}}},
		{eval.Freestyle, [][2]int{{7, 7}, {8, 8}, {8, 6}}},
		{eval.Freestyle, [][2]int{{7, 7}, {8, 7}, {8, 10}, {6, 6}, {9, 9}}},
		{eval.Standard, [][2]int{{7, 7}, {7, 8}, {9, 9}, {6, 6}}},
	}
	improved := 0
	for _, pos := range positions {
		for nodes := uint64(2000); nodes <= 40000; nodes += 2300 {
			b := setup(t, pos.rule, 15, pos.moves...)
			s := New(16)
			var last Info
			res := s.Search(context.Background(), b, Limits{MaxNodes: nodes}, func(in Info) { last = in })
			if res.Reason != "search" {
				continue
			}
			if len(last.PV) == 0 || last.PV[0] != res.Move {
				t.Fatalf("rule %v %v at %d nodes: played %v, last report %+v",
					pos.rule, pos.moves, nodes, xy(b, res.Move), last)
			}
			if last.Depth != res.Depth || last.Score != res.Score {
				t.Fatalf("rule %v %v at %d nodes: result depth %d score %d, last report depth %d score %d",
					pos.rule, pos.moves, nodes, res.Depth, res.Score, last.Depth, last.Score)
			}
			if last.Nodes >= nodes {
				improved++ // reported after the node limit stopped an iteration
			}
		}
	}
	if improved == 0 {
		t.Fatal("no search ended on a move an unfinished iteration found: the test tests nothing")
	}
	t.Logf("%d searches ended on a move an unfinished iteration found", improved)
}

// TestDecidedMoveScore: a move the root decides without a search (the
// block of the opponent's only four) is reported with the score of a
// one-ply search, the static evaluation after it from the mover's side,
// not a level 0 that an analysis board would show as the position's value.
func TestDecidedMoveScore(t *testing.T) {
	moves := [][2]int{{0, 0}, {7, 7}, {1, 0}, {9, 9}, {2, 0}, {11, 11}, {3, 0}}
	b := setup(t, eval.Freestyle, 15, moves...)
	var last Info
	res := New(16).Search(context.Background(), b, Limits{MaxNodes: 10000}, func(in Info) { last = in })
	block := b.Pos(4, 0)
	if res.Move != block || res.Reason != "only move" {
		t.Fatalf("played %v (%s), want the block at (4,0) as the only move", xy(b, res.Move), res.Reason)
	}
	after := setup(t, eval.Freestyle, 15, append(moves, [2]int{4, 0})...)
	want := -int(after.Evaluate())
	if res.Score != want || want == 0 {
		t.Fatalf("score %d, want %d (the evaluation after the block)", res.Score, want)
	}
	if last.Score != res.Score || last.Depth != 1 {
		t.Fatalf("reported %+v, want depth 1 and score %d", last, res.Score)
	}
}

// TestOnLeaf: the leaf hook sees boards deeper than the root, and a
// search with it plays, scores and counts exactly as one without.
func TestOnLeaf(t *testing.T) {
	moves := [][2]int{{7, 7}, {8, 8}, {8, 6}, {6, 8}, {9, 7}}
	lim := Limits{MaxNodes: 20000}
	plain := New(4).Search(context.Background(), setup(t, eval.Freestyle, 15, moves...), lim, nil)
	s := New(4)
	leaves, shallow := 0, 0
	s.OnLeaf = func(b *eval.Board) {
		leaves++
		if b.Ply() <= len(moves) {
			shallow++
		}
	}
	hooked := s.Search(context.Background(), setup(t, eval.Freestyle, 15, moves...), lim, nil)
	if leaves == 0 || shallow > 0 {
		t.Fatalf("%d leaves seen, %d of them not below the root", leaves, shallow)
	}
	if plain.Move != hooked.Move || plain.Score != hooked.Score || plain.Nodes != hooked.Nodes || plain.Depth != hooked.Depth {
		t.Fatalf("with the hook %+v, without %+v", hooked, plain)
	}
}
