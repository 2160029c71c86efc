package elo

import "math"

// Paired compares two builds that played the same openings against the
// same opponent. Each opening, played with both colours, gives one
// difference of points; the error comes from the spread of those
// differences. An opening that decides most games whoever plays it then
// cancels out, which a comparison of two separate match scores cannot do.
type Paired struct {
	Openings  int     // openings counted
	Score     float64 // the new build's mean points per game
	BaseScore float64 // the baseline's
	// Diff is Score − BaseScore, and DiffMargin the half-width of its 95%
	// confidence interval (0 with fewer than two openings).
	Diff, DiffMargin float64
	// Unpaired is the half-width the same games would give if the two
	// scores were taken as independent, for comparison.
	Unpaired float64
}

// ComparePaired takes, per opening, the new build's and the baseline's
// mean points per game (each in [0, 1]); both slices have one entry per
// opening, in the same order.
func ComparePaired(newPts, basePts []float64) Paired {
	n := min(len(newPts), len(basePts))
	p := Paired{Openings: n}
	if n == 0 {
		return p
	}
	var sn, sb float64
	for i := 0; i < n; i++ {
		sn += newPts[i]
		sb += basePts[i]
	}
	p.Score, p.BaseScore = sn/float64(n), sb/float64(n)
	p.Diff = p.Score - p.BaseScore
	if n < 2 {
		return p
	}
	var vd, vn, vb float64
	for i := 0; i < n; i++ {
		d := newPts[i] - basePts[i] - p.Diff
		vd += d * d
		vn += (newPts[i] - p.Score) * (newPts[i] - p.Score)
		vb += (basePts[i] - p.BaseScore) * (basePts[i] - p.BaseScore)
	}
	k := float64(n) * float64(n-1) // sample variance of the mean
	p.DiffMargin = z95 * math.Sqrt(vd/k)
	p.Unpaired = z95 * math.Sqrt((vn+vb)/k)
	return p
}

// Elo is the Elo difference between the builds that the two scores imply
// against the common opponent: FromScore(Score) − FromScore(BaseScore).
func (p Paired) Elo() float64 { return FromScore(p.Score) - FromScore(p.BaseScore) }

// EloMargin is DiffMargin in Elo, through the slope of the logistic curve
// at the mean of the two scores. It is +Inf when that score is 0 or 1,
// where a score says nothing about Elo.
func (p Paired) EloMargin() float64 { return p.DiffMargin * slope((p.Score+p.BaseScore)/2) }

// UnpairedElo is Unpaired in Elo, the same way.
func (p Paired) UnpairedElo() float64 { return p.Unpaired * slope((p.Score+p.BaseScore)/2) }

// slope is dElo/dscore at score s.
func slope(s float64) float64 {
	if s <= 0 || s >= 1 {
		return math.Inf(1)
	}
	return 400 / math.Ln10 / (s * (1 - s))
}
