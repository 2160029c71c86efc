// Package opening reads and places match openings in the Gomocup "offset"
// format: one opening per line, stones in play order (Black first) as
// "dx,dy" pairs relative to the board centre (size/2, integer division).
//
// It also carries a built-in balanced set so that a match runs with no
// opening file at all.
package opening

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Offset is one stone of an opening, relative to the board centre.
type Offset struct {
	DX, DY int
}

// Opening is a list of stones in play order, Black first.
type Opening []Offset

// Point is an absolute cell: X is the column, Y the row, 0-based from the
// top-left corner.
type Point struct {
	X, Y int
}

// Place returns the stones of o on a width×height board. It fails when a
// stone falls outside the board or two stones share a cell.
func (o Opening) Place(width, height int) ([]Point, error) {
	cx, cy := width/2, height/2
	seen := make(map[Point]bool, len(o))
	out := make([]Point, len(o))
	for i, s := range o {
		p := Point{cx + s.DX, cy + s.DY}
		if p.X < 0 || p.Y < 0 || p.X >= width || p.Y >= height {
			return nil, fmt.Errorf("opening %v: stone %d (%d,%d) is off a %dx%d board", o, i+1, p.X, p.Y, width, height)
		}
		if seen[p] {
			return nil, fmt.Errorf("opening %v: stone %d (%d,%d) is on an occupied cell", o, i+1, p.X, p.Y)
		}
		seen[p] = true
		out[i] = p
	}
	return out, nil
}

// String writes o back in offset format.
func (o Opening) String() string {
	parts := make([]string, len(o))
	for i, s := range o {
		parts[i] = fmt.Sprintf("%d,%d", s.DX, s.DY)
	}
	return strings.Join(parts, ", ")
}

// ParseLine reads one opening line. Numbers are separated by commas and/or
// spaces; their count must be even.
func ParseLine(line string) (Opening, error) {
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 || len(fields)%2 != 0 {
		return nil, fmt.Errorf("opening %q: want pairs dx,dy", line)
	}
	o := make(Opening, 0, len(fields)/2)
	for i := 0; i < len(fields); i += 2 {
		dx, err1 := strconv.Atoi(fields[i])
		dy, err2 := strconv.Atoi(fields[i+1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("opening %q: %q,%q is not a pair of integers", line, fields[i], fields[i+1])
		}
		o = append(o, Offset{dx, dy})
	}
	return o, nil
}

// Parse reads an openings file: one opening a line; empty lines and lines
// starting with '#' are skipped.
func Parse(r io.Reader) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no openings found")
	}
	return out, nil
}

// defaultSet is the built-in set: twelve three-stone openings near the
// centre, direct and indirect, with the third stone at different distances,
// so that no side starts with a won position. The first six lines are from
// testdata/openings_freestyle_3stone.txt (the openings.txt shipped
// with the Piskvork manager); the other six are ours. Every opening is played
// with both colours, so a slight imbalance cancels out.
const defaultSet = `
0,0, 1,0, 1,3
0,0, 1,1, 0,3
0,0, 1,0, 0,3
0,0, 1,1, 1,3
0,0, 1,0, 3,0
0,0, 1,1, -1,3
0,0, 1,0, -1,-2
0,0, 1,1, 3,-1
0,0, 0,1, 2,2
0,0, 1,-1, 3,1
0,0, 1,0, 2,-3
0,0, 1,1, -2,2
`

// Default returns the built-in balanced set.
func Default() []Opening {
	o, err := Parse(strings.NewReader(defaultSet))
	if err != nil {
		panic("opening: built-in set does not parse: " + err.Error())
	}
	return o
}

// Generate draws n three-stone openings from the seed, the same n for the
// same seed: Black's first stone within two cells of the centre, White's
// next to it in one of the eight directions, Black's second on a free cell
// at most three cells from its first. Each fits a board of 11×11 or more;
// every opening is played with both colours, so an uneven one cancels out.
func Generate(seed uint64, n int) []Opening {
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	dirs := []Offset{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	out := make([]Opening, n)
	for i := range out {
		first := Offset{rng.IntN(5) - 2, rng.IntN(5) - 2}
		d := dirs[rng.IntN(len(dirs))]
		second := Offset{first.DX + d.DX, first.DY + d.DY}
		third := second
		for third == first || third == second {
			third = Offset{first.DX + rng.IntN(7) - 3, first.DY + rng.IntN(7) - 3}
		}
		out[i] = Opening{first, second, third}
	}
	return out
}

// Order returns the indices of n openings to play, one per game pair: the
// openings in file order, or shuffled with the seed when random is true.
// When more pairs than openings are needed the sequence repeats (reshuffled
// each round when random).
func Order(count, pairs int, random bool, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]int, 0, pairs)
	for len(out) < pairs {
		round := make([]int, count)
		for i := range round {
			round[i] = i
		}
		if random {
			rng.Shuffle(len(round), func(i, j int) { round[i], round[j] = round[j], round[i] })
		}
		out = append(out, round...)
	}
	return out[:pairs]
}
