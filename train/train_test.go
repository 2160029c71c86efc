package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"wuzi/eval"
	"wuzi/search"
	"wuzi/selfplay"
)

// synthetic returns n samples whose targets a known parameter vector
// gives exactly under scale k: each sample adds a few of the first nUsed
// parameters with small counts.
func synthetic(n, nUsed int, k float64, seed uint64) ([]Sample, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	truth := make([]float64, NumParams)
	for i := 0; i < nUsed; i++ {
		truth[i] = float64(r.IntN(201) - 100)
	}
	samples := make([]Sample, n)
	for j := range samples {
		var sc Scratch
		for f := 0; f < 8; f++ {
			sc.add(r.IntN(nUsed), float32(r.IntN(7)-3))
		}
		s := Sample{Features: sc.take(), Holdout: j%10 == 0}
		s.Target = sigmoid(s.Eval(truth) / k)
		samples[j] = s
	}
	return samples, truth
}

// TestFitRecoversWeights: from a zero start, the fit finds the weights
// that generated the data, and the holdout loss falls to near the targets'
// own entropy.
func TestFitRecoversWeights(t *testing.T) {
	const k = 200
	samples, truth := synthetic(20000, 40, k, 3)
	start := make([]float64, NumParams)
	var last float64
	p := Fit(samples, start, Config{K: k, Epochs: 500, Rate: 2, Progress: func(_ int, _, ho float64) { last = ho }})
	worst := 0.0
	for i := 0; i < 40; i++ {
		worst = max(worst, math.Abs(p[i]-truth[i]))
	}
	if worst > 3 {
		t.Errorf("recovered weights off by up to %.1f", worst)
	}
	if floor := Entropy(samples, true); last-floor > 1e-3 {
		t.Errorf("holdout loss %.5f, the targets' entropy %.5f", last, floor)
	}
	for i := 40; i < NumParams; i++ {
		if p[i] != 0 {
			t.Fatalf("unused parameter %d moved to %v", i, p[i])
		}
	}
}

// TestFitScale: the scale that fits best is the one the data came from.
func TestFitScale(t *testing.T) {
	samples, truth := synthetic(5000, 40, 300, 4)
	if k := FitScale(samples, truth); math.Abs(k-300) > 3 {
		t.Fatalf("FitScale = %.1f, want 300", k)
	}
}

// TestFitDeterministicAndRegularised: the same data gives the same fit;
// a strong L2 pull keeps the weights near their start; tied tables stay
// tied.
func TestFitDeterministicAndRegularised(t *testing.T) {
	samples, _ := synthetic(3000, 40, 200, 5)
	start := Params(eval.PriorWeights(eval.FamilyFreestyle))
	cfg := Config{K: 200, Epochs: 60, Rate: 2, Tied: true}
	a, b := Fit(samples, start, cfg), Fit(samples, start, cfg)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two fits differ at %d: %v %v", i, a[i], b[i])
		}
	}
	if err := CheckTied(a); err != nil {
		t.Fatal(err)
	}
	cfg.L2 = 1e9
	c := Fit(samples, start, cfg)
	moved, pulled := 0.0, 0.0
	for i := range a {
		moved = max(moved, math.Abs(a[i]-start[i]))
		pulled = max(pulled, math.Abs(c[i]-start[i]))
	}
	if moved < 20 || pulled > moved/4 {
		t.Fatalf("free fit moved %.1f, regularised fit %.1f", moved, pulled)
	}
}

