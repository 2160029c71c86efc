package train

import (
	"math"

	"wuzi/eval"
)

// Policy parameter layout of one family: PolicyAttack[0], PolicyAttack[1],
// PolicyDefend[0], PolicyDefend[1].
const (
	// NumPolicyParams is the number of move-ordering weights of a family.
	NumPolicyParams = 4 * eval.NumCodes
)

// PolicyParams flattens the move-ordering tables of w.
func PolicyParams(w *eval.Weights) []float64 {
	out := make([]float64, 0, NumPolicyParams)
	for _, t := range [][]int32{w.PolicyAttack[0][:], w.PolicyAttack[1][:], w.PolicyDefend[0][:], w.PolicyDefend[1][:]} {
		for _, v := range t {
			out = append(out, float64(v))
		}
	}
	return out
}

// SetPolicy rounds p into the move-ordering tables of w.
func SetPolicy(w *eval.Weights, p []float64) {
	i := 0
	for _, t := range [][]int32{w.PolicyAttack[0][:], w.PolicyAttack[1][:], w.PolicyDefend[0][:], w.PolicyDefend[1][:]} {
		for j := range t {
			t[j] = int32(max(-1<<30, min(1<<30, math.Round(p[i]))))
			i++
		}
	}
}

// PolicySample is one position's move choice: each candidate move's two
// parameters (its attack and defence entries) and which candidate the
// labelling search chose.
type PolicySample struct {
	Cands   [][2]int32
	Best    int
	Holdout bool
}

// PolicyFeatures lists the candidate moves of the side to move on b as the
// search generates them (empty cells within two of a stone through which a
// five is still possible, no renju foul) and finds best among them. It
// returns false when best is not a candidate or when the search would not
// order moves by value here (a five to make or to block, or an open four
// to play). Threatened by an open four, it lists what the search lists.
func PolicyFeatures(b *eval.Board, best eval.Pos) (PolicySample, bool) {
	us := b.SideToMove()
	them := us.Opp()
	if b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(them, eval.ComboFive) > 0 ||
		b.ComboCount(us, eval.ComboFlexFour) > 0 {
		return PolicySample{}, false
	}
	// Threatened by an open four next move, the search lists only our
	// fours and the cells on the opponent's threat lines.
	threatened := b.ComboCount(them, eval.ComboFlexFour) > 0
	s, o := int(us)-1, int(them)-1
	renjuBlack := b.Rule() == eval.Renju && us == eval.Black
	ps := PolicySample{Best: -1}
	for _, p := range b.Cells() {
		if !candidate(b, p, us, renjuBlack) {
			continue
		}
		if threatened && b.Combo(p, us) < eval.ComboFour && b.Combo(p, them) < eval.ComboFour && !onThreatLine(b, p, them) {
			continue
		}
		if p == best {
			ps.Best = len(ps.Cands)
		}
		ps.Cands = append(ps.Cands, [2]int32{
			int32(s*eval.NumCodes + b.CellCode(p, us)),
			int32(2*eval.NumCodes + o*eval.NumCodes + b.CellCode(p, them)),
		})
	}
	return ps, ps.Best >= 0 && len(ps.Cands) > 1
}

// candidate reports whether the search's move generator lists p for side
// us (renjuBlack: us is Black under renju): an empty cell within two of a
// stone through which a five is still possible, and no renju foul.
func candidate(b *eval.Board, p eval.Pos, us eval.Color, renjuBlack bool) bool {
	if !b.IsEmpty(p) || !b.Near(p) || !b.Alive(p) {
		return false
	}
	cu := b.Combo(p, us)
	return !(renjuBlack && (cu == eval.ComboForbidden || cu == eval.ComboDoubleThree) && b.IsForbidden(p))
}

// onThreatLine reports whether p lies on a line where c has a three or
// better through p (as the search's move generator asks).
func onThreatLine(b *eval.Board, p eval.Pos, c eval.Color) bool {
	for d := 0; d < 4; d++ {
		if pt := b.Pattern(p, d, c); pt >= eval.H3 && pt <= eval.F5 {
			return true
		}
	}
	return false
}

// policyLoss is the cross-entropy of the chosen move under softmax(v/t)
// and, when g is not nil, adds its gradient (times scale) to g.
func policyLoss(ps *PolicySample, p []float64, t float64, g []float64, scale float64, bufp *[]float64) float64 {
	buf := (*bufp)[:0]
	defer func() { *bufp = buf }()
	hi := math.Inf(-1)
	for _, c := range ps.Cands {
		v := (p[c[0]] + p[c[1]]) / t
		buf = append(buf, v)
		hi = max(hi, v)
	}
	sum := 0.0
	for i := range buf {
		buf[i] = math.Exp(buf[i] - hi)
		sum += buf[i]
	}
	loss := -math.Log(max(buf[ps.Best]/sum, 1e-300))
	if g != nil {
		for i, c := range ps.Cands {
			d := buf[i] / sum
			if i == ps.Best {
				d--
			}
			d *= scale / t
			g[c[0]] += d
			g[c[1]] += d
		}
	}
	return loss
}

// PolicyLoss is the mean cross-entropy of the chosen moves of the train or
// holdout samples, and how often the chosen move is ordered first.
func PolicyLoss(samples []PolicySample, p []float64, t float64, holdout bool) (loss, top1 float64) {
	n := 0
	var buf []float64
	for i := range samples {
		s := &samples[i]
		if s.Holdout != holdout {
			continue
		}
		loss += policyLoss(s, p, t, nil, 0, &buf)
		best := p[s.Cands[s.Best][0]] + p[s.Cands[s.Best][1]]
		first := true
		for j, c := range s.Cands {
			if j != s.Best && p[c[0]]+p[c[1]] > best {
				first = false
				break
			}
		}
		if first {
			top1++
		}
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	return loss / float64(n), top1 / float64(n)
}

// FitPolicyTemperature returns the temperature (between 1 and 10000)
// under which parameters p predict the training samples' choices best.
func FitPolicyTemperature(samples []PolicySample, p []float64) float64 {
	f := func(x float64) float64 { l, _ := PolicyLoss(samples, p, math.Exp(x), false); return l }
	return math.Exp(goldenMin(f, 0, math.Log(10000)))
}

// FitPolicy fits the move-ordering parameters to the training samples'
// choices (softmax cross-entropy at temperature cfg.K) by full-batch Adam
// from start, with L2 towards start; cfg.Tied keeps the colours' tables
// equal. It is deterministic.
func FitPolicy(samples []PolicySample, start []float64, cfg Config) []float64 {
	nTrain := 0
	for i := range samples {
		if !samples[i].Holdout {
			nTrain++
		}
	}
	var buf []float64
	tieGrad := func([]float64) {}
	if cfg.Tied {
		tieGrad = tiePolicy
	}
	return adam(start, cfg, nTrain, tieGrad, func(p, g []float64) {
		for i := range samples {
			if !samples[i].Holdout {
				policyLoss(&samples[i], p, cfg.K, g, 1, &buf)
			}
		}
	}, func(p []float64) (float64, float64) {
		tr, _ := PolicyLoss(samples, p, cfg.K, false)
		ho, _ := PolicyLoss(samples, p, cfg.K, true)
		return tr, ho
	})
}

// tiePolicy makes Black's and White's move-order gradients their sum.
func tiePolicy(g []float64) {
	for _, base := range []int{0, 2 * eval.NumCodes} {
		for i := 0; i < eval.NumCodes; i++ {
			a, b := base+i, base+eval.NumCodes+i
			g[a] += g[b]
			g[b] = g[a]
		}
	}
}
