package eval

import (
	"bytes"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
)

// Shape codes. A cell's shape code for one side is the order-free
// combination of its four line patterns: which patterns its lines show,
// not which line shows which. There are NumCodes of them (the multisets
// of four of the twelve patterns). The evaluation values a cell by its
// code through learned tables (see Weights).
const (
	// NumCodes is the number of shape codes.
	NumCodes = 1365
	// NumThreatMasks is the number of whole-board threat masks (see
	// Board.ThreatMask).
	NumThreatMasks = 1 << (2 * threatBits)

	threatBits  = 5
	orderedIdxs = int(numPatterns) * int(numPatterns) * int(numPatterns) * int(numPatterns)
)

// codeTables maps the ordered pattern index p0 + 12 p1 + 144 p2 + 1728 p3
// of a cell's four lines to its shape code, and each code back to its
// patterns (in ascending order). Built once, read-only afterwards.
type codeTables struct {
	code     [orderedIdxs]uint16
	patterns [NumCodes][numDirs]Pattern
}

var sharedCodes = sync.OnceValue(func() *codeTables {
	t := &codeTables{}
	n := 0
	index := map[[numDirs]Pattern]int{}
	for a := Pattern(0); a < numPatterns; a++ {
		for b := a; b < numPatterns; b++ {
			for c := b; c < numPatterns; c++ {
				for d := c; d < numPatterns; d++ {
					k := [numDirs]Pattern{a, b, c, d}
					t.patterns[n] = k
					index[k] = n
					n++
				}
			}
		}
	}
	if n != NumCodes {
		panic("eval: shape code count")
	}
	for i := range t.code {
		var k [numDirs]Pattern
		for d, v := 0, i; d < numDirs; d, v = d+1, v/int(numPatterns) {
			k[d] = Pattern(v % int(numPatterns))
		}
		// Sort the four (insertion sort) to find the code.
		for x := 1; x < numDirs; x++ {
			for y := x; y > 0 && k[y] < k[y-1]; y-- {
				k[y], k[y-1] = k[y-1], k[y]
			}
		}
		t.code[i] = uint16(index[k])
	}
	return t
})

// CodePatterns returns the four line patterns of a shape code, weakest
// first.
func CodePatterns(code int) [4]Pattern { return sharedCodes().patterns[code] }

// ShapeCode returns the shape code of four line patterns (in any order).
func ShapeCode(p [4]Pattern) int {
	i := 0
	for d := numDirs - 1; d >= 0; d-- {
		i = i*int(numPatterns) + int(p[d])
	}
	return int(sharedCodes().code[i])
}

// Family is a group of rules that share one set of learned weights.
type Family uint8

// The rule families.
const (
	FamilyFreestyle Family = iota
	FamilyStandard
	FamilyRenju
	FamilyCaro

	// NumFamilies is the number of rule families.
	NumFamilies
)

// FamilyOf returns the family whose weights rule r uses.
func FamilyOf(r Rule) Family {
	switch r {
	case Standard:
		return FamilyStandard
	case Renju:
		return FamilyRenju
	case CaroFree, CaroExact:
		return FamilyCaro
	}
	return FamilyFreestyle
}

// String names the family (the name of its weights file).
func (f Family) String() string {
	switch f {
	case FamilyFreestyle:
		return "freestyle"
	case FamilyStandard:
		return "standard"
	case FamilyRenju:
		return "renju"
	case FamilyCaro:
		return "caro"
	}
	return "family?"
}

