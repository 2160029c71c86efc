package train

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"wuzi/eval"
	"wuzi/search"
	"wuzi/selfplay"
)

// Position is a training position: its sample (features of its family's
// parameters) and what its target is made of.
type Position struct {
	Family eval.Family
	Game   int // the game's number in its file
	Sample
	Result float64 // the game's result for the side to move: 1, ½ or 0
	Score  int     // the search's score, side to move's view
	// ScoreOnly marks a position no game reached (wuzi-train perturb): its
	// Result means nothing, its target is its score alone, and it takes no
	// part in fitting the scales to the results.
	ScoreOnly bool
	// Policy is the search's move choice among the candidates, when
	// HasPolicy (see PolicyFeatures).
	Policy    PolicySample
	HasPolicy bool
	// Rank is the search's move choice among the positions after a draw
	// of the candidates, when HasRank (see RankFeatures and
	// ReadOptions.RankKids).
	Rank    RankSample
	HasRank bool
}

// Features returns the sample features of the position on b, from the
// side to move's view, and false when the static evaluation would never
// be asked of it (the side to move has a five or an open four, or the
// opponent a five: the search decides those itself).
func Features(b *eval.Board, scratch *Scratch) ([]Feature, bool) {
	us := b.SideToMove()
	them := us.Opp()
	if b.ComboCount(us, eval.ComboFive) > 0 || b.ComboCount(us, eval.ComboFlexFour) > 0 || b.ComboCount(them, eval.ComboFive) > 0 {
		return nil, false
	}
	s, o := int(us)-1, int(them)-1
	// The opening's tables count 1 − φ, the late game's φ (eval.Phase).
	late := float32(eval.Phase(b.Stones())) / eval.PhaseScale
	for _, p := range b.Cells() {
		if !b.IsEmpty(p) {
			continue
		}
		a, d := b.CellCode(p, us), b.CellCode(p, them)
		if late < 1 {
			scratch.add(AttackIndex(s, a), 1-late)
			scratch.add(DefendIndex(o, d), late-1)
		}
		if late > 0 {
			scratch.add(AttackLateIndex(s, a), late)
			scratch.add(DefendLateIndex(o, d), -late)
		}
	}
	scratch.add(ThreatIndex(s, b.ThreatMask()), 1)
	return scratch.take(), true
}

// Scratch accumulates one sample's features without a map.
type Scratch struct {
	count   []float32
	touched []int32
}

func (sc *Scratch) add(i int, c float32) {
	if sc.count == nil {
		sc.count = make([]float32, NumParams)
	}
	if sc.count[i] == 0 {
		sc.touched = append(sc.touched, int32(i))
	}
	sc.count[i] += c
}

func (sc *Scratch) take() []Feature {
	out := make([]Feature, 0, len(sc.touched))
	for _, i := range sc.touched {
		if c := sc.count[i]; c != 0 {
			out = append(out, Feature{Index: i, Count: c})
		}
		sc.count[i] = 0
	}
	sc.touched = sc.touched[:0]
	return out
}

// ReadStats counts what ReadPositions read.
type ReadStats struct {
	Lines, Bad, Decided int
}

// ReadOptions says what ReadPositions keeps and how it splits.
type ReadOptions struct {
	File       int    // the file's number among the inputs
	Seed       uint64 // seed of the holdout split and of the rank samples' draws
	HoldoutPct int    // percent of games held out
	// Keep says which families' positions are kept.
	Keep func(eval.Family) bool
	// RankKids, when above 1, also makes each position's rank sample with
	// up to this many children (RankFeatures).
	RankKids int
	// RankTop draws a rank sample's other children among the move order's
	// best instead of at random.
	RankTop bool
}

