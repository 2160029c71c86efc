package brain

import (
	"testing"

	"wuzi/eval"
	"wuzi/protocol"
	"wuzi/search"
)

// The evaluation's percentages in Config.Params reach every board the
// brain makes (at START, on a rule change, on a takeback that replays):
// the board evaluates as one given the scaled weights by hand; default
// percentages evaluate as no Params at all.
func TestParamsScaleTheEvaluation(t *testing.T) {
	def := search.DefaultParams()
	scaled := search.DefaultParams()
	for _, kv := range []string{"evattack=80", "evdefend=150", "evthreat=50", "poldefend=120", "evlateatt=130", "evlatedef=70", "polattack=90"} {
		if err := scaled.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	moves := []protocol.Move{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 8, Y: 6}, {X: 6, Y: 9}, {X: 9, Y: 7}}
	setup := func(p *search.Params) *Brain {
		br := New(Config{HashMB: 4, Params: p})
		if err := br.Start(15, 15); err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if err := br.OpponentMove(m); err != nil {
				t.Fatal(err)
			}
		}
		return br
	}
	// want is the evaluation of the brain's position on a board given
	// rule r's embedded weights scaled by p.
	want := func(br *Brain, r eval.Rule, p *search.Params) int32 {
		w, err := eval.EmbeddedWeights(eval.FamilyOf(r))
		if err != nil {
			t.Fatal(err)
		}
		b, err := eval.NewBoard(15, 15, r)
		if err != nil {
			t.Fatal(err)
		}
		if sw, ok := p.EvalScaled(w); ok {
			b.SetWeights(sw)
		}
		for i := 0; i < br.Board().Ply(); i++ {
			pos, c := br.Board().MoveAt(i)
			b.PlayColor(pos, c)
		}
		b.SetSideToMove(br.Board().SideToMove())
		return b.Evaluate()
	}

	none, withDef, withScaled := setup(nil), setup(&def), setup(&scaled)
	if a, b := none.Board().Evaluate(), withDef.Board().Evaluate(); a != b {
		t.Fatalf("default parameters evaluate %d, no parameters %d", b, a)
	}
	got := withScaled.Board().Evaluate()
	if w := want(withScaled, eval.Freestyle, &scaled); got != w || got == none.Board().Evaluate() {
		t.Fatalf("scaled evaluation %d, want %d (unscaled %d)", got, w, none.Board().Evaluate())
	}
	if err := withScaled.SetInfo("rule", "4"); err != nil { // renju
		t.Fatal(err)
	}
	if got, w := withScaled.Board().Evaluate(), want(withScaled, eval.Renju, &scaled); got != w {
		t.Fatalf("after the rule change: evaluation %d, want %d", got, w)
	}
	if err := withScaled.Takeback(moves[1]); err != nil { // not the last move: the board is rebuilt
		t.Fatal(err)
	}
	if got, w := withScaled.Board().Evaluate(), want(withScaled, eval.Renju, &scaled); got != w {
		t.Fatalf("after the takeback: evaluation %d, want %d", got, w)
	}
}