// TestFeaturesMatchBoard: on real self-play positions, a sample's value
// under the parameters of a weights set is the board's own Evaluate with
// those weights (here the embedded ones), so the trainer fits what the
// engine computes.
func TestFeaturesMatchBoard(t *testing.T) {
	var buf bytes.Buffer
	cfg := selfplay.Config{Games: 8, Seed: 9, Nodes: 200, HashMB: 1, Jobs: 1, Rules: []eval.Rule{eval.Freestyle, eval.Renju, eval.Standard, eval.CaroFree},
		RandomPlies: selfplay.DefaultRandomPlies, RandomBest: selfplay.DefaultRandomBest, RandomMargin: selfplay.DefaultRandomMargin}
	if _, err := selfplay.Run(context.Background(), cfg, &buf); err != nil {
		t.Fatal(err)
	}
	var st ReadStats
	ps, err := ReadPositions(bytes.NewReader(buf.Bytes()), ReadOptions{Seed: 1, HoldoutPct: 30, Keep: func(eval.Family) bool { return true }, RankKids: 12}, nil, &st)
	if err != nil || st.Bad > 0 || len(ps) < 50 {
		t.Fatalf("read %d positions, %d bad, err %v", len(ps), st.Bad, err)
	}
	params := map[eval.Family][]float64{}
	for f := eval.Family(0); f < eval.NumFamilies; f++ {
		w, err := eval.EmbeddedWeights(f)
		if err != nil {
			t.Fatal(err)
		}
		params[f] = Params(w)
	}
	// Random weights, every table its own (Black's unlike White's, the
	// late game's unlike the opening's), within the range real ones use.
	rw := &eval.Weights{}
	r := rand.New(rand.NewPCG(11, 12))
	for _, tab := range rw.Tables() {
		for i := range tab {
			tab[i] = int16(r.IntN(2001) - 1000)
		}
	}
	rp := Params(rw)
	rb, _ := eval.NewBoard(15, 15, eval.Freestyle)
	rb.SetWeights(rw)
	// Replay each line again to compare with the board.
	checked, ranked := 0, 0
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		pos, err := selfplay.ParseLine(string(line))
		if err != nil {
			t.Fatal(err)
		}
		b, err := pos.Replay()
		if err != nil {
			t.Fatal(err)
		}
		var sc Scratch
		feats, ok := Features(b, &sc)
		if !ok {
			continue
		}
		s := Sample{Features: feats}
		// The board rounds the phase blend down; the sample keeps it
		// exact (both sides are exact in floating point).
		if got, want := math.Floor(s.Eval(params[eval.FamilyOf(pos.Rule)])), float64(b.Evaluate()); got != want {
			t.Fatalf("%s: sample value %v, board Evaluate %v", line, got, want)
		}
		// And with weights whose late game's tables differ from the
		// opening's, on a board replaying the same moves.
		if rb.Width() != b.Width() || rb.Rule() != b.Rule() {
			rb, _ = eval.NewBoard(b.Width(), b.Height(), b.Rule())
			rb.SetWeights(rw)
		}
		rb.Clear()
		for i := 0; i < b.Ply(); i++ {
			p, c := b.MoveAt(i)
			rb.PlayColor(p, c)
		}
		rb.SetSideToMove(b.SideToMove())
		if got, want := math.Floor(s.Eval(rp)), float64(rb.Evaluate()); got != want {
			t.Fatalf("%s: sample value %v, board Evaluate %v under random weights", line, got, want)
		}
		// The rank sample's first child is the position after the chosen
		// move, valued as the board values it.
		if i := slices.IndexFunc(ps, func(q Position) bool {
			return q.Game == pos.Game && q.Score == pos.Score && slices.Equal(q.Features, feats)
		}); i >= 0 && ps[i].HasRank {
			r := ps[i].Rank
			v := make([]float64, len(r.Kids))
			r.KidScores(params[eval.FamilyOf(pos.Rule)], v)
			b.Play(b.Pos(pos.Best.X, pos.Best.Y))
			got, want := math.Floor(-v[0]), float64(b.Evaluate())
			b.Undo()
			if r.Best != 0 || got != want || len(r.Kids) < 2 || len(r.Kids) > 12 {
				t.Fatalf("%s: rank sample of %d children, best %d valued %v, board Evaluate %v", line, len(r.Kids), r.Best, got, want)
			}
			ranked++
		}
		// The move-ordering candidates and their values are the board's.
		w, _ := eval.EmbeddedWeights(eval.FamilyOf(pos.Rule))
		q := PolicyParams(w)
		ps, ok := PolicyFeatures(b, b.Pos(pos.Best.X, pos.Best.Y))
		if !ok {
			continue
		}
		var got, want []float64
		for _, c := range ps.Cands {
			got = append(got, q[c[0]]+q[c[1]])
		}
		us := b.SideToMove()
		for _, p := range b.Cells() {
			if b.IsEmpty(p) && b.Near(p) && b.Alive(p) && !(pos.Rule == eval.Renju && us == eval.Black && b.IsForbidden(p)) &&
				(b.ComboCount(us.Opp(), eval.ComboFlexFour) == 0 || b.Combo(p, us) >= eval.ComboFour || b.Combo(p, us.Opp()) >= eval.ComboFour || onThreatLine(b, p, us.Opp())) {
				want = append(want, float64(b.Policy(p, us)))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: candidate values %v, board's %v", line, got, want)
		}
		checked++
	}
	if checked < 20 || ranked < 20 {
		t.Fatalf("only %d positions had their move order checked, %d their rank sample", checked, ranked)
	}
	// No game is split between the training and holdout sets.
	byGame := map[int]int{}
	for _, p := range ps {
		v := 1
		if p.Holdout {
			v = 2
		}
		byGame[p.Game] |= v
	}
	for g, v := range byGame {
		if v == 3 {
			t.Fatalf("game %d is split between the sets", g)
		}
	}
}

