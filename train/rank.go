package train

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"wuzi/eval"
)

// RankSample is one position's move choice seen through the evaluation:
// for each of a draw of the side to move's candidate moves, the features
// of the position after it (from the opponent's view, as the search asks
// Evaluate of a child), and which of them the labelling search chose. It
// asks the evaluation to rank sibling positions as the search compares
// them, where a Sample asks it to predict one position's outcome.
type RankSample struct {
	Kids    [][]Feature
	Best    int
	Holdout bool
}

// RankFeatures makes the rank sample of the position on b: the chosen move
// best first, then up to maxKids−1 other candidates (empty cells within
// two of a stone through which a five is still possible, no renju foul,
// no four) drawn by rng, or the move order's best when rng is nil, each
// with the features of the position after it.
// It returns false where the search does not choose among children by
// their evaluation: a five or an open four on the board or to make, an
// open-four threat to answer, or best a four (the search follows a four
// by its forced reply) or not a candidate.
func RankFeatures(b *eval.Board, best eval.Pos, maxKids int, rng *rand.Rand, sc *Scratch) (RankSample, bool) {
	us := b.SideToMove()
	them := us.Opp()
	if b.ComboCount(them, eval.ComboFlexFour) > 0 || b.ComboCount(them, eval.ComboFive) > 0 ||
		b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(us, eval.ComboFlexFour) > 0 {
		return RankSample{}, false
	}
	renjuBlack := b.Rule() == eval.Renju && us == eval.Black
	quiet := func(p eval.Pos) bool { return candidate(b, p, us, renjuBlack) && b.Combo(p, us) < eval.ComboFour }
	if !quiet(best) {
		return RankSample{}, false
	}
	var others []eval.Pos
	for _, p := range b.Cells() {
		if p != best && quiet(p) {
			others = append(others, p)
		}
	}
	if rng != nil {
		rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	} else {
		// The move order's best first: the siblings the search weighs.
		slices.SortStableFunc(others, func(a, c eval.Pos) int { return cmp.Compare(b.Policy(c, us), b.Policy(a, us)) })
	}
	var rs RankSample
	for i := -1; i < len(others) && len(rs.Kids) < maxKids; i++ {
		p := best
		if i >= 0 {
			p = others[i]
		}
		b.Play(p)
		f, ok := Features(b, sc)
		b.Undo()
		if !ok {
			if p == best {
				return RankSample{}, false
			}
			continue
		}
		rs.Kids = append(rs.Kids, f)
	}
	if len(rs.Kids) < 2 {
		return RankSample{}, false
	}
	return rs, true
}

// OnePhase makes each child's features those of one table set (see
// Sample.OnePhase).
func (r *RankSample) OnePhase() {
	for _, f := range r.Kids {
		s := Sample{Features: f}
		s.OnePhase()
	}
}

// SideSymmetric makes each child's features those of side-symmetric cell
// tables (see Sample.SideSymmetric).
func (r *RankSample) SideSymmetric() {
	for _, f := range r.Kids {
		s := Sample{Features: f}
		s.SideSymmetric()
	}
}

// KidScores sets out[j] to the value of child j under p from the side to
// move's view (the negation of the child's own evaluation).
func (r *RankSample) KidScores(p []float64, out []float64) {
	for j, f := range r.Kids {
		z := 0.0
		for _, x := range f {
			z += p[x.Index] * float64(x.Count)
		}
		out[j] = -z
	}
}

// softmax turns v into the probabilities of a softmax at temperature t, in
// place.
func softmax(v []float64, t float64) {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = max(mx, x)
	}
	sum := 0.0
	for j, x := range v {
		v[j] = math.Exp((x - mx) / t)
		sum += v[j]
	}
	for j := range v {
		v[j] /= sum
	}
}

// RankLoss is, over the train or holdout rank samples, the mean
// cross-entropy of a softmax over the children's values at temperature t
// against the chosen move, the share of samples whose chosen child has the
// best value, and the mean number of children valued above it.
func RankLoss(rs []RankSample, p []float64, t float64, holdout bool) (loss, top1, meanRank float64) {
	var buf []float64
	n := 0
	for i := range rs {
		r := &rs[i]
		if r.Holdout != holdout {
			continue
		}
		buf = slices.Grow(buf[:0], len(r.Kids))[:len(r.Kids)]
		r.KidScores(p, buf)
		rank := 0
		for j, v := range buf {
			if j != r.Best && v > buf[r.Best] {
				rank++
			}
		}
		if rank == 0 {
			top1++
		}
		meanRank += float64(rank)
		softmax(buf, t)
		loss -= math.Log(max(buf[r.Best], 1e-300))
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return loss / float64(n), top1 / float64(n), meanRank / float64(n)
}

// FitRankTemperature returns the temperature (between 20 and 20000) under
// which the children's values under p predict the training samples'
// chosen moves best: the rank loss's scale, which the fit keeps fitted so
// that it cannot lower the loss by scaling the evaluation up.
func FitRankTemperature(rs []RankSample, p []float64) float64 {
	f := func(x float64) float64 {
		l, _, _ := RankLoss(rs, p, math.Exp(x), false)
		return l
	}
	return math.Exp(goldenMin(f, math.Log(20), math.Log(20000)))
}

// rankRefit is how many epochs FitWithRank keeps a temperature before it
// fits it again.
const rankRefit = 25

// FitWithRank is Fit with the rank loss of rs added: rankWeight 1 gives
// the training rank samples together the weight of the training value
// samples together, 0 makes it Fit. The rank loss's temperature is fitted
// to the start and again every rankRefit epochs. cfg.Progress also gets
// each epoch's losses; rankProgress, when not nil, gets the epoch, the
// parameters and the temperature after each epoch's step.
func FitWithRank(samples []Sample, rs []RankSample, start []float64, cfg Config, rankWeight float64, rankProgress func(epoch int, p []float64, t float64)) []float64 {
	nTrain, nRank := 0, 0
	for i := range samples {
		if !samples[i].Holdout {
			nTrain++
		}
	}
	for i := range rs {
		if !rs[i].Holdout {
			nRank++
		}
	}
	if rankWeight <= 0 || nRank == 0 {
		return Fit(samples, start, cfg)
	}
	w := rankWeight * float64(nTrain) / float64(nRank)
	t := FitRankTemperature(rs, start)
	epoch := 0
	var buf []float64
	p := adam(start, cfg, nTrain, cfg.tieValues, func(p, g []float64) {
		if epoch > 0 && epoch%rankRefit == 0 {
			t = FitRankTemperature(rs, p)
		}
		epoch++
		valueGrad(samples, p, cfg.K, g)
		for i := range rs {
			r := &rs[i]
			if r.Holdout {
				continue
			}
			buf = slices.Grow(buf[:0], len(r.Kids))[:len(r.Kids)]
			r.KidScores(p, buf)
			softmax(buf, t)
			for j, f := range r.Kids {
				d := buf[j]
				if j == r.Best {
					d--
				}
				// value_j = −Σ p·f and dL/dvalue_j = d/t.
				e := -w * d / t
				for _, x := range f {
					g[x.Index] += e * float64(x.Count)
				}
			}
		}
	}, func(p []float64) (float64, float64) {
		if rankProgress != nil {
			rankProgress(epoch, p, t)
		}
		return Loss(samples, p, cfg.K, false), Loss(samples, p, cfg.K, true)
	})
	return p
}
