package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"wuzi/eval"
)

// TestSideSymmetric: a side-symmetric sample reads no defence entry and
// evaluates, under any parameters, as the original sample does once the
// defence tables equal the attack tables; and the engine, given such
// tables and a zero threat table, values every position for the side to
// move as the exact negation of its value for the other side.
func TestSideSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	p := randomParams(r)
	tied := slices.Clone(p)
	TieSides(tied)
	TiePhases(tied) // freestyle's weights use one phase; tie it so Evaluate needs no phase
	for i := offThreat; i < offAttackLate; i++ {
		tied[i] = 0
	}
	b, _ := eval.NewBoard(15, 15, eval.Freestyle)
	b.SetWeights(ToWeights(eval.FamilyFreestyle, tied))
	randomPositions(t, b, r, func(feats []Feature) {
		orig := Sample{Features: slices.Clone(feats)}
		sym := Sample{Features: slices.Clone(feats)}
		sym.SideSymmetric()
		for _, f := range sym.Features {
			if (f.Index >= offDefend && f.Index < offThreat) || f.Index >= offDefendLate {
				t.Fatalf("ply %d: feature %d reads a defence table", b.Stones(), f.Index)
			}
		}
		if a, c := orig.Eval(tied), sym.Eval(tied); math.Abs(a-c) > 1e-6 {
			t.Fatalf("ply %d: original sample %v, symmetric sample %v under side-tied tables", b.Stones(), a, c)
		}
		us := b.SideToMove()
		v := b.Evaluate()
		b.SetSideToMove(us.Opp())
		w := b.Evaluate()
		b.SetSideToMove(us)
		if v != -w {
			t.Fatalf("ply %d: %v to move %d, the other side %d: want negations", b.Stones(), us, v, w)
		}
	})
	s := slices.Clone(p)
	SymmetricStart(s)
	for _, i := range []int{AttackIndex(0, 5), AttackIndex(1, 700), AttackLateIndex(0, 1000)} {
		d := i + offDefend - offAttack
		if want := (p[i] + p[d]) / 2; s[i] != want || s[d] != want {
			t.Fatalf("SymmetricStart: entry %d %v and %v, want both %v", i, s[i], s[d], want)
		}
	}
}

// TestCellClassParam: every parameter is the threat table's or a cell
// entry of exactly one shape class, and a fit frozen but for one class
// moves that class's entries only.
func TestCellClassParam(t *testing.T) {
	classes := []int{-1, 0, 1, 2, 3}
	for i := 0; i < NumParams; i++ {
		n := 0
		for _, k := range classes {
			if CellClassParam(i, k) {
				n++
			}
		}
		if ThreatParam(i) {
			n++
		}
		if n != 1 {
			t.Fatalf("parameter %d is in %d parts, want 1", i, n)
		}
	}
	if !CellClassParam(AttackIndex(0, eval.ShapeCode([4]eval.Pattern{eval.F1, eval.F1, eval.F1, eval.F1})), 0) ||
		!CellClassParam(DefendLateIndex(1, eval.ShapeCode([4]eval.Pattern{eval.F1, eval.F3, eval.H1, eval.F1})), 3) {
		t.Fatal("a code's entries are not in its class")
	}
	r := rand.New(rand.NewPCG(9, 1))
	samples := make([]Sample, 2000)
	for j := range samples {
		var sc Scratch
		for f := 0; f < 8; f++ {
			sc.add(AttackIndex(0, r.IntN(eval.NumCodes)), float32(r.IntN(3)+1))
			sc.add(ThreatIndex(0, r.IntN(eval.NumThreatMasks)), 1)
		}
		samples[j] = Sample{Features: sc.take(), Target: float64(j%2) * 0.9}
	}
	start := make([]float64, NumParams)
	p := Fit(samples, start, Config{K: 200, Epochs: 30, Rate: 2, Frozen: func(i int) bool { return !CellClassParam(i, 1) }})
	moved := 0
	for i := range p {
		if p[i] != start[i] {
			if !CellClassParam(i, 1) {
				t.Fatalf("parameter %d outside class 1 moved", i)
			}
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no class-1 entry moved")
	}
}

// TestUntieThreat: in a tied fit, the colours' threat tables part when
// the data gives them different targets and UntieThreat is set, while the
// cell tables stay one; without it the threat tables stay equal too.
func TestUntieThreat(t *testing.T) {
	samples := make([]Sample, 400)
	for j := range samples {
		s := j % 2 // Black's threat entry wins, White's loses
		samples[j] = Sample{
			Features: []Feature{{Index: int32(ThreatIndex(s, 0)), Count: 1}, {Index: int32(AttackIndex(s, 3)), Count: 1}},
			Target:   0.8 - 0.6*float64(s),
		}
	}
	start := make([]float64, NumParams)
	for _, untie := range []bool{false, true} {
		p := Fit(samples, start, Config{K: 100, Epochs: 100, Rate: 2, Tied: true, UntieThreat: untie})
		for i := 0; i < eval.NumCodes; i++ {
			if p[AttackIndex(0, i)] != p[AttackIndex(1, i)] {
				t.Fatalf("untie %v: attack tables differ at code %d", untie, i)
			}
		}
		black, white := p[ThreatIndex(0, 0)], p[ThreatIndex(1, 0)]
		if untie && !(black > 20 && white < -20) {
			t.Fatalf("untied threat tables: Black %v, White %v; want them apart", black, white)
		}
		if !untie && black != white {
			t.Fatalf("tied threat tables differ: %v and %v", black, white)
		}
	}
}

// TestKeepTempo: data that wants a cell's attack entry up and its defence
// entry down moves them apart in a plain fit; with KeepTempo (and with the
// colours tied or not) each cell's attack/defence difference stays at its
// start while the pair's mean still moves towards the data.
func TestKeepTempo(t *testing.T) {
	samples := make([]Sample, 400)
	for j := range samples {
		s := j % 2
		samples[j] = Sample{Features: []Feature{{Index: int32(AttackIndex(s, 7)), Count: 1}}, Target: 0.9}
		if j%4 >= 2 {
			samples[j] = Sample{Features: []Feature{{Index: int32(DefendLateIndex(s, 7)), Count: 1}}, Target: 0.2}
		}
	}
	start := make([]float64, NumParams)
	r := rand.New(rand.NewPCG(4, 4))
	for i := range start {
		start[i] = float64(r.IntN(200) - 100)
	}
	TieSides(start) // a zero difference would hide a sign slip
	for i := range 2 * eval.NumCodes {
		start[offAttack+i] += 30
		start[offAttackLate+i] -= 20
	}
	for _, c := range []Config{{}, {KeepTempo: true}, {KeepTempo: true, Tied: true}} {
		c.K, c.Epochs, c.Rate = 100, 60, 2
		p := Fit(samples, start, c)
		for _, pair := range [][2]int{{AttackIndex(0, 7), DefendIndex(0, 7)}, {AttackLateIndex(1, 7), DefendLateIndex(1, 7)}} {
			a, d := pair[0], pair[1]
			moved := math.Abs((p[a]-p[d])-(start[a]-start[d])) > 1e-6
			if moved == c.KeepTempo {
				t.Fatalf("%+v: code 7's difference %v, start %v", c, p[a]-p[d], start[a]-start[d])
			}
			if c.KeepTempo && p[a]+p[d] == start[a]+start[d] {
				t.Fatalf("%+v: code 7's mean did not move", c)
			}
		}
	}
}
