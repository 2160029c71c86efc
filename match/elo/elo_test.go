package elo

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestFromScore(t *testing.T) {
	for _, tc := range []struct{ s, elo float64 }{
		{0.5, 0},
		{0.75, 190.8485}, // 400·log10(3)
		{0.25, -190.8485},
		{10.0 / 11, 400}, // odds 10:1 is 400 Elo by definition
	} {
		if got := FromScore(tc.s); !near(got, tc.elo, 1e-3) {
			t.Errorf("FromScore(%v) = %v, want %v", tc.s, got, tc.elo)
		}
		if tc.s != 0.5 && !near(ToScore(tc.elo), tc.s, 1e-6) {
			t.Errorf("ToScore(%v) = %v, want %v", tc.elo, ToScore(tc.elo), tc.s)
		}
	}
	if !math.IsInf(FromScore(1), 1) || !math.IsInf(FromScore(0), -1) {
		t.Error("a perfect score should be infinite")
	}
}

// W30 L10 D10 by hand: score 0.7, per-game variance
// 0.6·0.3² + 0.2·0.7² + 0.2·0.2² = 0.16, standard error √(0.16/50) = 0.056569,
// 95% interval 0.7 ± 0.110872 = [0.589128, 0.810872] → [62.625, 252.903] Elo,
// half-width 95.139.
func TestMargin(t *testing.T) {
	r := Result{Wins: 30, Losses: 10, Draws: 10}
	if !near(r.Score(), 0.7, 1e-12) || !near(r.Diff(), 147.1907, 1e-3) {
		t.Errorf("score %v diff %v", r.Score(), r.Diff())
	}
	if got := r.Margin(); !near(got, 95.139, 1e-3) {
		t.Errorf("margin %v, want 95.139", got)
	}
	if (Result{}).Margin() != 0 || (Result{}).Score() != 0.5 {
		t.Error("an empty result should have score 0.5 and no margin")
	}
}

// Bounds for α = β = 0.05 are ±ln 19 = ±2.944439. For W30 L10 D10 and
// H0 = 0, H1 = 10 Elo: s0 = 0.5, s1 = 0.514387, so
// LLR = 50·0.014387·(1.4 - 1.014387)/(2·0.16) = 0.866857.
func TestSPRT(t *testing.T) {
	test, err := ParseSPRT("0,10,0.05,0.05")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := test.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	r := Result{Wins: 30, Losses: 10, Draws: 10}
	if got := test.LLR(r); !near(got, 0.866857, 1e-5) {
		t.Errorf("LLR %v, want 0.866857", got)
	}
	if test.Decide(r) != Continue {
		t.Error("0.87 is inside the bounds")
	}
	// Four times the games at the same rates: LLR 3.467 > 2.944.
	if d := test.Decide(Result{Wins: 120, Losses: 40, Draws: 40}); d != AcceptH1 {
		t.Errorf("decision %v, want H1", d)
	}
	if d := test.Decide(Result{Wins: 40, Losses: 120, Draws: 40}); d != AcceptH0 {
		t.Errorf("decision %v, want H0", d)
	}
	if test.LLR(Result{Wins: 5}) != 0 {
		t.Error("no variance, no evidence")
	}
}

func TestParseSPRT(t *testing.T) {
	got, err := ParseSPRT("-2, 3")
	if err != nil || got != (SPRT{Elo0: -2, Elo1: 3, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, bad := range []string{"", "1", "3,1", "0,5,0,0.05", "a,b", "0,5,0.05"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q) accepted", bad)
		}
	}
}

// Four openings by hand: differences 0.5, 0, 0.5, 0 have mean 0.25 and
// sample variance 1/12, so the mean's standard error is √(1/48) = 0.144338
// and the 95% half-width 0.282898. Taken apart, the scores' variances
// (0.6875 + 0.1875)/12 give √0.0729167 · 1.96 = 0.529250.
func TestComparePaired(t *testing.T) {
	p := ComparePaired([]float64{1, 0.5, 1, 0}, []float64{0.5, 0.5, 0.5, 0})
	if p.Openings != 4 || !near(p.Score, 0.625, 1e-12) || !near(p.BaseScore, 0.375, 1e-12) || !near(p.Diff, 0.25, 1e-12) {
		t.Fatalf("%+v", p)
	}
	if !near(p.DiffMargin, 0.282898, 1e-5) || !near(p.Unpaired, 0.529250, 1e-5) {
		t.Errorf("margins %v and %v, want 0.282898 and 0.529250", p.DiffMargin, p.Unpaired)
	}
	if !near(p.Elo(), 2*400*math.Log10(5.0/3), 1e-9) {
		t.Errorf("Elo %v", p.Elo())
	}
	// Slope at the mean score 0.5: 400/ln10/0.25.
	if want := 0.282898 * 1600 / math.Ln10; !near(p.EloMargin(), want, 0.01) {
		t.Errorf("Elo margin %v, want %v", p.EloMargin(), want)
	}

	// The same points on every opening: no difference and no doubt about
	// it, however much the openings differ from one another.
	same := []float64{1, 0, 0.5, 1, 0}
	p = ComparePaired(same, same)
	if p.Diff != 0 || p.DiffMargin != 0 || p.Unpaired <= 0.3 {
		t.Errorf("identical builds: %+v", p)
	}
	if p = ComparePaired(nil, nil); p.Openings != 0 || p.DiffMargin != 0 {
		t.Errorf("no openings: %+v", p)
	}
	if p = ComparePaired([]float64{1}, []float64{0}); p.Diff != 1 || p.DiffMargin != 0 {
		t.Errorf("one opening: %+v", p)
	}
}