// TestFitPolicy: from a random start, the move-ordering fit learns to put
// first the candidate that known tables rank best.
func TestFitPolicy(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	truth := make([]float64, NumPolicyParams)
	start := make([]float64, NumPolicyParams)
	const used = 30
	for i := 0; i < used; i++ {
		truth[i] = float64(r.IntN(1000))
		truth[2*eval.NumCodes+i] = float64(r.IntN(1000))
		start[i] = float64(r.IntN(1000))
		start[2*eval.NumCodes+i] = float64(r.IntN(1000))
	}
	samples := make([]PolicySample, 3000)
	for j := range samples {
		s := PolicySample{Holdout: j%5 == 0}
		best, bestV := 0, -1.0
		for k := 0; k < 15; k++ {
			c := [2]int32{int32(r.IntN(used)), int32(2*eval.NumCodes + r.IntN(used))}
			if v := truth[c[0]] + truth[c[1]]; v > bestV {
				best, bestV = k, v
			}
			s.Cands = append(s.Cands, c)
		}
		s.Best = best
		samples[j] = s
	}
	_, before := PolicyLoss(samples, start, 100, true)
	p := FitPolicy(samples, start, Config{K: 100, Epochs: 300, Rate: 10})
	_, after := PolicyLoss(samples, p, 100, true)
	if before > 0.5 || after < 0.9 {
		t.Fatalf("best move ordered first: %.0f%% before the fit, %.0f%% after", 100*before, 100*after)
	}
	q := FitPolicy(samples, start, Config{K: 100, Epochs: 300, Rate: 10})
	for i := range p {
		if p[i] != q[i] {
			t.Fatalf("two fits differ at %d", i)
		}
	}
}

// TestFitFreezesOpening: with the opening's cell tables frozen, a fit
// moves only the other parameters, though the data uses both.
func TestFitFreezesOpening(t *testing.T) {
	const k = 200
	r := rand.New(rand.NewPCG(6, 1))
	samples := make([]Sample, 3000)
	for j := range samples {
		var sc Scratch
		for f := 0; f < 6; f++ {
			sc.add(AttackIndex(0, r.IntN(20)), float32(r.IntN(3)+1))
			sc.add(AttackLateIndex(0, r.IntN(20)), float32(r.IntN(3)+1))
		}
		samples[j] = Sample{Features: sc.take(), Target: float64(j%2) * 0.8, Holdout: j%10 == 0}
	}
	start := make([]float64, NumParams)
	p := Fit(samples, start, Config{K: k, Epochs: 50, Rate: 2, Frozen: OpeningCellParam})
	movedLate := false
	for i := range p {
		if OpeningCellParam(i) && p[i] != start[i] {
			t.Fatalf("frozen parameter %d moved to %v", i, p[i])
		}
		movedLate = movedLate || (i >= AttackLateIndex(0, 0) && i < AttackLateIndex(0, 20) && p[i] != 0)
	}
	if !movedLate {
		t.Fatal("the late game's tables did not move")
	}
}

// TestOnePhase: a sample made one-phase evaluates, under any parameters,
// as the split sample does once the late tables equal the opening's, and
// never reads a late-table parameter.
func TestOnePhase(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := randomParams(r)
	tied := slices.Clone(p)
	TiePhases(tied)
	b, _ := eval.NewBoard(15, 15, eval.Freestyle)
	randomPositions(t, b, r, func(feats []Feature) {
		ply := b.Stones()
		split := Sample{Features: slices.Clone(feats)}
		one := Sample{Features: slices.Clone(feats)}
		one.OnePhase()
		for _, f := range one.Features {
			if f.Index >= offAttackLate { // the late tables are the last
				t.Fatalf("ply %d: feature %d reads a late table", ply, f.Index)
			}
		}
		if a, b := split.Eval(tied), one.Eval(p); math.Abs(a-b) > 1e-6 {
			t.Fatalf("ply %d: split sample under tied tables %v, one-phase sample %v", ply, a, b)
		}
	})
}

