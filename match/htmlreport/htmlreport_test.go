package htmlreport

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/results"
)

// page is a finished SPRT match of four games: the engine under test wins
// two, loses one by time-out and draws one.
func page(t *testing.T) Page {
	t.Helper()
	test, _ := elo.ParseSPRT("0,50")
	h := results.Header{Kind: "match", Format: results.Format, Names: []string{"new", "<old>"},
		Width: 15, Height: 15, Rule: 0, TurnMS: 1000, ToleranceMS: 1000, MaxMemory: 350 << 20,
		Games: 4, Random: true, Seed: 1234567, OpeningsIn: 2, SPRT: &test, Total: 4}
	mk := func(n, black int, result, reason string, failure bool) results.Game {
		g := results.Game{Kind: "game", Number: n, Opponent: 1, Swapped: black == 1, BlackEngine: black, WhiteEngine: 1 - black,
			Black: h.Names[black], White: h.Names[1-black], Opening: "0,0, 1,0, 1,3", OpeningStones: 3,
			Moves: [][2]int{{7, 7}, {8, 7}, {8, 10}, {6, 6}}, Result: result, Reason: reason, Failure: failure,
			TimesMS: results.Times{Black: []int64{300, 500}, White: []int64{900}}, PeakMemory: results.Pair{Black: 40 << 20, White: 400 << 20},
			MemoryLimit: results.Pair{Black: 350 << 20, White: 350 << 20}}
		return g
	}
	games := []results.Game{mk(1, 0, "1-0", "five", false), mk(2, 1, "1-0", "time-out", true),
		mk(3, 0, "0-1", "five", false), mk(4, 1, "1/2-1/2", "ply limit", false)}
	games[1].Result = "0-1" // new, as White, wins: <old> (Black) timed out
	sum := match.NewSummary(h.Names, h.Total)
	for _, g := range games {
		sum.Add(g.Done(h))
	}
	sum.MemoryLimits = []int64{350 << 20, 350 << 20}
	return Page{Header: h, Games: games, Summary: sum, Updated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func TestPage(t *testing.T) {
	p := page(t)
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"W-L-D 2-1-1, score 62.5%",                     // the score
		"seed 1234567",                                 // the seed, to replay
		"&lt;old&gt;",                                  // names escaped
		"SPRT elo0 0, elo1 50",                         // the SPRT line
		"<polyline",                                    // Elo and LLR curves
		"stroke-dasharray=\"6 4\"",                     // the SPRT bounds
		"median 500 ms",                                // new: 300, 500 as Black twice, 900 as White twice
		"limit 350.0 MB",                               // each engine's limit
		"<td class=l>0,0, 1,0, 1,3</td>",               // the opening of each game
		"<td class=l>time-out</td>",                    // the reason
		"<td>1-1-0 (50.0%)</td><td>1-0-1 (75.0%)</td>", // new's record as Black, as White
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Count(s, "<svg") != 4 {
		t.Errorf("%d charts, want Elo, SPRT, move times, memory", strings.Count(s, "<svg"))
	}
	// Nothing from elsewhere: no links, scripts or remote resources.
	if m := regexp.MustCompile(`(?i)(https?:|src=|href=|<script|@import|url\()`).FindString(s); m != "" {
		t.Errorf("the page loads %q", m)
	}
	// The faults table: <old> lost one game by time-out.
	faults := s[strings.Index(s, "Faults by kind"):]
	row := regexp.MustCompile(`<tr><td class=l>&lt;old&gt;</td><td>(\d+)</td>`).FindStringSubmatch(faults)
	if row == nil || row[1] != "1" {
		t.Errorf("faults row of <old>: %v", row)
	}
	if strings.Contains(s, "http-equiv") {
		t.Error("a finished match's page reloads itself")
	}
	p.Running = true
	b.Reset()
	_ = Write(&b, p)
	if !strings.Contains(b.String(), `http-equiv="refresh"`) {
		t.Error("a running match's page does not reload")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.html")
	if err := WriteFile(path, page(t)); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left %d files, want only the page", len(entries))
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("page mode %v, %v; want readable by all", st.Mode(), err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.html"), page(t)); err == nil {
		t.Error("wrote into a directory that does not exist")
	}
}

func TestPoints(t *testing.T) {
	got := points(page(t))
	want := []elo.Result{{Wins: 1}, {Wins: 2}, {Wins: 2, Losses: 1}, {Wins: 2, Losses: 1, Draws: 1}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("after game %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}
