package train

import (
	"math"
	"math/rand"
	"sort"
)

// OrderConfig sets FitOrder's mini-batch Adam.
type OrderConfig struct {
	Epochs int     // passes over the training samples
	Rate   float64 // Adam step size, in the fit's own units (logits)
	Batch  int     // samples a step
	Seed   int64   // seed of the order the samples are visited in
	// Tied keeps the colours' tables equal (every family but renju,
	// whose rules differ by colour).
	Tied bool
	// Progress, when set, is called after each pass with the share of
	// training and held-out samples whose chosen move the fit orders
	// first.
	Progress func(epoch int, trainTop1, holdTop1 float64)
}

// FitOrder fits the move-ordering tables (PolicyParams' layout) from zero
// to the training samples' choices: the softmax cross-entropy of each
// position's chosen move among its candidates, by mini-batch Adam. The
// full-batch fit (FitPolicy) moves the tables little from where they
// start: on the freestyle sets of data/ it ranked the labelling search's
// move first in 34 % of held-out positions, this fit in 39 %
// (docs/evidence.md, 60th session). The result is in logits; map it onto
// the search's scale with MatchOrderScale. It is deterministic.
func FitOrder(samples []PolicySample, cfg OrderConfig) []float64 {
	const b1, b2 = 0.9, 0.999
	n := NumPolicyParams
	p := make([]float64, n)
	m, v, g := make([]float64, n), make([]float64, n), make([]float64, n)
	rng := rand.New(rand.NewSource(cfg.Seed))
	order := rng.Perm(len(samples))
	batch := max(cfg.Batch, 1)
	step := 0
	buf := make([]float64, 0, 512)
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		cnt := 0
		for _, k := range order {
			s := &samples[k]
			if s.Holdout {
				continue
			}
			policyLoss(s, p, 1, g, 1, &buf)
			cnt++
			if cnt%batch != 0 {
				continue
			}
			if cfg.Tied {
				tiePolicy(g)
			}
			step++
			c1 := 1 - math.Pow(b1, float64(step))
			c2 := 1 - math.Pow(b2, float64(step))
			for i := range p {
				gi := g[i] / float64(batch)
				m[i] = b1*m[i] + (1-b1)*gi
				v[i] = b2*v[i] + (1-b2)*gi*gi
				p[i] -= cfg.Rate * (m[i] / c1) / (math.Sqrt(v[i]/c2) + 1e-8)
				g[i] = 0
			}
		}
		if cfg.Progress != nil {
			_, tr := PolicyLoss(samples, p, 1, false)
			_, ho := PolicyLoss(samples, p, 1, true)
			cfg.Progress(epoch, tr, ho)
		}
	}
	return p
}

// MatchOrderScale maps fitted move-ordering parameters p onto the scale of
// start: every candidate's value a·v + c, with a and c chosen so that over
// the training samples' candidates the same shares fall below hi and
// below lo (hi > lo) as under start (c is split evenly between a cell's
// attack and defence entries). The search reduces moves by their value
// against two such thresholds (search.Params.PolicyReduce1 and 2), so the
// mapping keeps how many moves each reduction takes.
func MatchOrderScale(samples []PolicySample, p, start []float64, hi, lo float64) []float64 {
	var sv, pv []float64
	for i := range samples {
		if samples[i].Holdout {
			continue
		}
		for _, c := range samples[i].Cands {
			sv = append(sv, start[c[0]]+start[c[1]])
			pv = append(pv, p[c[0]]+p[c[1]])
		}
	}
	out := make([]float64, len(p))
	if len(sv) == 0 {
		copy(out, start)
		return out
	}
	sort.Float64s(sv)
	sort.Float64s(pv)
	share := func(t float64) float64 { return float64(sort.SearchFloat64s(sv, t)) / float64(len(sv)) }
	at := func(f float64) float64 { return pv[min(len(pv)-1, int(f*float64(len(pv))))] }
	qHi, qLo := at(share(hi)), at(share(lo))
	a := 1.0
	if qHi > qLo {
		a = (hi - lo) / (qHi - qLo)
	}
	c := hi - a*qHi
	for i := range p {
		out[i] = a*p[i] + c/2
	}
	return out
}
