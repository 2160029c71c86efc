package brain

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"wuzi/protocol"
)

// TestGomocupRuleChecks answers the nine positions Gomocup's organisers
// run on every submitted engine (testdata/rule_checks.tsv, copied from GomocupJudge).
func TestGomocupRuleChecks(t *testing.T) {
	f, err := os.Open("../testdata/rule_checks.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) < 7 {
			t.Fatalf("bad line %q", line)
		}
		name, ruleS, sizeS, movesS, expect, wantS := col[0], col[1], col[2], col[4], col[5], col[6]
		n++
		t.Run(name, func(t *testing.T) {
			br := New(Config{HashMB: 16})
			size, _ := strconv.Atoi(sizeS)
			if err := br.Start(size, size); err != nil {
				t.Fatal(err)
			}
			if err := br.SetInfo("rule", ruleS); err != nil {
				t.Fatal(err)
			}
			_ = br.SetInfo("timeout_turn", "2000")
			var stones []protocol.Stone
			moves := strings.Split(movesS, ";")
			for i, m := range moves {
				xy := strings.Split(m, ",")
				x, _ := strconv.Atoi(xy[0])
				y, _ := strconv.Atoi(xy[1])
				// The side to move owns the stones of its parity.
				field := protocol.FieldOpponent
				if (len(moves)-i)%2 == 0 {
					field = protocol.FieldOwn
				}
				stones = append(stones, protocol.Stone{Move: protocol.Move{X: x, Y: y}, Field: field})
			}
			if err := br.SetPosition(stones); err != nil {
				t.Fatal(err)
			}
			got, err := br.Think(context.Background(), 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			gotS := strconv.Itoa(got.X) + "," + strconv.Itoa(got.Y)
			want := strings.Split(wantS, "|")
			in := false
			for _, w := range want {
				in = in || w == gotS
			}
			if strings.HasPrefix(expect, "must NOT") == in {
				t.Errorf("%s: played %s; %s %v", name, gotS, expect, want)
			}
		})
	}
	if n != 9 {
		t.Errorf("read %d checks, want 9", n)
	}
}
