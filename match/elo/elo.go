// Package elo turns match results into numbers: the score, the Elo
// difference it implies under the logistic model, a 95% error margin, and the
// log-likelihood ratio of a sequential probability ratio test (SPRT).
//
// Everything here is a pure function of the win, loss and draw counts; the
// package holds no state.
package elo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Result counts the games of one side of a pairing.
type Result struct {
	Wins, Losses, Draws int
}

// Games is the number of games counted.
func (r Result) Games() int { return r.Wins + r.Losses + r.Draws }

// Score is the mean points per game (win 1, draw ½, loss 0); 0.5 when no
// game has been played.
func (r Result) Score() float64 {
	n := r.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(r.Wins) + 0.5*float64(r.Draws)) / float64(n)
}

// variance is the per-game variance of the points scored.
func (r Result) variance() float64 {
	n := float64(r.Games())
	if n == 0 {
		return 0
	}
	m := r.Score()
	w, l, d := float64(r.Wins)/n, float64(r.Losses)/n, float64(r.Draws)/n
	return w*(1-m)*(1-m) + l*m*m + d*(0.5-m)*(0.5-m)
}

// FromScore is the Elo difference that makes the expected score s:
// -400·log10(1/s - 1). It is ±Inf at s = 1 and s = 0.
func FromScore(s float64) float64 {
	if s <= 0 {
		return math.Inf(-1)
	}
	if s >= 1 {
		return math.Inf(1)
	}
	if s == 0.5 {
		return 0 // not -0
	}
	return -400 * math.Log10(1/s-1)
}

// ToScore is the expected score of a side that is e Elo stronger.
func ToScore(e float64) float64 {
	return 1 / (1 + math.Pow(10, -e/400))
}

// Diff is the Elo difference the score implies.
func (r Result) Diff() float64 { return FromScore(r.Score()) }

// Margin is the half-width of the 95% confidence interval of Diff: the score
// ± 1.96 standard errors (from the observed per-game variance) mapped to Elo,
// halved. It is +Inf when the interval reaches a score of 0 or 1, and 0 with
// no games.
func (r Result) Margin() float64 {
	n := r.Games()
	if n == 0 {
		return 0
	}
	se := math.Sqrt(r.variance() / float64(n))
	m := r.Score()
	lo, hi := FromScore(m-z95*se), FromScore(m+z95*se)
	return (hi - lo) / 2
}

// SPRT describes a sequential probability ratio test between the hypotheses
// H0: the Elo difference is Elo0 and H1: it is Elo1, with false-positive
// rate Alpha and false-negative rate Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0,elo1" or "elo0,elo1,alpha,beta" (alpha and beta
// default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return SPRT{}, fmt.Errorf("sprt %q: %v", s, err)
		}
		v[i] = f
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: 0.05, Beta: 0.05}
	if len(v) == 4 {
		t.Alpha, t.Beta = v[2], v[3]
	}
	if t.Elo1 <= t.Elo0 {
		return SPRT{}, fmt.Errorf("sprt %q: elo1 must be above elo0", s)
	}
	if t.Alpha <= 0 || t.Alpha >= 1 || t.Beta <= 0 || t.Beta >= 1 {
		return SPRT{}, fmt.Errorf("sprt %q: alpha and beta must lie in (0,1)", s)
	}
	return t, nil
}

// Bounds are the LLR values at which the test stops: it accepts H0 at or
// below lower = ln(β/(1-α)) and H1 at or above upper = ln((1-β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 against H0 for the result, in the
// normal approximation of the generalized SPRT: with n games, mean score m,
// per-game variance v and the expected scores s0, s1 of Elo0 and Elo1,
//
//	LLR = n·(s1-s0)·(2m-s0-s1) / (2v).
//
// It is 0 until both a win or draw and a loss or draw give the variance a
// meaning.
func (t SPRT) LLR(r Result) float64 {
	v := r.variance()
	if r.Games() == 0 || v == 0 {
		return 0
	}
	s0, s1 := ToScore(t.Elo0), ToScore(t.Elo1)
	return float64(r.Games()) * (s1 - s0) * (2*r.Score() - s0 - s1) / (2 * v)
}

// Decision is the state of an SPRT.
type Decision int

// The outcomes of an SPRT.
const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // LLR at or below the lower bound: not Elo1 better
	AcceptH1                 // LLR at or above the upper bound: Elo1 better
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Decide compares the LLR of r with the bounds.
func (t SPRT) Decide(r Result) Decision {
	llr := t.LLR(r)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