// Weights are the learned evaluation of one rule family. The static
// evaluation for the side to move, of colour s, with opponent colour o, is
//
//	(1−φ) (Σ over empty cells Attack[s][code of the cell for s]
//	       − Σ over empty cells Defend[o][code of the cell for o])
//	+ φ (the same sums over AttackLate and DefendLate)
//	+ Threat[s][Board.ThreatMask()]
//
// where φ = Phase(stones)/PhaseScale rises from 0 in the opening to 1 in
// the late game: a shape's worth changes as the board fills. Index 0 is
// Black, 1 White; outside renju both colours hold the same values. Attack
// and Defend differ because the side to move gets to use its shapes
// first.
//
// The move-ordering value of an empty cell for the side to move, of colour
// s, is PolicyAttack[s][its code for s] + PolicyDefend[o][its code for o]:
// what the move makes for us and what it takes from the opponent.
type Weights struct {
	Family       Family
	Attack       [2][NumCodes]int16
	Defend       [2][NumCodes]int16
	Threat       [2][NumThreatMasks]int16
	AttackLate   [2][NumCodes]int16
	DefendLate   [2][NumCodes]int16
	PolicyAttack [2][NumCodes]int32
	PolicyDefend [2][NumCodes]int32
}

// Threat mask bits, per side: the side has an empty cell whose combo is
// that class. The side to move's bits are the low threatBits, the
// opponent's the next ones.
const (
	// ThreatThree: a cell makes an open three.
	ThreatThree = 1 << iota
	// ThreatFour: a cell makes a four.
	ThreatFour
	// ThreatDoubleThree: a cell makes two open threes.
	ThreatDoubleThree
	// ThreatFourThree: a cell makes a four and an open three.
	ThreatFourThree
	// ThreatFlexFour: a cell makes an open four or two fours.
	ThreatFlexFour
)

// PriorWeights returns the hand-set evaluation expressed as weights: a
// cell is worth the sum of its four patterns' values to either side, and
// the threat table holds the initiative bonuses the search used to add.
// Training starts from it and shapes the data never shows keep it.
func PriorWeights(f Family) *Weights {
	w := &Weights{Family: f}
	codes := sharedCodes()
	for c := 0; c < NumCodes; c++ {
		var v int32
		for _, p := range codes.patterns[c] {
			if p < numPatterns {
				v += patternEvalValue[p]
			}
		}
		for s := 0; s < 2; s++ {
			w.Attack[s][c] = int16(v)
			w.Defend[s][c] = int16(v)
		}
		w.AttackLate[0][c], w.AttackLate[1][c] = int16(v), int16(v)
		w.DefendLate[0][c], w.DefendLate[1][c] = int16(v), int16(v)
	}
	for m := 0; m < NumThreatMasks; m++ {
		us, them := m&(1<<threatBits-1), m>>threatBits
		var v int16
		if us&ThreatFourThree != 0 {
			v += 400
		} else if us&ThreatDoubleThree != 0 && them&ThreatFour == 0 {
			v += 200
		}
		if them&ThreatFlexFour != 0 && us&(ThreatFour|ThreatFourThree) == 0 {
			v -= 300
		}
		w.Threat[0][m] = v
		w.Threat[1][m] = v
	}
	// The hand-set move order: four times a cell's move value for us plus
	// three times its value for the opponent (see MoveValue).
	for s := 0; s < 2; s++ {
		renjuBlack := f == FamilyRenju && s == 0
		for c := 0; c < NumCodes; c++ {
			v, _ := handMoveValue(codes.patterns[c], renjuBlack)
			w.PolicyAttack[s][c] = 4 * v
			w.PolicyDefend[s][c] = 3 * v
		}
	}
	return w
}

