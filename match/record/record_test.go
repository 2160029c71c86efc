package record

import (
	"strings"
	"testing"
	"time"
)

func sample() *Game {
	return &Game{
		Width: 15, Height: 15, RuleName: "freestyle",
		Black: "pbrain-a", White: "pbrain-b",
		Date:    time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC),
		Opening: 3,
		Moves: []Move{
			{X: 7, Y: 7}, {X: 8, Y: 7}, {X: 8, Y: 10},
			{X: 6, Y: 6, Time: 1234 * time.Millisecond},
			{X: 0, Y: 14, Time: 5 * time.Millisecond},
		},
		Outcome: WhiteWins,
		Reason:  "time-out",
		Failure: true,
	}
}

func TestPSQ(t *testing.T) {
	var b strings.Builder
	if err := WritePSQ(&b, sample()); err != nil {
		t.Fatal(err)
	}
	want := "Piskvorky 15x15, 11:11, 0\n" +
		"8,8,0\n9,8,0\n9,11,0\n7,7,1234\n1,15,5\n" +
		"pbrain-a\npbrain-b\n-1\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	g := sample()
	g.Failure, g.Width, g.Height = false, 20, 15
	b.Reset()
	WritePSQ(&b, g)
	if !strings.HasPrefix(b.String(), "Piskvorky 20x15, 11:11, 0\n") || !strings.HasSuffix(b.String(), "\n0\n") {
		t.Errorf("got\n%s", b.String())
	}
}

func TestSGF(t *testing.T) {
	var b strings.Builder
	if err := WriteSGF(&b, sample()); err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]GM[4]CA[UTF-8]AP[wuzi-match]SZ[15]RU[freestyle]PB[pbrain-a]PW[pbrain-b]" +
		"DT[2025-03-04]RE[W+T]C[time-out; opening 3 stones]\n" +
		";B[hh];W[ih];B[ik];W[gg];B[ao])\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSGFResults(t *testing.T) {
	g := sample()
	for _, tc := range []struct {
		out     Outcome
		reason  string
		failure bool
		want    string
	}{
		{BlackWins, "five", false, "B+"},
		{WhiteWins, "foul", false, "W+F"},
		{BlackWins, "crash", true, "B+F"},
		{WhiteWins, "time-out", true, "W+T"},
		{Draw, "full board", false, "0"},
	} {
		g.Outcome, g.Reason, g.Failure = tc.out, tc.reason, tc.failure
		if got := SGFResult(g); got != tc.want {
			t.Errorf("%v %s: %s, want %s", tc.out, tc.reason, got, tc.want)
		}
	}
	g.Width, g.Height, g.Black = 20, 15, `a]b\c`
	var b strings.Builder
	WriteSGF(&b, g)
	if !strings.Contains(b.String(), `SZ[20:15]`) || !strings.Contains(b.String(), `PB[a\]b\\c]`) {
		t.Errorf("got %s", b.String())
	}
}

func TestText(t *testing.T) {
	g := &Game{Width: 5, Height: 5, Moves: []Move{{X: 2, Y: 2}, {X: 4, Y: 0}, {X: 0, Y: 4}}}
	want := "    a b c d e\n" +
		"  1 . . . . O\n" +
		"  2 . . . . .\n" +
		"  3 . . X . .\n" +
		"  4 . . . . .\n" +
		"  5[X]. . . .\n"
	if got := Text(g); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	g.Moves = g.Moves[:2]
	if got := Text(g); !strings.Contains(got, "  1 . . . .[O]\n") {
		t.Errorf("last stone at the edge:\n%s", got)
	}
}
