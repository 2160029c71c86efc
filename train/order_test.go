package train

import (
	"math/rand"
	"testing"

	"wuzi/eval"
)

// orderSamples makes n positions of six candidates with random shape
// codes in which the chosen move is always the one whose attack code is
// want (the other candidates never have it).
func orderSamples(n int, want int32, rng *rand.Rand) []PolicySample {
	out := make([]PolicySample, n)
	for i := range out {
		s := PolicySample{Best: rng.Intn(6), Holdout: i%5 == 0}
		for j := 0; j < 6; j++ {
			a := int32(rng.Intn(eval.NumCodes))
			for a == want {
				a = int32(rng.Intn(eval.NumCodes))
			}
			if j == s.Best {
				a = want
			}
			d := int32(2*eval.NumCodes + rng.Intn(eval.NumCodes))
			s.Cands = append(s.Cands, [2]int32{a, d})
		}
		out[i] = s
	}
	return out
}

// TestFitOrderLearnsTheChoice: a choice the attack table can tell (the
// chosen cell always has one code) is ordered first in held-out positions
// after a few passes, and the fit is the same on a second run. Fails when
// the gradient's sign or its tables are wrong.
func TestFitOrderLearnsTheChoice(t *testing.T) {
	samples := orderSamples(2000, 77, rand.New(rand.NewSource(5)))
	cfg := OrderConfig{Epochs: 4, Rate: 0.05, Batch: 32, Seed: 1}
	p := FitOrder(samples, cfg)
	if _, top1 := PolicyLoss(samples, p, 1, true); top1 < 0.99 {
		t.Errorf("held-out best move first %.3f, want at least 0.99", top1)
	}
	q := FitOrder(samples, cfg)
	for i := range p {
		if p[i] != q[i] {
			t.Fatalf("parameter %d: %v then %v: the fit is not deterministic", i, p[i], q[i])
		}
	}
}

// TestMatchOrderScale: after the mapping the same shares of the training
// candidates fall below the two thresholds as under the start order
// (within one candidate in a thousand), and the mapping keeps the fit's
// ranking of every position's candidates.
func TestMatchOrderScale(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	samples := orderSamples(500, 5, rng)
	start := make([]float64, NumPolicyParams)
	p := make([]float64, NumPolicyParams)
	for i := range start {
		start[i] = rng.NormFloat64() * 700
		p[i] = rng.NormFloat64()*2 - 1
	}
	const hi, lo = 0, -600
	m := MatchOrderScale(samples, p, start, hi, lo)
	share := func(q []float64, th float64) float64 {
		n, below := 0, 0
		for _, s := range samples {
			if s.Holdout {
				continue
			}
			for _, c := range s.Cands {
				n++
				if q[c[0]]+q[c[1]] < th {
					below++
				}
			}
		}
		return float64(below) / float64(n)
	}
	for _, th := range []float64{hi, lo} {
		if a, b := share(start, th), share(m, th); b < a-0.001 || b > a+0.001 {
			t.Errorf("below %v: %.4f of the candidates after the mapping, %.4f under the start", th, b, a)
		}
	}
	for _, s := range samples {
		for j := range s.Cands {
			for k := range s.Cands {
				cj, ck := s.Cands[j], s.Cands[k]
				if (p[cj[0]]+p[cj[1]] < p[ck[0]]+p[ck[1]]) != (m[cj[0]]+m[cj[1]] < m[ck[0]]+m[ck[1]]) {
					t.Fatal("the mapping changed the order of two candidates")
				}
			}
		}
	}
}
