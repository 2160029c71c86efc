// Package train fits the evaluation's weight tables (eval.Weights) to
// self-play positions: a logistic model of the side to move's chance to
// win, whose logit is the evaluation divided by a scale K, fitted by
// full-batch Adam to a blend of each game's result and the search's score
// (Texel tuning), with L2 regularisation towards a starting set of weights
// so that shapes the data never shows keep their starting values.
package train

import (
	"fmt"
	"math"

	"wuzi/eval"
)

// Parameter layout of one family: the Weights tables in file order
// (Weights.Tables).
const (
	offAttack     = 0
	offDefend     = 2 * eval.NumCodes
	offThreat     = 4 * eval.NumCodes
	offAttackLate = offThreat + 2*eval.NumThreatMasks
	offDefendLate = offAttackLate + 2*eval.NumCodes
	// NumParams is the number of weights of one family.
	NumParams = 8*eval.NumCodes + 2*eval.NumThreatMasks
)

// AttackIndex, DefendIndex and ThreatIndex give a table entry's parameter
// index for colour index s (0 Black, 1 White).
func AttackIndex(s, code int) int { return offAttack + s*eval.NumCodes + code }

// DefendIndex is the parameter index of Defend[s][code].
func DefendIndex(s, code int) int { return offDefend + s*eval.NumCodes + code }

// ThreatIndex is the parameter index of Threat[s][mask].
func ThreatIndex(s, mask int) int { return offThreat + s*eval.NumThreatMasks + mask }

// AttackLateIndex is the parameter index of AttackLate[s][code].
func AttackLateIndex(s, code int) int { return offAttackLate + s*eval.NumCodes + code }

// DefendLateIndex is the parameter index of DefendLate[s][code].
func DefendLateIndex(s, code int) int { return offDefendLate + s*eval.NumCodes + code }

// OpeningCellParam reports whether parameter i belongs to the opening's
// cell tables (Attack and Defend), which a fit may keep frozen.
func OpeningCellParam(i int) bool { return i < offThreat }

// ThreatParam reports whether parameter i belongs to the threat table.
func ThreatParam(i int) bool { return i >= offThreat && i < offAttackLate }

// CellClassParam reports whether parameter i is an entry of a cell table
// (attack or defence, opening or late game) for a shape code of class k
// (eval.ShapeClass: 0 a lone stone or less, 1 a two, 2 a closed three, 3 an
// open three, −1 a four or better). A fit may keep every other parameter
// frozen, to see what one class's fitted values do in play.
func CellClassParam(i, k int) bool {
	if i < 0 || i >= NumParams || ThreatParam(i) {
		return false
	}
	if i >= offAttackLate {
		i -= offAttackLate
	}
	return eval.ShapeClass(i%eval.NumCodes) == k
}

// tiedRanges are the parameter ranges of the tables, as (start of
// Black's table, its length): White's follows it.
var tiedRanges = [...][2]int{
	{offAttack, eval.NumCodes}, {offDefend, eval.NumCodes}, {offThreat, eval.NumThreatMasks},
	{offAttackLate, eval.NumCodes}, {offDefendLate, eval.NumCodes},
}

// Params flattens weights into the parameter layout.
func Params(w *eval.Weights) []float64 {
	out := make([]float64, 0, NumParams)
	for _, t := range w.Tables() {
		for _, v := range t {
			out = append(out, float64(v))
		}
	}
	return out
}

// ToWeights rounds parameters into weights of family f, clamped to int16.
func ToWeights(f eval.Family, p []float64) *eval.Weights {
	w := &eval.Weights{Family: f}
	i := 0
	for _, t := range w.Tables() {
		for j := range t {
			t[j] = int16(max(math.MinInt16, min(math.MaxInt16, math.Round(p[i]))))
			i++
		}
	}
	return w
}

// Feature is one parameter's count in a sample's evaluation.
type Feature struct {
	Index int32   // parameter index
	Count float32 // how many times it is added (negative: subtracted)
}

// Sample is one position: its evaluation as a sparse sum of parameters,
// and the target win probability of the side to move.
type Sample struct {
	Features []Feature
	Target   float64
	Holdout  bool // kept out of the fit, to measure it
}

// OnePhase makes s a sample of one table set: its late-game cell
// features are moved onto the opening's tables (the two shares of a cell
// then add up to one), so a fit leaves the late tables untouched; TiePhases
// then copies the opening's tables over them.
func (s *Sample) OnePhase() {
	s.moveFeatures([2]int{offAttackLate, offAttack}, [2]int{offDefendLate, offDefend})
}