// ClearRenjuFouls makes renju Black's fouls worth nothing in w when w is
// renju's: each shape code that is a foul for Black there (an overline,
// a double four, or a double three, whose combo is ComboForbidden or
// ComboDoubleThree) takes, in Black's attack and defence tables and its
// move order's defence table, the values of the empty code (four dead
// lines); and the threat table no longer counts Black's double-three bit,
// for Black to move or for White: a Black double three is a foul, not a
// threat. The renju tables were copied from freestyle's (64th session),
// where a double three is worth about 300 units to the side to move and
// a double four a win; under renju they made Black chase its own fouls
// and White block them. It does nothing to the other families. The
// fouls a fake three lets Black play are rare enough to be valued so too.
func (w *Weights) ClearRenjuFouls() {
	if w.Family != FamilyRenju {
		return
	}
	codes := sharedCodes()
	empty := ShapeCode([numDirs]Pattern{})
	for c := 0; c < NumCodes; c++ {
		switch comboOf(codes.patterns[c], true) {
		case ComboForbidden, ComboDoubleThree:
		default:
			continue
		}
		w.Attack[0][c], w.Defend[0][c] = w.Attack[0][empty], w.Defend[0][empty]
		w.AttackLate[0][c], w.DefendLate[0][c] = w.AttackLate[0][empty], w.DefendLate[0][empty]
		w.PolicyDefend[0][c] = w.PolicyDefend[0][empty]
	}
	const blackToMove, whiteToMove = ThreatDoubleThree, ThreatDoubleThree << threatBits
	for m := range NumThreatMasks {
		if m&blackToMove != 0 {
			w.Threat[0][m] = w.Threat[0][m&^blackToMove]
		}
		if m&whiteToMove != 0 {
			w.Threat[1][m] = w.Threat[1][m&^whiteToMove]
		}
	}
}

// Weights files: magic, version, family, the table sizes, the tables in
// the order of the Weights fields (the evaluation's as little-endian int16,
// the policy's as int32), and a CRC-32 (IEEE) of everything before it.
// Version 2 files, from before the late game's tables, are read with those
// equal to the opening's (which evaluates exactly as version 2 did).
const (
	weightsMagic    = "WUZIEVAL"
	weightsVersion  = 3
	weightsVersion2 = 2
	weightsHeader   = len(weightsMagic) + 2 + 2 + 2 + 2
	weightsSize     = weightsHeader + 2*(8*NumCodes+2*NumThreatMasks) + 4*4*NumCodes + 4
	weightsSize2    = weightsSize - 2*4*NumCodes
)

// MarshalBinary encodes the weights as a weights file.
func (w *Weights) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(weightsMagic)
	le := binary.LittleEndian
	for _, v := range []uint16{weightsVersion, uint16(w.Family), NumCodes, NumThreatMasks} {
		buf.Write(le.AppendUint16(nil, v))
	}
	for _, t := range w.Tables() {
		for _, v := range t {
			buf.Write(le.AppendUint16(nil, uint16(v)))
		}
	}
	for _, t := range w.policyTables() {
		for _, v := range t {
			buf.Write(le.AppendUint32(nil, uint32(v)))
		}
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	return buf.Bytes(), nil
}

// UnmarshalBinary decodes a weights file, refusing one that is cut short,
// of another version or table size, or whose checksum does not match.
func (w *Weights) UnmarshalBinary(data []byte) error {
	le := binary.LittleEndian
	if len(data) < weightsHeader || string(data[:len(weightsMagic)]) != weightsMagic {
		return errors.New("not a Wuzi weights file")
	}
	h := data[len(weightsMagic):]
	version, fam, codes, masks := le.Uint16(h), le.Uint16(h[2:]), le.Uint16(h[4:]), le.Uint16(h[6:])
	if version != weightsVersion && version != weightsVersion2 {
		return fmt.Errorf("weights file version %d, this build reads versions %d and %d", version, weightsVersion2, weightsVersion)
	}
	if codes != NumCodes || masks != NumThreatMasks {
		return fmt.Errorf("weights file has %d codes and %d masks, this build %d and %d", codes, masks, NumCodes, NumThreatMasks)
	}
	if fam >= uint16(NumFamilies) {
		return fmt.Errorf("weights file for unknown rule family %d", fam)
	}
	size := weightsSize
	if version == weightsVersion2 {
		size = weightsSize2
	}
	if len(data) != size {
		return fmt.Errorf("weights file is %d bytes, want %d", len(data), size)
	}
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return errors.New("weights file is corrupt (checksum mismatch)")
	}
	w.Family = Family(fam)
	off := weightsHeader
	tables := w.Tables()
	if version == weightsVersion2 {
		tables = tables[:6]
	}
	for _, t := range tables {
		for i := range t {
			t[i] = int16(le.Uint16(data[off:]))
			off += 2
		}
	}
	for _, t := range w.policyTables() {
		for i := range t {
			t[i] = int32(le.Uint32(data[off:]))
			off += 4
		}
	}
	if version == weightsVersion2 {
		w.AttackLate, w.DefendLate = w.Attack, w.Defend
	}
	return nil
}

