package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"wuzi/eval"
)

// Params are the engine's tunable numbers: the margins of the search's
// static pruning, the fraction of a ply a forced block earns, the shape of
// its late-move reductions and pruning, the root's aspiration window, and
// percentages on the parts of the learned evaluation.
// DefaultParams is what the engine plays with; other values are for tuning
// matches (pbrain-wuzi --param NAME=VALUE, scripts/spsa.py). The values
// are whole numbers so that a tuner can step each one.
type Params struct {
	// RazorDepth and RazorMargin: at a quiet non-PV node (the opponent
	// threatens neither an open four nor a four-three) of depth at most
	// RazorDepth whose evaluation is RazorMargin a ply below alpha, only a
	// win by fours is looked for (razoring). Margins are in evaluation
	// units: a win probability of sigmoid(score/K), K about 570 in the
	// learned tables.
	RazorDepth  int
	RazorMargin int
	// FutilityMargin: such a node whose evaluation stands this much a ply
	// of depth above beta (a ply less when it improves on the evaluation
	// two plies up) fails high at once (reverse futility).
	FutilityMargin int
	// FailHighMargin: at an expected cut node this far above beta a ply
	// of depth, the moves that make no four are searched a ply shallower
	// (Rapfi's fail-high reduction: its margin is 15 a ply at a scale of
	// 200).
	FailHighMargin int
	// BlockExt is what a forced block of the opponent's four adds to the
	// depth, in tenths of a ply (see blockExt).
	BlockExt int
	// PolicyReduce1 and PolicyReduce2: a reduced quiet move whose
	// ordering score (the move order plus history/historyDiv) is below each is
	// reduced a ply more, as Rapfi reduces by its policy. They are in the
	// learned move order's units (a softmax temperature of about 570, so
	// -600 is about a third the odds of 0), which every rule's tables now
	// share. (+23 ± 38 Elo against Rapfi at 2,000 nodes, docs/evidence.md.)
	// Since move-count pruning drops every move past a node's quota (79th
	// session), the moves that reach the reductions are a node's first
	// few, and only about 5 % of them score below 0: thresholds of 700 and
	// 300 (a quarter and a tenth of them) and none at all played alike
	// against Rapfi (91st session).
	PolicyReduce1 int
	PolicyReduce2 int
	// LMRBase and LMRScale, in hundredths: the late-move reduction of the
	// i-th move (from 0) at depth d is LMRBase + LMRScale·ln(d)·ln(i+1)
	// hundredths of a ply, rounded down.
	LMRBase  int
	LMRScale int
	// LMPBase and LMPExp (hundredths): a node searches LMPBase + d^LMPExp
	// moves (half as many when not improving), and once one of them has
	// not lost, late-move pruning drops the rest.
	LMPBase int
	LMPExp  int
	// KillerBonus is what the first killer of a ply (the last quiet move
	// that cut there) adds to its ordering score, half of it for the
	// second, in the move order's units (see PolicyReduce1). A small
	// bonus, about a seventh of the spread of the move order's scores:
	// ranked above every other move, as until the 80th session, the
	// killers cut at the first move far less often than the move order's
	// best did (docs/evidence.md).
	KillerBonus int
	// AspWindow is the half-width of the root's aspiration window from
	// the fifth iteration on.
	AspWindow int
	// DistantDefence: at a node under an open-three threat, a move after
	// the first that takes none of the opponent's four points (a
	// counter-four, which only delays the threat) is searched this many
	// plies shallower, on top of its late-move reduction (79th session),
	// when it lies more than four cells from the
	// opponent's last move, and a ply more when also more than four from
	// our own; it is searched again at full depth when it beats alpha.
	// Rapfi reduces such "useless defences" by 1.9 and 1 plies. 0 turns
	// it off. (A lean, not a proof: about +20 Elo against Rapfi at a
	// fixed node count over 800 freestyle games, +22 ± 36 over 400 in
	// standard, +12 ± 43 in renju, +9 ± 33 in self-play over 400;
	// docs/evidence.md, 73rd and 74th sessions.)
	DistantDefence int
	// EvalAttack, EvalDefend, EvalThreat and PolicyDefend, in percent,
	// scale the learned evaluation's attack, defence and threat tables and
	// the move order's defence table (eval.Weights.Scaled). The search
	// does not read them: the brain applies them to the weights of the
	// boards it makes (see EvalScaled).
	EvalAttack   int
	EvalDefend   int
	EvalThreat   int
	PolicyDefend int
	// EvalLateAttack and EvalLateDefend (percent) scale the late game's
	// attack and defence tables on top of EvalAttack and EvalDefend, and
	// PolicyAttack the move order's attack table.
	EvalLateAttack int
	EvalLateDefend int
	PolicyAttack   int
	// CorrWeight (percent; 0, the default: off) is how much of the
	// correction history (corrTable) the static evaluation takes.
	CorrWeight int
	// NoRootThreats (0, the default, or 1) turns off the root's threat
	// searches when 1: our own VCT, the refutation of the opponent's VCT
	// and the check of each iteration's best move (the VCF stays). For
	// measuring the alpha-beta alone, e.g. how soon it proves a forced
	// win (scripts/mates.py); the engine plays with them.
	NoRootThreats int
	// AttackClass and DefendClass (percent) scale the attack and defence
	// values of each eval.ShapeClass of shape codes (lone stones, twos,
	// closed threes, open threes) on top of EvalAttack and EvalDefend.
	AttackClass [eval.NumShapeClasses]int
	DefendClass [eval.NumShapeClasses]int
	// CutNodeReduce: plies more for a late reduced move at an expected
	// cut node (a node whose parent expects it to fail high), and
	// PVNodeReduce: plies fewer for one at a node that is on the principal
	// variation or was when the table stored it (a flag the table keeps).
	// Rapfi reduces cut nodes' late moves 1.8 plies more and the former
	// PV's 0.97 less. Each alone was level or worse, and the pair about
	// +10 ± 24 Elo against Rapfi held to 30,000 nodes (1,200 games);
	// against Rapfi at 100,000 nodes, where Wuzi at 300 ms a move scores
	// about 46 % with the gauntlet's colour split, +41 ± 36 and +8 ± 33
	// on two seeds of 400 games (docs/evidence.md, 82nd and 83rd
	// sessions): a lean, landed.
	CutNodeReduce int
	PVNodeReduce  int
}