// moveFeatures moves the features that read a cell table (both colours'
// entries, from offset m[0]) onto the table at offset m[1], for each m.
func (s *Sample) moveFeatures(moves ...[2]int) {
	for i, f := range s.Features {
		for _, m := range moves {
			if int(f.Index) >= m[0] && int(f.Index) < m[0]+2*eval.NumCodes {
				s.Features[i].Index = f.Index - int32(m[0]) + int32(m[1])
				break
			}
		}
	}
}

// SideSymmetric makes s a sample of side-symmetric cell tables: its
// defence features are moved onto the attack tables of the same colour, so
// that a cell's value for a side is one number whether that side is to
// move or not. The evaluation is then the side to move's sum less the
// opponent's, and only the threat table knows whose move it is (as in
// Rapfi's classical evaluation). TieSides then copies the attack tables
// over the defence tables.
func (s *Sample) SideSymmetric() {
	s.moveFeatures([2]int{offDefend, offAttack}, [2]int{offDefendLate, offAttackLate})
}

// SymmetricStart sets each attack entry of p to the mean of it and its
// defence entry, and the defence tables to the attack tables: the
// side-symmetric tables nearest p.
func SymmetricStart(p []float64) {
	for _, r := range [][2]int{{offAttack, offDefend}, {offAttackLate, offDefendLate}} {
		for i := 0; i < 2*eval.NumCodes; i++ {
			p[r[0]+i] = (p[r[0]+i] + p[r[1]+i]) / 2
		}
	}
	TieSides(p)
}

// TieSides sets the defence tables of p (both phases) to its attack
// tables.
func TieSides(p []float64) {
	copy(p[offDefend:offDefend+2*eval.NumCodes], p[offAttack:offAttack+2*eval.NumCodes])
	copy(p[offDefendLate:offDefendLate+2*eval.NumCodes], p[offAttackLate:offAttackLate+2*eval.NumCodes])
}

// TiePhases sets the late game's cell tables of p to the opening's, which
// makes the evaluation the same at every phase.
func TiePhases(p []float64) {
	copy(p[offAttackLate:offAttackLate+2*eval.NumCodes], p[offAttack:offAttack+2*eval.NumCodes])
	copy(p[offDefendLate:offDefendLate+2*eval.NumCodes], p[offDefend:offDefend+2*eval.NumCodes])
}