// policyTables lists the move-ordering tables in file order.
func (w *Weights) policyTables() [][]int32 {
	return [][]int32{w.PolicyAttack[0][:], w.PolicyAttack[1][:], w.PolicyDefend[0][:], w.PolicyDefend[1][:]}
}

// Tables lists the evaluation's tables (every field but the move order's)
// in file order, each as a slice of w's own storage: the trainer's
// parameter layout is this order too.
func (w *Weights) Tables() [][]int16 {
	return [][]int16{w.Attack[0][:], w.Attack[1][:], w.Defend[0][:], w.Defend[1][:], w.Threat[0][:], w.Threat[1][:],
		w.AttackLate[0][:], w.AttackLate[1][:], w.DefendLate[0][:], w.DefendLate[1][:]}
}

//go:embed weights
var weightFiles embed.FS

// EmbeddedWeights returns the weights built into the engine for family f:
// the file weights/<family>.bin, else the hand-set prior when the build
// has no file for f. A file that is present but unreadable is an error.
func EmbeddedWeights(f Family) (*Weights, error) {
	data, err := weightFiles.ReadFile("weights/" + f.String() + ".bin")
	if err != nil {
		return PriorWeights(f), nil
	}
	w := &Weights{}
	if err := w.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("embedded weights %s.bin: %w", f, err)
	}
	if w.Family != f {
		return nil, fmt.Errorf("embedded weights %s.bin: file is for %s", f, w.Family)
	}
	return w, nil
}

// SetWeights makes the board evaluate (Evaluate, Policy) with w instead of
// the embedded weights of its rule's family, and clears it. The board
// keeps no reference to w.
func (b *Board) SetWeights(w *Weights) {
	b.ev = newEvalTables(w)
	b.rows = newCodeRows(b.tabs, b.ev)
	b.Clear()
}

// evalTables are the weights of one rule as the board reads them: each
// shape code's attack and defence values per colour, in the opening's and
// the late game's tables, and the threat table.
type evalTables struct {
	val    [2][NumCodes]codeValue
	threat [2][NumThreatMasks]int32
	polA   [2][NumCodes]int32
	polD   [2][NumCodes]int32
}

// codeValue is a shape code's attack and defence values for one colour,
// in the opening's and the late game's tables, side by side so that a
// cell reads them at once.
type codeValue struct {
	attack, defend, attackLate, defendLate int16
}

func newEvalTables(w *Weights) *evalTables {
	t := &evalTables{}
	for s := 0; s < 2; s++ {
		for c := 0; c < NumCodes; c++ {
			t.val[s][c] = codeValue{
				attack: w.Attack[s][c], defend: w.Defend[s][c],
				attackLate: w.AttackLate[s][c], defendLate: w.DefendLate[s][c],
			}
		}
		for m := range t.threat[s] {
			t.threat[s][m] = int32(w.Threat[s][m])
		}
		t.polA[s], t.polD[s] = w.PolicyAttack[s], w.PolicyDefend[s]
	}
	return t
}

// embeddedTables returns the read-only evaluation tables of the embedded
// weights of each family, built on first use. A build whose embedded file
// is corrupt cannot play; the tests catch that before a release.
var embeddedTables = sync.OnceValue(func() [NumFamilies]*evalTables {
	var out [NumFamilies]*evalTables
	for f := Family(0); f < NumFamilies; f++ {
		w, err := EmbeddedWeights(f)
		if err != nil {
			panic("eval: " + err.Error())
		}
		out[f] = newEvalTables(w)
	}
	return out
})

// NumShapeClasses is the number of classes ShapeClass sorts shape codes
// into for Scales.AttackClass and DefendClass.
const NumShapeClasses = 4

