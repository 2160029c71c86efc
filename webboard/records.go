package webboard

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"wuzi/eval"
	"wuzi/match/record"
)

// Loaded is a game read from a PSQ or SGF file.
type Loaded struct {
	Width, Height int
	Rule          *eval.Rule // from SGF RU, when it names a rule
	Moves         []record.Move
}

// maxRecordMoves bounds the moves a record may hold (a full 32×32 board).
const maxRecordMoves = eval.MaxSize * eval.MaxSize

// ParsePSQ reads a game in Piskvork's PSQ format, as record.WritePSQ writes
// it: a "Piskvorky WxH, ..." header, then "x,y,ms" lines with 1-based
// coordinates up to the first line that is not a move.
func ParsePSQ(text string) (*Loaded, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 4096), 1<<16)
	if !sc.Scan() {
		return nil, fmt.Errorf("PSQ: empty file")
	}
	head := strings.TrimSpace(sc.Text())
	var l Loaded
	rest, ok := strings.CutPrefix(head, "Piskvorky ")
	if !ok {
		return nil, fmt.Errorf("PSQ: the first line %q does not start with \"Piskvorky \"", clip(head))
	}
	size, _, _ := strings.Cut(rest, ",")
	ws, hs, ok := strings.Cut(strings.TrimSpace(size), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("PSQ: board size %q is not WxH", clip(size))
	}
	if w < eval.MinSize || h < eval.MinSize || w > eval.MaxSize || h > eval.MaxSize {
		return nil, fmt.Errorf("PSQ: board %dx%d: sides must be %d to %d", w, h, eval.MinSize, eval.MaxSize)
	}
	l.Width, l.Height = w, h
	for sc.Scan() {
		f := strings.Split(strings.TrimSpace(sc.Text()), ",")
		if len(f) != 3 {
			break
		}
		x, err1 := strconv.Atoi(strings.TrimSpace(f[0]))
		y, err2 := strconv.Atoi(strings.TrimSpace(f[1]))
		if err1 != nil || err2 != nil {
			break
		}
		if x < 1 || y < 1 || x > w || y > h {
			return nil, fmt.Errorf("PSQ: move %d (%d,%d) is off the %dx%d board", len(l.Moves)+1, x, y, w, h)
		}
		if len(l.Moves) >= maxRecordMoves {
			return nil, fmt.Errorf("PSQ: more than %d moves", maxRecordMoves)
		}
		l.Moves = append(l.Moves, record.Move{X: x - 1, Y: y - 1})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("PSQ: %v", err)
	}
	return &l, nil
}

// ParseSGF reads the main line of the first game of an SGF file (GM[4]):
// SZ, RU when it names a rule Wuzi plays, and the B and W moves, which must
// alternate from Black. Setup stones (AB, AW) are refused: a Gomoku
// position is a sequence of moves.
func ParseSGF(text string) (*Loaded, error) {
	l := &Loaded{Width: 15, Height: 15}
	i := strings.IndexByte(text, '(')
	if i < 0 {
		return nil, fmt.Errorf("SGF: no game tree (no '(')")
	}
	depth := 0
	type mv struct {
		color byte
		val   string
	}
	var moves []mv
	ident := ""
	for i < len(text) {
		c := text[i]
		switch {
		case c == '(':
			depth++
			i++
		case c == ')':
			depth--
			i++
			if depth <= 0 || len(moves) > 0 {
				i = len(text) // the main line ends here
			}
		case c == ';':
			ident = ""
			i++
		case c >= 'A' && c <= 'Z':
			j := i
			for j < len(text) && text[j] >= 'A' && text[j] <= 'Z' {
				j++
			}
			ident = text[i:j]
			i = j
		case c == '[':
			j := i + 1
			var b strings.Builder
			for j < len(text) && text[j] != ']' {
				if text[j] == '\\' && j+1 < len(text) {
					j++
				}
				b.WriteByte(text[j])
				j++
			}
			if j >= len(text) {
				return nil, fmt.Errorf("SGF: a value is not closed with ']'")
			}
			val := b.String()
			i = j + 1
			switch ident {
			case "SZ":
				ws, hs, rect := strings.Cut(val, ":")
				if !rect {
					hs = ws
				}
				w, err1 := strconv.Atoi(strings.TrimSpace(ws))
				h, err2 := strconv.Atoi(strings.TrimSpace(hs))
				if err1 != nil || err2 != nil || w < eval.MinSize || h < eval.MinSize || w > eval.MaxSize || h > eval.MaxSize {
					return nil, fmt.Errorf("SGF: SZ[%s]: sides must be %d to %d", clip(val), eval.MinSize, eval.MaxSize)
				}
				l.Width, l.Height = w, h
			case "RU":
				if r, ok := ruleByName(val); ok {
					l.Rule = &r
				}
			case "B", "W":
				if len(moves) >= maxRecordMoves {
					return nil, fmt.Errorf("SGF: more than %d moves", maxRecordMoves)
				}
				moves = append(moves, mv{ident[0], val})
			case "AB", "AW", "AE":
				return nil, fmt.Errorf("SGF: setup stones (%s) are not supported; a position must be a sequence of moves", ident)
			}
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			i++
		default:
			// Lower-case letters of old-style property names, and junk.
			i++
		}
	}
	for k, m := range moves {
		want := byte('B')
		if k%2 == 1 {
			want = 'W'
		}
		if m.color != want {
			return nil, fmt.Errorf("SGF: move %d is %c; moves must alternate from Black", k+1, m.color)
		}
		if len(m.val) != 2 {
			return nil, fmt.Errorf("SGF: move %d %c[%s] is not two letters (a pass?)", k+1, m.color, clip(m.val))
		}
		x, y := sgfIndex(m.val[0]), sgfIndex(m.val[1])
		if x < 0 || y < 0 || x >= l.Width || y >= l.Height {
			return nil, fmt.Errorf("SGF: move %d %c[%s] is off the %dx%d board", k+1, m.color, m.val, l.Width, l.Height)
		}
		l.Moves = append(l.Moves, record.Move{X: x, Y: y})
	}
	return l, nil
}

// sgfIndex reads an SGF coordinate letter: a–z, then A–Z.
func sgfIndex(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

// ruleByName maps a rule name (as SGF RU and the page write it) to a rule.
func ruleByName(s string) (eval.Rule, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "freestyle", "gomoku", "0":
		return eval.Freestyle, true
	case "standard", "exact", "1":
		return eval.Standard, true
	case "renju", "4", "2":
		return eval.Renju, true
	case "caro", "8":
		return eval.CaroFree, true
	case "caro-exact", "9":
		return eval.CaroExact, true
	}
	return 0, false
}

// clip shortens a quoted piece of bad input.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
