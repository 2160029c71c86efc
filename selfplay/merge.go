package selfplay

import (
	"bufio"
	"fmt"
	"io"

	"wuzi/eval"
)

// Input is one file for Merge: its name (for messages) and its contents.
type Input struct {
	Name string
	R    io.Reader
}

// Merge writes the lines of the inputs to w ordered by game and ply, each
// position once (the first by that order, by Zobrist key, rule and size),
// as one run of all their games would have written them. Every input must
// be in that order already, as Run writes it; every line is replayed and
// checked (Position.Replay). Merging the shards of a run gives the bytes
// of the run played whole.
func Merge(w io.Writer, inputs ...Input) (Stats, error) {
	type cursor struct {
		in  Input
		sc  *bufio.Scanner
		n   int // line number
		pos Position
		ok  bool
	}
	curs := make([]*cursor, len(inputs))
	advance := func(c *cursor) error {
		for c.sc.Scan() {
			c.n++
			t := c.sc.Text()
			if t == "" {
				continue
			}
			p, err := ParseLine(t)
			if err != nil {
				return fmt.Errorf("%s:%d: %v", c.in.Name, c.n, err)
			}
			if c.ok && (p.Game < c.pos.Game || p.Game == c.pos.Game && p.Ply() <= c.pos.Ply()) {
				return fmt.Errorf("%s:%d: game %d ply %d after game %d ply %d: not in the order selfplay writes",
					c.in.Name, c.n, p.Game, p.Ply(), c.pos.Game, c.pos.Ply())
			}
			c.pos, c.ok = p, true
			return nil
		}
		c.ok = false
		if err := c.sc.Err(); err != nil {
			return fmt.Errorf("%s: %v", c.in.Name, err)
		}
		return nil
	}
	for i, in := range inputs {
		sc := bufio.NewScanner(in.R)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		curs[i] = &cursor{in: in, sc: sc}
		if err := advance(curs[i]); err != nil {
			return Stats{}, err
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	seen := make(map[posKey]struct{})
	boards := make(map[posKey]*eval.Board)
	var st Stats
	for {
		// The next line: the smallest game and ply, the first input on a tie.
		var c *cursor
		for _, d := range curs {
			if d.ok && (c == nil || d.pos.Game < c.pos.Game || d.pos.Game == c.pos.Game && d.pos.Ply() < c.pos.Ply()) {
				c = d
			}
		}
		if c == nil {
			break
		}
		p := c.pos
		bk := posKey{rule: p.Rule, size: uint8(p.Size)}
		b := boards[bk]
		if b == nil {
			var err error
			if b, err = eval.NewBoard(p.Size, p.Size, p.Rule); err != nil {
				return st, fmt.Errorf("%s:%d: %v", c.in.Name, c.n, err)
			}
			boards[bk] = b
		}
		if err := replayOn(b, p); err != nil {
			return st, fmt.Errorf("%s:%d: %v", c.in.Name, c.n, err)
		}
		k := posKey{hash: b.Hash(), rule: p.Rule, size: uint8(p.Size)}
		if _, dup := seen[k]; dup {
			st.Duplicates++
		} else {
			seen[k] = struct{}{}
			st.Positions++
			// The line as ParseLine understood it, in Run's spacing.
			if _, err := bw.Write(p.AppendLine(nil)); err != nil {
				return st, err
			}
		}
		if err := advance(c); err != nil {
			return st, err
		}
	}
	return st, bw.Flush()
}
