package webboard

import (
	"strconv"
	"strings"
)

// InfoView is one search report of an engine, read from a MESSAGE line such
// as Wuzi's "depth 8-14 ev 120 n 1.2M n/s 800k tm 1500 pv h8 i9 j10".
type InfoView struct {
	Ply    int      `json:"ply"`   // stones on the board when it was printed
	Color  string   `json:"color"` // the side the engine searched for
	Engine string   `json:"engine"`
	Rank   int      `json:"rank,omitempty"` // k of a "[k]" YXNBEST line
	Depth  string   `json:"depth,omitempty"`
	Score  string   `json:"score,omitempty"` // "120", "win in 7", "lose in 4"
	Nodes  string   `json:"nodes,omitempty"`
	Speed  string   `json:"speed,omitempty"`
	TimeMS string   `json:"timeMs,omitempty"`
	PV     [][2]int `json:"pv,omitempty"`
	Text   string   `json:"text"`
}

// Candidate is one of an engine's YXNBEST moves.
type Candidate struct {
	Rank  int      `json:"rank"`
	X     int      `json:"x"`
	Y     int      `json:"y"`
	Score string   `json:"score"`
	Depth string   `json:"depth"`
	PV    [][2]int `json:"pv"`
}

// ParseInfo reads a MESSAGE text as a search report. It knows Wuzi's
// format and the common variants of other engines ("depth", "ev"/"eval"/
// "score"/"val", "n"/"nodes", "n/s"/"nps"/"speed", "tm"/"time", "pv"
// followed by moves as Piskvork names them, "h8", or "x,y", and a lone
// "best [x,y]" as AIWine prints it); it reports false for free text that
// holds none of them.
func ParseInfo(text string) (*InfoView, bool) {
	si := &InfoView{Text: text}
	t := strings.NewReplacer("|", " ", ":", " ", "=", " ").Replace(text)
	f := strings.Fields(t)
	found := false
	if len(f) > 0 && strings.HasPrefix(f[0], "[") && strings.HasSuffix(f[0], "]") {
		if k, err := strconv.Atoi(f[0][1 : len(f[0])-1]); err == nil && k > 0 && k <= 100 {
			si.Rank = k
		}
		f = f[1:]
	}
	for i := 0; i < len(f); i++ {
		key := strings.ToLower(f[i])
		next := ""
		if i+1 < len(f) {
			next = f[i+1]
		}
		switch key {
		case "depth":
			si.Depth, found = next, true
			i++
		case "ev", "eval", "score", "cp", "val", "value":
			si.Score, found = next, true
			i++
		case "win", "lose", "mate":
			if strings.EqualFold(next, "in") && i+2 < len(f) {
				si.Score, found = key+" in "+f[i+2], true
				i += 2
			}
		case "n", "nodes", "node":
			si.Nodes, found = next, true
			i++
		case "n/s", "nps", "speed":
			si.Speed = next
			i++
		case "tm", "time":
			si.TimeMS = strings.TrimSuffix(next, "ms")
			i++
		case "best", "bestmove":
			if x, y, ok := parseMoveName(next); ok && len(si.PV) == 0 {
				si.PV = [][2]int{{x, y}}
			}
			i++
		case "pv", "bestline":
			si.PV = nil
			for _, m := range f[i+1:] {
				x, y, ok := parseMoveName(m)
				if !ok {
					break
				}
				si.PV = append(si.PV, [2]int{x, y})
			}
			found = found || len(si.PV) > 0
			i = len(f)
		}
	}
	return si, found
}

// parseMoveName reads a move as engines print it: "h8" (column letter, row
// from 1), "(7,7)" or "7,7".
func parseMoveName(s string) (x, y int, ok bool) {
	s = strings.TrimSuffix(s, ",")
	if (strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")")) || (strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]")) {
		s = s[1 : len(s)-1]
	}
	if a, b, found := strings.Cut(s, ","); found {
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		return x, y, err1 == nil && err2 == nil && x >= 0 && y >= 0
	}
	if len(s) < 2 {
		return 0, 0, false
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'z' {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 {
		return 0, 0, false
	}
	return int(c - 'a'), n - 1, true
}