// Eval is the model's evaluation of s under parameters p.
func (s *Sample) Eval(p []float64) float64 {
	z := 0.0
	for _, f := range s.Features {
		z += p[f.Index] * float64(f.Count)
	}
	return z
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logLoss is the cross-entropy of predicting q for target y, clamped away
// from infinities.
func logLoss(q, y float64) float64 {
	q = min(1-1e-9, max(1e-9, q))
	return -(y*math.Log(q) + (1-y)*math.Log(1-q))
}

// Loss is the mean log loss of samples (train or holdout ones) under p
// and scale k.
func Loss(samples []Sample, p []float64, k float64, holdout bool) float64 {
	sum, n := 0.0, 0
	for i := range samples {
		s := &samples[i]
		if s.Holdout != holdout {
			continue
		}
		sum += logLoss(sigmoid(s.Eval(p)/k), s.Target)
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// Entropy is the mean entropy of the targets of the train or holdout
// samples: the loss a perfect prediction would have.
func Entropy(samples []Sample, holdout bool) float64 {
	sum, n := 0.0, 0
	for i := range samples {
		if samples[i].Holdout == holdout {
			y := samples[i].Target
			sum += logLoss(y, y)
			n++
		}
	}
	return sum / float64(max(n, 1))
}

// FitScale returns the scale K (between 50 and 5000) under which the
// parameters p predict the training samples best: it fixes the units of
// the evaluation so that fitted weights stay in the search's units.
func FitScale(samples []Sample, p []float64) float64 {
	f := func(x float64) float64 { return Loss(samples, p, math.Exp(x), false) }
	return math.Exp(goldenMin(f, math.Log(50), math.Log(5000)))
}

// goldenMin returns where the unimodal f is least on [lo, hi].
func goldenMin(f func(float64) float64, lo, hi float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for i := 0; i < 40; i++ {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}

// Config sets a fit.
type Config struct {
	K        float64 // scale of the logistic (see FitScale)
	Epochs   int     // full-batch Adam steps
	Rate     float64 // Adam's step size, in evaluation units
	L2       float64 // weight of Σ (p − start)² / NumSamples
	Tied     bool    // Black's and White's tables are one (not renju)
	Frozen   func(i int) bool
	Progress func(epoch int, train, holdout float64)
	// UntieThreat keeps the two colours' threat tables apart even when
	// Tied, so that a colour's own advantage (Black's in freestyle) has a
	// place to go other than the shapes both colours share.
	UntieThreat bool
	// KeepTempo moves a cell's attack and defence entries together, so
	// that their difference (the cell's share of the side to move's
	// tempo) stays at the start's value and only their mean (the cell's
	// shape value) is fitted.
	KeepTempo bool
}

// Fit returns parameters fitted to the training samples from start (which
// is not modified), reporting each epoch's losses to cfg.Progress. It is
// deterministic: the same samples and config give the same result.
func Fit(samples []Sample, start []float64, cfg Config) []float64 {
	nTrain := 0
	for i := range samples {
		if !samples[i].Holdout {
			nTrain++
		}
	}
	return adam(start, cfg, nTrain, cfg.tieValues, func(p, g []float64) {
		valueGrad(samples, p, cfg.K, g)
	}, func(p []float64) (float64, float64) {
		return Loss(samples, p, cfg.K, false), Loss(samples, p, cfg.K, true)
	})
}

// valueGrad adds the gradient of the training samples' summed log loss at
// p (scale k) to g.
func valueGrad(samples []Sample, p []float64, k float64, g []float64) {
	for i := range samples {
		s := &samples[i]
		if s.Holdout {
			continue
		}
		// d(logloss)/dz = (q − y) / K.
		e := (sigmoid(s.Eval(p)/k) - s.Target) / k
		for _, f := range s.Features {
			g[f.Index] += e * float64(f.Count)
		}
	}
}

// adam runs cfg.Epochs steps of full-batch Adam from start over nTrain
// training samples: grad adds the data's summed gradient at p to g, the
// L2 pull towards start is added, tieGrad makes tied parameters'
// gradients equal (the caller builds it from cfg: colours, tempo), and
// losses gives the train and holdout losses for cfg.Progress.
func adam(start []float64, cfg Config, nTrain int, tieGrad func([]float64), grad func(p, g []float64), losses func([]float64) (float64, float64)) []float64 {
	p := append([]float64(nil), start...)
	if nTrain == 0 {
		return p
	}
	n := len(p)
	m, v, g := make([]float64, n), make([]float64, n), make([]float64, n)
	const b1, b2 = 0.9, 0.999
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		clear(g)
		grad(p, g)
		for i := range g {
			g[i] = g[i]/float64(nTrain) + 2*cfg.L2*(p[i]-start[i])/float64(nTrain)
		}
		tieGrad(g)
		c1 := 1 - math.Pow(b1, float64(epoch))
		c2 := 1 - math.Pow(b2, float64(epoch))
		for i := range p {
			if cfg.Frozen != nil && cfg.Frozen(i) {
				continue
			}
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			if v[i] == 0 {
				continue
			}
			p[i] -= cfg.Rate * (m[i] / c1) / (math.Sqrt(v[i]/c2) + 1e-12)
		}
		if cfg.Progress != nil {
			tr, ho := losses(p)
			cfg.Progress(epoch, tr, ho)
		}
	}
	return p
}

// tieValues ties the value tables' gradients as cfg asks (see tie and
// tieTempo).
func (cfg Config) tieValues(g []float64) {
	if cfg.Tied {
		tie(g, cfg.UntieThreat)
	}
	if cfg.KeepTempo {
		tieTempo(g)
	}
}

// tieTempo makes each cell's attack and defence gradients (per colour and
// phase) their sum, so that Adam moves the two entries by the same step
// and their difference keeps its start value.
func tieTempo(g []float64) {
	for _, r := range [][2]int{{offAttack, offDefend}, {offAttackLate, offDefendLate}} {
		for i := 0; i < 2*eval.NumCodes; i++ {
			a, d := r[0]+i, r[1]+i
			g[a] += g[d]
			g[d] = g[a]
		}
	}
}

// tie makes Black's and White's gradients of each table their sum, so
// that tied tables (equal at the start) stay equal; with untieThreat the
// threat tables' gradients are left apart.
func tie(g []float64, untieThreat bool) {
	for _, r := range tiedRanges {
		if untieThreat && r[0] == offThreat {
			continue
		}
		for i := 0; i < r[1]; i++ {
			a, b := r[0]+i, r[0]+r[1]+i
			g[a] += g[b]
			g[b] = g[a]
		}
	}
}

// CheckTied reports an error if Black's and White's tables differ.
func CheckTied(p []float64) error {
	for _, r := range tiedRanges {
		for i := 0; i < r[1]; i++ {
			if p[r[0]+i] != p[r[0]+r[1]+i] {
				return fmt.Errorf("tables differ at %d", r[0]+i)
			}
		}
	}
	return nil
}