// DefaultParams are the values the engine plays with.
func DefaultParams() Params {
	return Params{
		RazorDepth:     2,
		RazorMargin:    100,
		FutilityMargin: 150,
		FailHighMargin: 45,
		BlockExt:       3,
		PolicyReduce1:  0,
		PolicyReduce2:  -600,
		LMRBase:        50,
		LMRScale:       75,
		LMPBase:        3,
		LMPExp:         132,
		KillerBonus:    150,
		AspWindow:      60,
		DistantDefence: 2,
		EvalAttack:     100,
		EvalDefend:     100,
		EvalThreat:     100,
		PolicyDefend:   100,
		EvalLateAttack: 100,
		EvalLateDefend: 100,
		PolicyAttack:   100,
		CorrWeight:     0,
		AttackClass:    [eval.NumShapeClasses]int{100, 100, 100, 100},
		DefendClass:    [eval.NumShapeClasses]int{100, 100, 100, 100},
		CutNodeReduce:  1,
		PVNodeReduce:   1,
	}
}

// paramField is one field of a Params and the name Set and String give it.
type paramField struct {
	name string
	v    *int
}

// paramFields names every field of p, as Set and String spell them.
func (p *Params) paramFields() []paramField {
	return []paramField{
		{"razordepth", &p.RazorDepth},
		{"razor", &p.RazorMargin},
		{"futility", &p.FutilityMargin},
		{"failhigh", &p.FailHighMargin},
		{"blockext", &p.BlockExt},
		{"policy1", &p.PolicyReduce1},
		{"policy2", &p.PolicyReduce2},
		{"lmrbase", &p.LMRBase},
		{"lmrscale", &p.LMRScale},
		{"lmpbase", &p.LMPBase},
		{"lmpexp", &p.LMPExp},
		{"killer", &p.KillerBonus},
		{"aspiration", &p.AspWindow},
		{"distdef", &p.DistantDefence},
		{"evattack", &p.EvalAttack},
		{"evdefend", &p.EvalDefend},
		{"evthreat", &p.EvalThreat},
		{"poldefend", &p.PolicyDefend},
		{"evlateatt", &p.EvalLateAttack},
		{"evlatedef", &p.EvalLateDefend},
		{"polattack", &p.PolicyAttack},
		{"corr", &p.CorrWeight},
		{"norootvct", &p.NoRootThreats},
		{"att1", &p.AttackClass[0]},
		{"att2", &p.AttackClass[1]},
		{"att3", &p.AttackClass[2]},
		{"att3o", &p.AttackClass[3]},
		{"def1", &p.DefendClass[0]},
		{"def2", &p.DefendClass[1]},
		{"def3", &p.DefendClass[2]},
		{"def3o", &p.DefendClass[3]},
		{"cutred", &p.CutNodeReduce},
		{"pvred", &p.PVNodeReduce},
	}
}

