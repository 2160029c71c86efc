package match

import (
	"testing"

	"wuzi/eval"
	"wuzi/match/elo"
)

// The summary splits the engine under test's record by the colour it
// played, and the two halves add up to the whole.
func TestSummaryByColor(t *testing.T) {
	s := NewSummary([]string{"test", "opp"}, 5)
	game := func(testBlack bool, winner eval.Color) Done {
		d := Done{Job: Job{Opponent: 1, Swapped: !testBlack}, Black: 0, White: 1,
			Result: &GameResult{Winner: winner, Reason: ReasonFive}}
		if !testBlack {
			d.Black, d.White = 1, 0
		}
		return d
	}
	s.Add(game(true, eval.Black))  // a win as Black
	s.Add(game(true, eval.White))  // a loss as Black
	s.Add(game(false, eval.White)) // a win as White
	s.Add(game(false, eval.Black)) // a loss as White
	s.Add(game(false, eval.Empty)) // a draw as White
	tl := s.Pairs[0]
	if want := (elo.Result{Wins: 1, Losses: 1}); tl.AsBlack != want {
		t.Errorf("as Black %+v, want %+v", tl.AsBlack, want)
	}
	if want := (elo.Result{Wins: 1, Losses: 1, Draws: 1}); tl.AsWhite != want {
		t.Errorf("as White %+v, want %+v", tl.AsWhite, want)
	}
	if tl.Wins != 2 || tl.Losses != 2 || tl.Draws != 1 {
		t.Errorf("total %+v, want 2-2-1", tl.Result)
	}
}
