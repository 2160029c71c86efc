package eval

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestShapeCodes: every ordering of four patterns has the code of its
// sorted form, and distinct multisets have distinct codes.
func TestShapeCodes(t *testing.T) {
	seen := map[int][numDirs]Pattern{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var ps [numDirs]Pattern
		for d := range ps {
			ps[d] = Pattern(r.IntN(int(numPatterns)))
		}
		c := ShapeCode(ps)
		if want := refShapeCode(ps); c != want {
			t.Fatalf("ShapeCode(%v) = %d, reference %d", ps, c, want)
		}
		perm := [numDirs]Pattern{ps[2], ps[0], ps[3], ps[1]}
		if ShapeCode(perm) != c {
			t.Fatalf("ShapeCode depends on the order of %v", ps)
		}
		if CodePatterns(c) != sortedPatterns(ps) {
			t.Fatalf("CodePatterns(%d) = %v, want %v", c, CodePatterns(c), sortedPatterns(ps))
		}
		seen[c] = ps
	}
	if len(seen) < NumCodes*9/10 {
		t.Fatalf("only %d of %d codes seen", len(seen), NumCodes)
	}
}

func sortedPatterns(ps [numDirs]Pattern) [numDirs]Pattern {
	for x := 1; x < numDirs; x++ {
		for y := x; y > 0 && ps[y] < ps[y-1]; y-- {
			ps[y], ps[y-1] = ps[y-1], ps[y]
		}
	}
	return ps
}

func randomWeights(f Family, seed uint64) *Weights {
	r := rand.New(rand.NewPCG(seed, 7))
	w := &Weights{Family: f}
	for _, t := range w.Tables() {
		for i := range t {
			t[i] = int16(r.IntN(65536) - 32768)
		}
	}
	for _, t := range w.policyTables() {
		for i := range t {
			t[i] = int32(r.Uint32())
		}
	}
	return w
}

// TestWeightsRoundTrip: a weights file decodes to the weights it was
// written from.
func TestWeightsRoundTrip(t *testing.T) {
	for f := Family(0); f < NumFamilies; f++ {
		w := randomWeights(f, uint64(f)+1)
		data, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != weightsSize {
			t.Fatalf("file is %d bytes, want %d", len(data), weightsSize)
		}
		var got Weights
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if got != *w {
			t.Fatalf("%v: weights changed in a round trip", f)
		}
	}
}

// TestPhase: the late game's weight is 0 in the opening, full in the late
// game, and never falls as stones are added.
func TestPhase(t *testing.T) {
	if Phase(0) != 0 || Phase(PhaseStart) != 0 || Phase(PhaseEnd) != PhaseScale || Phase(MaxSize*MaxSize) != PhaseScale {
		t.Fatalf("Phase: 0 → %d, %d → %d, %d → %d", Phase(0), PhaseStart, Phase(PhaseStart), PhaseEnd, Phase(PhaseEnd))
	}
	for n := 1; n <= MaxSize*MaxSize; n++ {
		if Phase(n) < Phase(n-1) {
			t.Fatalf("Phase(%d) = %d < Phase(%d) = %d", n, Phase(n), n-1, Phase(n-1))
		}
	}
}

// TestWeightsVersion2: a file from before the late game's tables is read
// with those equal to the opening's, so that it evaluates as it did.
func TestWeightsVersion2(t *testing.T) {
	w := randomWeights(FamilyStandard, 5)
	le := binary.LittleEndian
	data := []byte(weightsMagic)
	for _, v := range []uint16{weightsVersion2, uint16(w.Family), NumCodes, NumThreatMasks} {
		data = le.AppendUint16(data, v)
	}
	for _, tab := range w.Tables()[:6] {
		for _, v := range tab {
			data = le.AppendUint16(data, uint16(v))
		}
	}
	for _, tab := range w.policyTables() {
		for _, v := range tab {
			data = le.AppendUint32(data, uint32(v))
		}
	}
	data = le.AppendUint32(data, crc32.ChecksumIEEE(data))
	var got Weights
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	want := *w
	want.AttackLate, want.DefendLate = w.Attack, w.Defend
	if got != want {
		t.Fatal("a version 2 file read wrongly")
	}
	if err := got.UnmarshalBinary(data[:len(data)-2]); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("a short version 2 file: error %v", err)
	}
}