// Set parses one "name=value" setting (the names String prints) into p.
// A value outside what the search can use is refused.
func (p *Params) Set(setting string) error {
	name, val, ok := strings.Cut(setting, "=")
	if !ok {
		return fmt.Errorf("parameter %q: want NAME=VALUE", setting)
	}
	n, err := strconv.Atoi(strings.TrimSpace(val))
	if err != nil {
		return fmt.Errorf("parameter %q: %q is not a whole number", name, val)
	}
	name = strings.ToLower(strings.TrimSpace(name))
	q := *p
	found := false
	for _, f := range q.paramFields() {
		if f.name == name {
			*f.v = n
			found = true
		}
	}
	if !found {
		return fmt.Errorf("unknown parameter %q (known: %s)", name, ParamNames())
	}
	if err := q.check(); err != nil {
		return err
	}
	*p = q
	return nil
}

// check refuses values the search cannot use.
func (p *Params) check() error {
	switch {
	case p.RazorDepth < 0 || p.RazorDepth > 8:
		return fmt.Errorf("razordepth %d: want 0 to 8", p.RazorDepth)
	case p.BlockExt < 0 || p.BlockExt >= plyTenths:
		return fmt.Errorf("blockext %d: want 0 to %d", p.BlockExt, plyTenths-1)
	case p.LMRBase < 0 || p.LMRScale < 0 || p.LMRBase+p.LMRScale > 1000:
		return fmt.Errorf("lmrbase %d, lmrscale %d: want 0 or more, 1000 at most together", p.LMRBase, p.LMRScale)
	case p.LMPBase < 1 || p.LMPBase > 100 || p.LMPExp < 0 || p.LMPExp > 300:
		return fmt.Errorf("lmpbase %d, lmpexp %d: want 1 to 100 and 0 to 300", p.LMPBase, p.LMPExp)
	case p.KillerBonus < 0 || p.KillerBonus > 100000:
		return fmt.Errorf("killer %d: want 0 to 100000", p.KillerBonus)
	case p.DistantDefence < 0 || p.DistantDefence > 8:
		return fmt.Errorf("distdef %d: want 0 to 8", p.DistantDefence)
	case p.AspWindow < 1 || p.AspWindow > 10000:
		return fmt.Errorf("aspiration %d: want 1 to 10000", p.AspWindow)
	case p.CutNodeReduce < 0 || p.CutNodeReduce > 8 || p.PVNodeReduce < 0 || p.PVNodeReduce > 8:
		return fmt.Errorf("cutred %d, pvred %d: want 0 to 8 each", p.CutNodeReduce, p.PVNodeReduce)
	case p.CorrWeight < 0 || p.CorrWeight > 200:
		return fmt.Errorf("corr %d: want 0 to 200", p.CorrWeight)
	case p.NoRootThreats < 0 || p.NoRootThreats > 1:
		return fmt.Errorf("norootvct %d: want 0 or 1", p.NoRootThreats)
	case !percents(p.AttackClass) || !percents(p.DefendClass):
		return fmt.Errorf("att1..att3o %v, def1..def3o %v: want 0 to 400 each", p.AttackClass, p.DefendClass)
	case !percent(p.EvalAttack) || !percent(p.EvalDefend) || !percent(p.EvalThreat) || !percent(p.PolicyDefend) ||
		!percent(p.EvalLateAttack) || !percent(p.EvalLateDefend) || !percent(p.PolicyAttack):
		return fmt.Errorf("evattack %d, evdefend %d, evthreat %d, poldefend %d, evlateatt %d, evlatedef %d, polattack %d: want 0 to 400 each",
			p.EvalAttack, p.EvalDefend, p.EvalThreat, p.PolicyDefend, p.EvalLateAttack, p.EvalLateDefend, p.PolicyAttack)
	}
	return nil
}

