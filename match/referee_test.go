package match

import (
	"testing"

	"wuzi/eval"
)

type mv struct{ x, y int }

// replay plays moves alternately from Black and returns the last verdict.
func replay(t *testing.T, rule eval.Rule, moves []mv) Verdict {
	t.Helper()
	r, err := NewReferee(15, 15, rule)
	if err != nil {
		t.Fatal(err)
	}
	var v Verdict
	for i, m := range moves {
		var detail string
		v, detail = r.Judge(m.x, m.y)
		if v != Legal && i != len(moves)-1 {
			t.Fatalf("move %d %v: %v %s before the end", i+1, m, v, detail)
		}
	}
	return v
}

// interleave builds a game from Black's and White's moves that ends with
// Black's last move.
func interleave(black, white []mv) []mv {
	var out []mv
	for i := range black {
		out = append(out, black[i])
		if i < len(white) && i < len(black)-1 {
			out = append(out, white[i])
		}
	}
	return out
}

var farWhite = []mv{{0, 14}, {2, 14}, {4, 14}, {6, 14}, {8, 14}, {10, 14}, {12, 14}, {14, 12}}

func TestRefereeFive(t *testing.T) {
	black := []mv{{3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 3}}
	for _, rule := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree, eval.CaroExact} {
		if v := replay(t, rule, interleave(black, farWhite)); v != Five {
			t.Errorf("%v: an open five gave %v", rule, v)
		}
	}
}

// overline: Black fills 3..5 and 7..8 of row 3, then 6 joins six stones.
func overlineGame(white []mv) []mv {
	return interleave([]mv{{3, 3}, {4, 3}, {5, 3}, {7, 3}, {8, 3}, {6, 3}}, white)
}

func TestRefereeOverline(t *testing.T) {
	for _, tc := range []struct {
		rule eval.Rule
		want Verdict
	}{
		{eval.Freestyle, Five},
		{eval.Standard, Legal}, // exactly five: six is no win
		{eval.CaroFree, Five},
		{eval.CaroExact, Legal},
		{eval.Renju, Foul}, // Black's overline is forbidden
	} {
		if v := replay(t, tc.rule, overlineGame(farWhite)); v != tc.want {
			t.Errorf("%v: Black's six gave %v, want %v", tc.rule, v, tc.want)
		}
	}
	// Under renju White's six wins.
	white := []mv{{3, 5}, {4, 5}, {5, 5}, {7, 5}, {8, 5}, {6, 5}}
	black := []mv{{0, 0}, {2, 0}, {4, 0}, {6, 0}, {8, 0}, {10, 0}}
	game := append(interleave(black, white), white[len(white)-1])
	if v := replay(t, eval.Renju, game); v != Five {
		t.Errorf("renju: White's six gave %v, want Five", v)
	}
}

func TestRefereeRenjuFouls(t *testing.T) {
	// Double three: row 7 and column 9 meet at 9,7.
	d3 := []mv{{7, 7}, {8, 7}, {9, 8}, {9, 9}, {9, 7}}
	if v := replay(t, eval.Renju, interleave(d3, farWhite)); v != Foul {
		t.Errorf("double three gave %v", v)
	}
	if v := replay(t, eval.Freestyle, interleave(d3, farWhite)); v != Legal {
		t.Errorf("freestyle double three gave %v", v)
	}
	// Double four: three on row 7 and three on column 10 meet at 10,7.
	d4 := []mv{{6, 7}, {7, 7}, {8, 7}, {10, 8}, {10, 9}, {10, 10}, {10, 7}}
	if v := replay(t, eval.Renju, interleave(d4, farWhite)); v != Foul {
		t.Errorf("double four gave %v", v)
	}
	// A five made together with a four is a win, not a foul.
	f5 := []mv{{3, 7}, {4, 7}, {5, 7}, {6, 7}, {7, 8}, {7, 9}, {7, 10}, {7, 7}}
	if v := replay(t, eval.Renju, interleave(f5, farWhite)); v != Five {
		t.Errorf("five with a four gave %v", v)
	}
}

func TestRefereeCaro(t *testing.T) {
	// White blocks both ends of Black's row 3..7 on row 3.
	black := []mv{{3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 3}}
	blocked := []mv{{2, 3}, {8, 3}, {0, 14}, {2, 14}}
	for _, tc := range []struct {
		rule eval.Rule
		want Verdict
	}{
		{eval.Freestyle, Five},
		{eval.CaroFree, Legal},
		{eval.CaroExact, Legal},
	} {
		if v := replay(t, tc.rule, interleave(black, blocked)); v != tc.want {
			t.Errorf("%v: a five blocked at both ends gave %v, want %v", tc.rule, v, tc.want)
		}
	}
	// Blocked at one end only, or by the board edge, it wins.
	oneEnd := []mv{{2, 3}, {0, 14}, {2, 14}, {4, 14}}
	if v := replay(t, eval.CaroFree, interleave(black, oneEnd)); v != Five {
		t.Errorf("caro: a five blocked at one end gave %v", v)
	}
	edge := []mv{{0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 3}}
	if v := replay(t, eval.CaroFree, interleave(edge, []mv{{5, 3}, {0, 14}, {2, 14}, {4, 14}})); v != Five {
		t.Errorf("caro: a five against the edge and a stone gave %v", v)
	}
}

func TestRefereeIllegal(t *testing.T) {
	r, _ := NewReferee(15, 15, eval.Freestyle)
	r.Judge(7, 7)
	for _, m := range []mv{{7, 7}, {-1, 0}, {15, 3}, {3, 15}} {
		if v, detail := r.Judge(m.x, m.y); v != Illegal || detail == "" {
			t.Errorf("%v gave %v %q", m, v, detail)
		}
	}
	if r.Stones() != 1 || r.SideToMove() != eval.White {
		t.Error("an illegal move changed the position")
	}
}