// TestWeightsRefused: a damaged file is refused with a message that says
// why.
func TestWeightsRefused(t *testing.T) {
	data, _ := randomWeights(FamilyRenju, 3).MarshalBinary()
	flip := func(i int) []byte {
		d := append([]byte(nil), data...)
		d[i] ^= 0x10
		return d
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a Wuzi weights file"},
		{"magic", flip(0), "not a Wuzi weights file"},
		{"version", flip(len(weightsMagic)), "version"},
		{"family", flip(len(weightsMagic) + 2), "family"},
		{"sizes", flip(len(weightsMagic) + 4), "codes"},
		{"table byte", flip(weightsHeader + 1000), "checksum"},
		{"checksum", flip(len(data) - 1), "checksum"},
		{"short", data[:len(data)-10], "bytes"},
		{"long", append(append([]byte(nil), data...), 0), "bytes"},
	}
	for _, c := range cases {
		var w Weights
		err := w.UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestEmbeddedWeights: every family's built-in weights load, are for that
// family, and survive a round trip.
func TestEmbeddedWeights(t *testing.T) {
	for f := Family(0); f < NumFamilies; f++ {
		w, err := EmbeddedWeights(f)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if w.Family != f {
			t.Fatalf("%v: weights are for %v", f, w.Family)
		}
		if f != FamilyRenju && (w.Attack[0] != w.Attack[1] || w.Defend[0] != w.Defend[1] || w.Threat[0] != w.Threat[1] ||
			w.AttackLate[0] != w.AttackLate[1] || w.DefendLate[0] != w.DefendLate[1] ||
			w.PolicyAttack[0] != w.PolicyAttack[1] || w.PolicyDefend[0] != w.PolicyDefend[1]) {
			t.Errorf("%v: colours differ outside renju", f)
		}
	}
	for _, r := range []Rule{Freestyle, Standard, Renju, CaroFree, CaroExact} {
		b, _ := NewBoard(15, 15, r)
		if b.ev != embeddedTables()[FamilyOf(r)] {
			t.Errorf("%v board does not use its family's weights", r)
		}
	}
}

// TestPriorIsHandSet: the prior values a cell as the sum of its patterns'
// hand-set values, for both sides.
func TestPriorIsHandSet(t *testing.T) {
	w := PriorWeights(FamilyFreestyle)
	ps := [numDirs]Pattern{F3, Dead, B4, F2}
	want := patternEvalValue[F3] + patternEvalValue[B4] + patternEvalValue[F2]
	c := ShapeCode(ps)
	if int32(w.Attack[0][c]) != want || int32(w.Defend[1][c]) != want {
		t.Fatalf("prior of %v = %d/%d, want %d", ps, w.Attack[0][c], w.Defend[1][c], want)
	}
	// The prior move order is the hand-set one: 4 × our move value + 3 ×
	// the opponent's, on a real board.
	b, _ := NewBoard(15, 15, Renju)
	for _, m := range [][2]int{{7, 7}, {8, 8}, {7, 8}, {8, 7}, {7, 9}, {6, 6}, {7, 6}} {
		b.Play(b.Pos(m[0], m[1]))
	}
	prior := newEvalTables(PriorWeights(FamilyRenju))
	b.ev = prior
	for _, p := range b.Cells() {
		if !b.IsEmpty(p) {
			continue
		}
		for _, c := range []Color{Black, White} {
			if got, want := b.Policy(p, c), 4*b.MoveValue(p, c)+3*b.MoveValue(p, c.Opp()); got != want {
				t.Fatalf("prior Policy at %v for %v = %d, hand-set order %d", p, c, got, want)
			}
		}
	}
	if w.Threat[0][ThreatFourThree] != 400 || w.Threat[0][ThreatFlexFour<<threatBits] != -300 {
		t.Fatalf("prior threat values %d %d", w.Threat[0][ThreatFourThree], w.Threat[0][ThreatFlexFour<<threatBits])
	}
}

// Scaled multiplies each table by its percentage, rounding to the nearest
// and holding values to their type, and leaves the weights it was given
// as they were; at 100 % it changes nothing.
func TestWeightsScaled(t *testing.T) {
	w, err := EmbeddedWeights(FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	orig := *w
	if same := w.Scaled(NoScales()); *same != *w {
		t.Fatal("Scaled at 100 % changed the weights")
	}
	w.Attack[0][1], w.Defend[1][2], w.Threat[0][3], w.PolicyDefend[1][4] = 25000, -7, 5, 1_000_000_001
	w.AttackLate[1][5], w.DefendLate[0][6] = -25000, 3
	w.AttackLate[0][8], w.DefendLate[1][9], w.PolicyAttack[0][10] = 1001, -1001, 7
	sc := NoScales()
	sc.Attack, sc.Defend, sc.AttackLate, sc.DefendLate, sc.Threat, sc.PolicyAttack, sc.PolicyDefend = 150, 50, 110, 90, 0, 50, 300
	s := w.Scaled(sc)
	checks := []struct {
		name      string
		got, want int64
	}{
		{"Attack held to int16", int64(s.Attack[0][1]), 32767},
		{"AttackLate held to int16", int64(s.AttackLate[1][5]), -32768},
		{"Defend rounds halves away from zero", int64(s.Defend[1][2]), -4},
		{"DefendLate by both percentages (3 × 0.5 × 0.9)", int64(s.DefendLate[0][6]), 1},
		{"Threat at 0 %", int64(s.Threat[0][3]), 0},
		{"PolicyDefend held to int32", int64(s.PolicyDefend[1][4]), 2147483647},
		{"AttackLate by both percentages, rounded once", int64(s.AttackLate[0][8]), 1652},
		{"DefendLate by both percentages, rounded once", int64(s.DefendLate[1][9]), -450},
		{"PolicyAttack rounds halves away from zero", int64(s.PolicyAttack[0][10]), 4},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	w.Attack[0][1], w.Defend[1][2], w.Threat[0][3], w.PolicyDefend[1][4] = orig.Attack[0][1], orig.Defend[1][2], orig.Threat[0][3], orig.PolicyDefend[1][4]
	w.AttackLate[1][5], w.DefendLate[0][6] = orig.AttackLate[1][5], orig.DefendLate[0][6]
	w.AttackLate[0][8], w.DefendLate[1][9], w.PolicyAttack[0][10] = orig.AttackLate[0][8], orig.DefendLate[1][9], orig.PolicyAttack[0][10]
	if *w != orig {
		t.Fatal("Scaled changed the weights it was given")
	}
}

// TestShapeClassScales: a class's percentage scales the attack (or
// defence) values of the codes whose strongest line is of that class, in
// the opening's and the late game's tables, and nothing else; fours and
// better belong to no class.
func TestShapeClassScales(t *testing.T) {
	cases := []struct {
		lines [4]Pattern
		class int
	}{
		{[4]Pattern{Dead, Dead, H1, F1}, 0},
		{[4]Pattern{Dead, F1, F1, H2}, 1},
		{[4]Pattern{F2, F2, F2, F2}, 1},
		{[4]Pattern{Dead, F2, F2, H3}, 2},
		{[4]Pattern{H3, H3, H3, F3}, 3},
		{[4]Pattern{Dead, Dead, F3, B4}, -1},
		{[4]Pattern{Dead, Dead, Dead, F5}, -1},
	}
	for _, c := range cases {
		if got := ShapeClass(ShapeCode(c.lines)); got != c.class {
			t.Errorf("ShapeClass(%v) = %d, want %d", c.lines, got, c.class)
		}
	}
	w, err := EmbeddedWeights(FamilyFreestyle)
	if err != nil {
		t.Fatal(err)
	}
	open3, two, four := ShapeCode(cases[4].lines), ShapeCode(cases[2].lines), ShapeCode(cases[5].lines)
	w.Attack[1][open3], w.AttackLate[1][open3], w.Defend[1][open3] = 101, -51, 40
	w.Attack[0][two], w.Defend[0][two], w.DefendLate[0][two] = 30, -30, 25
	w.Attack[0][four], w.Defend[0][four] = 500, 600
	sc := NoScales()
	sc.AttackClass[3], sc.DefendClass[1], sc.Attack = 200, 50, 110
	s := w.Scaled(sc)
	checks := []struct {
		name      string
		got, want int16
	}{
		{"open three's attack ×1.1 ×2", s.Attack[1][open3], 222},
		{"open three's late attack ×1.1 ×2, rounded once", s.AttackLate[1][open3], -112},
		{"open three's defence untouched", s.Defend[1][open3], 40},
		{"two's attack ×1.1 only", s.Attack[0][two], 33},
		{"two's defence ×0.5", s.Defend[0][two], -15},
		{"two's late defence ×0.5, rounded away from zero", s.DefendLate[0][two], 13},
		{"four's attack ×1.1 only", s.Attack[0][four], 550},
		{"four's defence untouched", s.Defend[0][four], 600},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestClearRenjuFouls: in renju's weights, Black's foul codes (overlines,
// double fours, double threes) take the empty code's values in Black's
// attack, defence and move-order defence tables, and Black's double-three
// bit counts for nothing in the threat table, for Black to move and for
// White; every other entry is untouched, clearing twice is clearing once,
// and the other families are left alone. The embedded renju file is
// cleared.
func TestClearRenjuFouls(t *testing.T) {
	w := randomWeights(FamilyRenju, 11)
	before := *w
	w.ClearRenjuFouls()
	empty := ShapeCode([numDirs]Pattern{})
	fouls := 0
	for c := 0; c < NumCodes; c++ {
		foul := renjuBlackFoul(CodePatterns(c))
		if foul {
			fouls++
		}
		type entry struct {
			name      string
			got, orig int64
			cleared   int64
		}
		for _, e := range []entry{
			{"attack", int64(w.Attack[0][c]), int64(before.Attack[0][c]), int64(before.Attack[0][empty])},
			{"defend", int64(w.Defend[0][c]), int64(before.Defend[0][c]), int64(before.Defend[0][empty])},
			{"attack late", int64(w.AttackLate[0][c]), int64(before.AttackLate[0][c]), int64(before.AttackLate[0][empty])},
			{"defend late", int64(w.DefendLate[0][c]), int64(before.DefendLate[0][c]), int64(before.DefendLate[0][empty])},
			{"policy defend", int64(w.PolicyDefend[0][c]), int64(before.PolicyDefend[0][c]), int64(before.PolicyDefend[0][empty])},
		} {
			want := e.orig
			if foul {
				want = e.cleared
			}
			if e.got != want {
				t.Fatalf("Black's %s of %v (foul %v): %d, want %d", e.name, CodePatterns(c), foul, e.got, want)
			}
		}
	}
	// Overlines and double fours with anything but a five, and two or more
	// open threes: a third of the codes.
	if fouls != 665 {
		t.Errorf("%d foul codes, want 665", fouls)
	}
	if w.PolicyAttack != before.PolicyAttack || w.Attack[1] != before.Attack[1] || w.Defend[1] != before.Defend[1] ||
		w.AttackLate[1] != before.AttackLate[1] || w.DefendLate[1] != before.DefendLate[1] || w.PolicyDefend[1] != before.PolicyDefend[1] {
		t.Error("a table cleared that holds no Black foul")
	}
	for m := range NumThreatMasks {
		want0, want1 := before.Threat[0][m], before.Threat[1][m]
		if m&ThreatDoubleThree != 0 {
			want0 = before.Threat[0][m&^ThreatDoubleThree]
		}
		if m&(ThreatDoubleThree<<threatBits) != 0 {
			want1 = before.Threat[1][m&^(ThreatDoubleThree<<threatBits)]
		}
		if w.Threat[0][m] != want0 || w.Threat[1][m] != want1 {
			t.Fatalf("threat mask %#x: %d / %d, want %d / %d", m, w.Threat[0][m], w.Threat[1][m], want0, want1)
		}
	}
	again := *w
	again.ClearRenjuFouls()
	if again != *w {
		t.Error("clearing twice is not clearing once")
	}
	for f := Family(0); f < NumFamilies; f++ {
		if f == FamilyRenju {
			continue
		}
		o := randomWeights(f, 12)
		orig := *o
		if o.ClearRenjuFouls(); *o != orig {
			t.Errorf("%v: weights changed", f)
		}
	}
	emb, err := EmbeddedWeights(FamilyRenju)
	if err != nil {
		t.Fatal(err)
	}
	orig := *emb
	if emb.ClearRenjuFouls(); *emb != orig {
		t.Error("the embedded renju weights value Black's fouls (wuzi-train writes them cleared)")
	}
}

// renjuBlackFoul tells, from a shape code's four line patterns alone, a
// cell where renju Black fouls unless it makes five: an overline or a
// double four on one line, fours on two lines, or open threes on two.
func renjuBlackFoul(ps [4]Pattern) bool {
	threes, fours, fives, fouls := 0, 0, 0, 0
	for _, p := range ps {
		switch p {
		case F3:
			threes++
		case B4, F4:
			fours++
		case F5:
			fives++
		case Overline, DoubleFour:
			fouls++
		}
	}
	return fives == 0 && (fouls > 0 || fours >= 2 || threes >= 2)
}