// ShapeClass sorts a shape code by its strongest line: 0 when no line is
// better than a lone stone (F1), 1 for a two (H2, F2), 2 for a closed three
// (H3), 3 for an open three (F3); -1 for a four or better, which no class
// scale touches.
func ShapeClass(code int) int {
	switch top := sharedCodes().patterns[code][numDirs-1]; {
	case top <= F1:
		return 0
	case top <= F2:
		return 1
	case top == H3:
		return 2
	case top == F3:
		return 3
	}
	return -1
}

// Scales are percentages on the parts of a weights file (Weights.Scaled).
// Attack and Defend apply to the opening's and the late game's tables
// alike, AttackLate and DefendLate to the late game's tables on top of
// them; Threat to the whole-board threat table; PolicyAttack and
// PolicyDefend to the move order's tables; AttackClass and DefendClass,
// on top of Attack and Defend, to the attack and defence values (opening
// and late game) of the codes of each ShapeClass. NoScales (all 100)
// changes nothing.
type Scales struct {
	Attack, Defend, AttackLate, DefendLate, Threat, PolicyAttack, PolicyDefend int
	AttackClass, DefendClass                                                   [NumShapeClasses]int
}

// NoScales returns the scales that leave every table as it is (all 100).
func NoScales() Scales {
	all := [NumShapeClasses]int{100, 100, 100, 100}
	return Scales{100, 100, 100, 100, 100, 100, 100, all, all}
}

// Scaled returns a copy of w with its tables multiplied by the
// percentages of sc, each value rounded to the nearest whole number
// (halves away from zero) and held to its type's range; a late table is
// rounded once, by the product of its percentages. NoScales() gives
// w's values back. It is for tuning matches (pbrain-wuzi --param): how
// much the search should trust each part of the learned evaluation is a
// question for play, not for the trainer's labels.
func (w *Weights) Scaled(sc Scales) *Weights {
	out := *w
	scale16 := func(t []int16, num, den int64) {
		for i, v := range t {
			t[i] = int16(max(math.MinInt16, min(math.MaxInt16, scaleRound(int64(v)*num, den))))
		}
	}
	scale32 := func(t []int32, pct int) {
		for i, v := range t {
			t[i] = int32(max(math.MinInt32, min(math.MaxInt32, scaleRound(int64(v)*int64(pct), 100))))
		}
	}
	// Each code's own factor: its class's percentage, or 100.
	var attackCode, defendCode [NumCodes]int64
	for c := range attackCode {
		attackCode[c], defendCode[c] = 100, 100
		if k := ShapeClass(c); k >= 0 {
			attackCode[c], defendCode[c] = int64(sc.AttackClass[k]), int64(sc.DefendClass[k])
		}
	}
	scaleCodes := func(t []int16, num int64, code *[NumCodes]int64, den int64) {
		for i, v := range t {
			t[i] = int16(max(math.MinInt16, min(math.MaxInt16, scaleRound(int64(v)*num*code[i], den*100))))
		}
	}
	for s := 0; s < 2; s++ {
		scaleCodes(out.Attack[s][:], int64(sc.Attack), &attackCode, 100)
		scaleCodes(out.AttackLate[s][:], int64(sc.Attack)*int64(sc.AttackLate), &attackCode, 10000)
		scaleCodes(out.Defend[s][:], int64(sc.Defend), &defendCode, 100)
		scaleCodes(out.DefendLate[s][:], int64(sc.Defend)*int64(sc.DefendLate), &defendCode, 10000)
		scale16(out.Threat[s][:], int64(sc.Threat), 100)
		scale32(out.PolicyAttack[s][:], sc.PolicyAttack)
		scale32(out.PolicyDefend[s][:], sc.PolicyDefend)
	}
	return &out
}

// scaleRound is x/den rounded to the nearest whole number, halves away
// from zero.
func scaleRound(x, den int64) int64 {
	if x < 0 {
		return -((-x + den/2) / den)
	}
	return (x + den/2) / den
}