// percents reports whether every one of vs is a usable scale (percent).
func percents(vs [eval.NumShapeClasses]int) bool {
	for _, v := range vs {
		if !percent(v) {
			return false
		}
	}
	return true
}

// percent reports whether v is a usable scale of the evaluation's tables.
func percent(v int) bool { return v >= 0 && v <= 400 }

// EvalScaled reports whether p scales the evaluation (any of its
// percentages is not 100), and if so returns w scaled by them.
func (p *Params) EvalScaled(w *eval.Weights) (*eval.Weights, bool) {
	sc := p.Scales()
	if sc == eval.NoScales() {
		return w, false
	}
	return w.Scaled(sc), true
}

// NewBoard makes an empty width×height board under rule r whose
// evaluation is scaled as p's percentages say (the embedded weights when
// they are all 100; p may be nil for the defaults): the boards of a
// tuning match and of its bench.
func (p *Params) NewBoard(width, height int, r eval.Rule) (*eval.Board, error) {
	b, err := eval.NewBoard(width, height, r)
	if err != nil || p == nil {
		return b, err
	}
	w, err := eval.EmbeddedWeights(eval.FamilyOf(r))
	if err != nil {
		return nil, err
	}
	if sw, ok := p.EvalScaled(w); ok {
		b.SetWeights(sw)
	}
	return b, nil
}

// Scales are p's percentages on the evaluation's tables.
func (p *Params) Scales() eval.Scales {
	return eval.Scales{
		Attack: p.EvalAttack, Defend: p.EvalDefend, AttackLate: p.EvalLateAttack, DefendLate: p.EvalLateDefend,
		Threat: p.EvalThreat, PolicyAttack: p.PolicyAttack, PolicyDefend: p.PolicyDefend,
		AttackClass: p.AttackClass, DefendClass: p.DefendClass,
	}
}

// ParamNames lists the names Set takes, comma-separated.
func ParamNames() string {
	var p Params
	var ns []string
	for _, f := range p.paramFields() {
		ns = append(ns, f.name)
	}
	return strings.Join(ns, ", ")
}

// String lists p as the name=value settings Set reads, space-separated.
func (p Params) String() string {
	var parts []string
	for _, f := range p.paramFields() {
		parts = append(parts, fmt.Sprintf("%s=%d", f.name, *f.v))
	}
	return strings.Join(parts, " ")
}

// paramTables tabulate the late-move pruning counts and reductions of one
// Params, so that the hot path reads a table.
type paramTables struct {
	of  Params
	lmp [MaxPly + 1]int
	lmr [MaxPly + 1][64]int8
}

// build fills t for p.
func (t *paramTables) build(p Params) {
	t.of = p
	for d := range t.lmp {
		t.lmp[d] = p.LMPBase + int(math.Pow(float64(d), float64(p.LMPExp)/100))
	}
	for d := 1; d < len(t.lmr); d++ {
		for i := range t.lmr[d] {
			r := (float64(p.LMRBase) + float64(p.LMRScale)*math.Log(float64(d))*math.Log(float64(i+1))) / 100
			t.lmr[d][i] = int8(min(r, 100))
		}
	}
}