// randomParams returns parameters drawn from −1000 to 1000.
func randomParams(r *rand.Rand) []float64 {
	p := make([]float64, NumParams)
	for i := range p {
		p[i] = float64(r.IntN(2001) - 1000)
	}
	return p
}

// randomPositions plays 400 random moves on b (new games when one is
// decided or long) and calls check with the features of each undecided
// position reached, failing t if fewer than 200 were checked.
func randomPositions(t *testing.T, b *eval.Board, r *rand.Rand, check func(feats []Feature)) {
	t.Helper()
	var sc Scratch
	checked := 0
	for i := 0; i < 400; i++ {
		cs := b.Candidates(nil)
		if len(cs) == 0 || b.Stones() > 60 {
			b.Clear()
			cs = append(cs[:0], b.Pos(7, 7))
		}
		b.Play(cs[r.IntN(len(cs))])
		feats, ok := Features(b, &sc)
		if !ok {
			b.Clear() // a decided position: a new game
			continue
		}
		check(feats)
		checked++
	}
	if checked < 200 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestWeightProven checks that proven positions are dropped, kept or
// repeated as asked, and that the others keep their order.
func TestWeightProven(t *testing.T) {
	mk := func() []Position {
		return []Position{
			{Game: 0, Score: 120},
			{Game: 1, Score: search.Win - 9},
			{Game: 2, Score: -40},
			{Game: 3, Score: -(search.Win - 12)},
		}
	}
	games := func(ps []Position) (g []int) {
		for _, p := range ps {
			g = append(g, p.Game)
		}
		return g
	}
	for _, c := range []struct {
		w    int
		want []int
	}{
		{0, []int{0, 2}},
		{1, []int{0, 1, 2, 3}},
		{3, []int{0, 1, 2, 3, 1, 1, 3, 3}},
	} {
		if got := games(WeightProven(mk(), c.w)); !slices.Equal(got, c.want) {
			t.Errorf("weight %d: games %v, want %v", c.w, got, c.want)
		}
	}
}

// TestFitWithRankLearnsRanking: children whose order a known parameter
// vector gives, and a value set the same vector labels; from a zero start
// the rank loss teaches the fit to put the chosen child first where the
// values alone cannot (they do not reach the parameters only children
// use), and without a rank weight the fit is Fit's.
func TestFitWithRankLearnsRanking(t *testing.T) {
	const k = 200
	samples, truth := synthetic(2000, 40, k, 7)
	r := rand.New(rand.NewPCG(8, 9))
	// Children also use parameters 40 to 79, which no value sample has.
	for i := 40; i < 80; i++ {
		truth[i] = float64(r.IntN(201) - 100)
	}
	var rs []RankSample
	for j := 0; j < 3000; j++ {
		var rk RankSample
		best, bestV := 0, math.Inf(-1)
		for c := 0; c < 8; c++ {
			var sc Scratch
			for f := 0; f < 6; f++ {
				sc.add(r.IntN(80), float32(r.IntN(5)-2))
			}
			feats := sc.take()
			v := -(&Sample{Features: feats}).Eval(truth)
			if v > bestV {
				best, bestV = c, v
			}
			rk.Kids = append(rk.Kids, feats)
		}
		rk.Best = best
		rk.Holdout = j%10 == 0
		rs = append(rs, rk)
	}
	start := make([]float64, NumParams)
	cfg := Config{K: k, Epochs: 200, Rate: 2}
	plain := Fit(samples, start, cfg)
	if !slices.Equal(plain, FitWithRank(samples, rs, start, cfg, 0, nil)) {
		t.Fatal("FitWithRank with rank weight 0 differs from Fit")
	}
	_, top0, _ := RankLoss(rs, plain, 100, true)
	fitted := FitWithRank(samples, rs, start, cfg, 1, nil)
	_, top1, _ := RankLoss(rs, fitted, 100, true)
	if top1 < 0.8 || top1 < top0+0.2 {
		t.Fatalf("chosen child best in %.0f%% of the holdout samples (values alone: %.0f%%)", 100*top1, 100*top0)
	}
	if l0, l1 := Loss(samples, plain, k, true), Loss(samples, fitted, k, true); l1 > l0+0.02 {
		t.Fatalf("the rank loss spoilt the values: holdout %.4f, values alone %.4f", l1, l0)
	}
}
