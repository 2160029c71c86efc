package eval

import "testing"

func place(t testing.TB, b *Board, moves ...[2]int) {
	for _, m := range moves {
		b.Play(b.Pos(m[0], m[1]))
	}
}

func TestSmokeRenju(t *testing.T) {
	b, err := NewBoard(15, 15, Renju)
	if err != nil {
		t.Fatal(err)
	}
	// rule_checks renju-15-specific: g9 (6,8) is forbidden for black.
	place(t, b, [2]int{7, 7}, [2]int{7, 8}, [2]int{8, 6}, [2]int{8, 8}, [2]int{7, 9}, [2]int{8, 5}, [2]int{8, 10}, [2]int{8, 11})
	if !b.IsForbidden(b.Pos(6, 8)) {
		t.Errorf("6,8 should be forbidden")
	}
	t.Log(b.ForbiddenCells())
}