// ReadPositions reads a self-play file (selfplay's line format), keeping
// the positions of the families opt.Keep accepts. A game goes to the
// holdout set when a hash of the seed, the file's number and the game's
// number falls in the holdout share, so that no game is split between the
// two sets.
func ReadPositions(r io.Reader, opt ReadOptions, out []Position, st *ReadStats) ([]Position, error) {
	file, seed, holdoutPct, keep := opt.File, opt.Seed, opt.HoldoutPct, opt.Keep
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	boards := map[[2]int]*eval.Board{}
	var scratch Scratch
	for sc.Scan() {
		st.Lines++
		pos, err := selfplay.ParseLine(sc.Text())
		if err != nil {
			st.Bad++
			continue
		}
		fam := eval.FamilyOf(pos.Rule)
		if !keep(fam) {
			continue
		}
		bk := [2]int{int(pos.Rule), pos.Size}
		b := boards[bk]
		if b == nil {
			if b, err = eval.NewBoard(pos.Size, pos.Size, pos.Rule); err != nil {
				st.Bad++
				continue
			}
			boards[bk] = b
		}
		if err := Replay(b, pos); err != nil {
			st.Bad++
			continue
		}
		feats, ok := Features(b, &scratch)
		if !ok {
			st.Decided++
			continue
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%d/%d", seed, file, pos.Game)
		hold := int(h.Sum64()%100) < holdoutPct
		best := b.Pos(pos.Best.X, pos.Best.Y)
		pol, hasPol := PolicyFeatures(b, best)
		pol.Holdout = hold
		var rank RankSample
		hasRank := false
		if opt.RankKids > 1 {
			// Each position draws its children from its own stream, so
			// that a sample does not depend on the positions read before.
			var rng *rand.Rand
			if !opt.RankTop {
				rng = rand.New(rand.NewPCG(seed^h.Sum64(), uint64(len(pos.Moves))))
			}
			rank, hasRank = RankFeatures(b, best, opt.RankKids, rng, &scratch)
			rank.Holdout = hold
		}
		out = append(out, Position{
			Family:    fam,
			Game:      pos.Game,
			Sample:    Sample{Features: feats, Holdout: hold},
			Result:    (float64(pos.Result) + 1) / 2,
			Score:     pos.Score,
			Policy:    pol,
			HasPolicy: hasPol,
			Rank:      rank,
			HasRank:   hasRank,
		})
	}
	return out, sc.Err()
}

// Replay sets b to the position's stones (trusting the file's legality,
// which selfplay.Position.Replay checks when it writes them, except that a
// stone on an occupied cell is an error).
func Replay(b *eval.Board, pos selfplay.Position) error {
	b.Clear()
	for _, m := range pos.Moves {
		p := b.Pos(m.X, m.Y)
		if !b.IsEmpty(p) {
			return fmt.Errorf("move %v on an occupied cell", m)
		}
		b.Play(p)
	}
	return nil
}

// FitScoreScale returns the scale S (between 10 and 20000) under which
// sigmoid(score/S) predicts the games' results best, over the positions
// whose score is not a proven result: it turns the labelling search's
// scores, whatever its units, into win probabilities.
func FitScoreScale(ps []Position) float64 {
	f := func(x float64) float64 {
		s := math.Exp(x)
		sum := 0.0
		for i := range ps {
			if !search.IsMate(ps[i].Score) && !ps[i].ScoreOnly {
				sum += logLoss(sigmoid(float64(ps[i].Score)/s), ps[i].Result)
			}
		}
		return sum
	}
	return math.Exp(goldenMin(f, math.Log(10), math.Log(20000)))
}

// SetTargets sets each position's target: lambda times its game's result
// plus (1 − lambda) times the win probability its search score gives
// under scale k (a proven win or loss counts as 1 or 0); a ScoreOnly
// position's target is its score's alone.
func SetTargets(ps []Position, lambda, k float64) {
	for i := range ps {
		p := &ps[i]
		var s float64
		switch {
		case search.IsMate(p.Score) && p.Score > 0:
			s = 1
		case search.IsMate(p.Score):
			s = 0
		default:
			s = sigmoid(float64(p.Score) / k)
		}
		if p.ScoreOnly {
			p.Target = s
		} else {
			p.Target = lambda*p.Result + (1-lambda)*s
		}
		if math.IsNaN(p.Target) {
			p.Target = 0.5
		}
	}
}

// WeightProven returns ps with each position whose score is a proven win
// or loss counted w times: left out when w is 0, repeated when w > 1
// (the full-batch fit then weighs it w times), kept once when w is 1. The
// other positions keep their order; the repeats follow them.
func WeightProven(ps []Position, w int) []Position {
	if w == 0 {
		return slices.DeleteFunc(ps, func(p Position) bool { return search.IsMate(p.Score) })
	}
	for i, n := 0, len(ps); i < n; i++ {
		if search.IsMate(ps[i].Score) {
			for j := 1; j < w; j++ {
				ps = append(ps, ps[i])
			}
		}
	}
	return ps
}
