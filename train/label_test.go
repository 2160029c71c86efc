package train

import (
	"testing"

	"wuzi/search"
)

// TestParseEval: the evaluations Wuzi and Rapfi print are read, the last
// one wins, mates become proven scores and lines without one are skipped.
func TestParseEval(t *testing.T) {
	cases := []struct {
		msgs         []string
		score, depth int
		ok           bool
	}{
		{[]string{"depth 7 ev 575 n 68 tm 0 pv h10"}, 575, 7, true},
		{[]string{"Depth 12-18 | Eval -232 | Node 30K | Time 30ms", "Speed 1000K | Depth 12-18 | Eval -240 | Node 30K"}, -240, 12, true},
		{[]string{"Depth 9-10 | Eval +M15 | Time 3ms"}, search.Win - 15, 9, true},
		{[]string{"Depth 9-10 | Eval -M8 | Time 3ms"}, -(search.Win - 8), 9, true},
		{[]string{"Load config from config.toml", "Depth 0-0 | Eval VAL_NONE | Node 4"}, 0, 0, false},
		{[]string{"depth 3 ev 12", "Speed 900K | Depth 0-0 | Eval VAL_NONE"}, 12, 3, true},
		{nil, 0, 0, false},
	}
	for _, c := range cases {
		s, d, ok := parseEval(c.msgs)
		if ok != c.ok || (ok && (s != c.score || d != c.depth)) {
			t.Errorf("parseEval(%q) = %d, %d, %v; want %d, %d, %v", c.msgs, s, d, ok, c.score, c.depth, c.ok)
		}
	}
	if !search.IsMate(search.Win - 15) {
		t.Fatal("a mate in 15 is not a proven score")
	}
}
