package search

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/match/results"
)

// The hard tactical suite: positions from Wuzi's own games (testdata/
// tactics.txt) that the root threat search of earlier builds could not
// settle: long wins by continuous threats, and defences where the opponent
// threatens one and only a few moves stop it. Made by TestMakeTactics from
// PSQ files with the project's own solvers at large budgets.

var (
	makeTactics = flag.String("make-tactics", "", "read the PSQ games in this folder and write testdata/ + -tactics-out")
	tacticsRule = flag.Int("tactics-rule", 0, "rule of the games read by -make-tactics")
	tacticsOut  = flag.String("tactics-out", "tactics.txt", "file in testdata that -make-tactics writes (the suite is every testdata/tactics*.txt)")
	tacticsFrom = flag.String("tactics-games", "", "comma-separated wuzi-match results files: TestMakeTacticsFromGames reads the games the engine named by -tactics-engine lost")
	tacticsName = flag.String("tactics-engine", "Wuzi", "the engine whose lost games -tactics-games reads")
)

// Budgets the suite's answers are proven with: far beyond what a move's
// root search spends.
const (
	tacticsPlies = 35
	tacticsNodes = 200_000
)

type tactic struct {
	kind    string // "vct": the side to move wins; "defence": it must stop the opponent's
	rule    eval.Rule
	size    int
	moves   []eval.Pos
	answers []eval.Pos // defence: every move after which the opponent has no VCT
	plies   int        // vct: the budget the win was first found at
}

func fmtMoves(b *eval.Board, ms []eval.Pos) string {
	var parts []string
	for _, p := range ms {
		x, y := b.XY(p)
		parts = append(parts, fmt.Sprintf("%d,%d", x, y))
	}
	return strings.Join(parts, ";")
}

func parseMoves(b *eval.Board, s string) ([]eval.Pos, error) {
	var out []eval.Pos
	if s == "-" {
		return nil, nil
	}
	for _, f := range strings.Split(s, ";") {
		var x, y int
		if _, err := fmt.Sscanf(f, "%d,%d", &x, &y); err != nil || !b.Inside(x, y) {
			return nil, fmt.Errorf("bad move %q", f)
		}
		out = append(out, b.Pos(x, y))
	}
	return out, nil
}

// loadTactics reads testdata/tactics.txt: "kind rule size plies moves
// answers" a line, moves as x,y;x,y (0-based), "-" for none.
func loadTactics(t *testing.T) []tactic {
	files, _ := filepath.Glob(filepath.Join("testdata", "tactics*.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/tactics*.txt")
	}
	var out []tactic
	for _, name := range files {
		out = append(out, loadTacticsFile(t, name)...)
	}
	return out
}

// loadTacticsFile reads one suite file.
func loadTacticsFile(t *testing.T, name string) []tactic {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tactic
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Fields(line)
		if len(col) != 6 {
			t.Fatalf("%s:%d: %d fields", name, n, len(col))
		}
		r, err1 := strconv.Atoi(col[1])
		size, err2 := strconv.Atoi(col[2])
		plies, err3 := strconv.Atoi(col[3])
		rule, err4 := eval.ParseRule(r)
		if err := cmpErr(err1, err2, err3, err4); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		b := setup(t, rule, size)
		moves, err1 := parseMoves(b, col[4])
		answers, err2 := parseMoves(b, col[5])
		if err := cmpErr(err1, err2); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, tactic{kind: col[0], rule: rule, size: size, moves: moves, answers: answers, plies: plies})
	}
	return out
}

func cmpErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// replay sets a tactic's position up, checking every move is legal.
func (tc tactic) replay(t *testing.T) *eval.Board {
	t.Helper()
	b := setup(t, tc.rule, tc.size)
	for i, p := range tc.moves {
		if !b.IsEmpty(p) || (b.SideToMove() == eval.Black && b.IsForbidden(p)) || b.WinsAt(p, b.SideToMove()) {
			t.Fatalf("move %d (%v) is not a legal, non-winning move", i+1, xy(b, p))
		}
		b.Play(p)
	}
	return b
}

// TestHardTactics checks the suite's answers with the solvers at the
// suite's budgets: every VCT is found and played out to a five against a
// depth-6 defender, and in every defence position the opponent's threat
// is there and the first listed answer stops it. With -suite=1s it also
// plays the suite through the whole search and reports the solve rate.
func TestHardTactics(t *testing.T) {
	suite := loadTactics(t)
	count := map[string]int{}
	for _, tc := range suite {
		count[tc.kind]++
	}
	if count["vct"] < 10 || count["defence"] < 10 {
		t.Fatalf("suite too small: %v", count)
	}
	for i, tc := range suite {
		if (testing.Short() || raceDetector) && i%5 != 0 {
			continue
		}
		b := tc.replay(t)
		s := New(16)
		s.b = b
		s.resetArea()
		switch tc.kind {
		case "vct":
			p, ok := s.vctRoot(tacticsPlies, tacticsNodes)
			if !ok {
				t.Errorf("%d: the VCT is not found", i)
				continue
			}
			if !vctConverts(b, p, b.SideToMove()) {
				// Suite position 44 was the case that the old solver
				// lost: after the defender's 13,5 it could not find the
				// win again (Rapfi proves a win in 15 there).
				t.Errorf("%d: the VCT starting %v was not converted", i, xy(b, p))
			}
		case "defence":
			us := b.SideToMove()
			b.SetSideToMove(us.Opp())
			_, threat := s.vctRoot(tacticsPlies, tacticsNodes)
			b.SetSideToMove(us)
			if !threat {
				t.Errorf("%d: the opponent has no VCT", i)
			}
			// The first answer is checked here; -suite checks them all.
			for _, a := range tc.answers[:1] {
				s.play(a)
				_, still := s.vctRoot(tacticsPlies, tacticsNodes)
				s.undo()
				if still {
					t.Errorf("%d: answer %v does not stop the VCT", i, xy(b, a))
				}
			}
		default:
			t.Fatalf("%d: unknown kind %q", i, tc.kind)
		}
	}
	if *suiteTime > 0 {
		playTactics(t, suite, *suiteTime)
	}
}

// vctConverts plays first for att and then checks that att wins within
// 60 plies, att playing the threat solver's VCT whenever it finds one (see
// playOut).
func vctConverts(b *eval.Board, first eval.Pos, att eval.Color) bool {
	return playOut(b, first, att, 60, true)
}

// playTactics searches every position for d (soft deadline d/2) and counts
// the positions solved: a VCT played out to a five, a defence answered by
// one of the listed moves.
func playTactics(t *testing.T, suite []tactic, d time.Duration) {
	solved := map[string]int{}
	var times []time.Duration
	for i, tc := range suite {
		b := tc.replay(t)
		att := b.SideToMove()
		s := New(32)
		start := time.Now()
		res := s.Search(context.Background(), b, Limits{Soft: start.Add(d / 2), Hard: start.Add(d)}, nil)
		times = append(times, time.Since(start))
		ok := false
		if tc.kind == "vct" {
			ok = playsOut(b, res.Move, att)
		} else {
			ok = slices.Contains(tc.answers, res.Move)
		}
		if ok {
			solved[tc.kind]++
		} else {
			t.Logf("unsolved %d: %s, played %v (%s)", i, tc.kind, xy(b, res.Move), res.Reason)
		}
	}
	slices.Sort(times)
	count := map[string]int{}
	for _, tc := range suite {
		count[tc.kind]++
	}
	t.Logf("hard suite at %v: vct %d of %d, defence %d of %d; median time %v", d,
		solved["vct"], count["vct"], solved["defence"], count["defence"], times[len(times)/2])
}

// TestMakeTactics writes testdata/tactics.txt from the PSQ games in the
// folder given by -make-tactics (skipped without it). A position enters
// the suite when the root search of the build before the new threat
// search (14 plies, 40 k nodes) could not settle it:
//   - vct: the side to move has no VCF, has a VCT within tacticsPlies, and
//     none within 14 plies and 40 k nodes;
//   - defence: the side to move has no VCT, the opponent has one, and at
//     most a third of the candidate moves stop it (all of them listed).
func TestMakeTactics(t *testing.T) {
	if *makeTactics == "" {
		t.Skip("run with -make-tactics=DIR to rebuild the suite")
	}
	rule, err := eval.ParseRule(*tacticsRule)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(*makeTactics, "*.psq"))
	out, err := os.Create(filepath.Join("testdata", *tacticsOut))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	fmt.Fprintf(out, "# kind rule size plies moves answers  (made by TestMakeTactics -tactics-rule=%d from %d PSQ games of Wuzi's; 0-based x,y)\n", *tacticsRule, len(files))
	seen := map[uint64]bool{}
	count := map[string]int{}
	for _, file := range files {
		size, moves := readPSQ(t, file)
		b := setup(t, rule, size)
		for _, p := range moves {
			if !b.IsEmpty(p) {
				break
			}
			b.Play(p)
			if b.LastMoveWins() || b.Ply() < 8 || b.Ply() > 40 || seen[b.Hash()] {
				continue
			}
			seen[b.Hash()] = true
			if count["vct"] >= 25 && count["defence"] >= 25 {
				break
			}
			if line, kind := classify(b, count); line != "" {
				count[kind]++
				fmt.Fprintln(out, line)
			}
		}
	}
	t.Logf("%d files: %v", len(files), count)
}

// TestMakeTacticsFromGames writes testdata/<-tactics-out> from the games
// the engine named by -tactics-engine lost in the wuzi-match results files
// of -tactics-games (skipped without it): the positions where it was to
// move, from ply 6 to two plies before the end, classified as classify
// does (at most two threatened positions a game). It keeps every VCT,
// every threatened position where the engine's move in the game was not
// one of the answers, and others spread evenly, 50 in all.
func TestMakeTacticsFromGames(t *testing.T) {
	if *tacticsFrom == "" {
		t.Skip("run with -tactics-games=FILE[,FILE] -tactics-out=NAME to rebuild a suite from match games")
	}
	type entry struct {
		line, kind string
		missed     bool // the engine's move in the game was not an answer
	}
	var all []entry
	seen := map[uint64]bool{}
	games := 0
	for _, name := range strings.Split(*tacticsFrom, ",") {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := results.Read(name, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rule, err := eval.ParseRule(file.Header.Rule)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range file.Games {
			us := eval.Black
			if g.White == *tacticsName {
				us = eval.White
			} else if g.Black != *tacticsName {
				continue
			}
			if g.Result == "1/2-1/2" || (g.Result == "1-0") == (us == eval.Black) {
				continue // not lost
			}
			games++
			b := setup(t, rule, file.Header.Width)
			threatened := 0
			for _, m := range g.Moves[:max(0, len(g.Moves)-2)] {
				p := b.Pos(m[0], m[1])
				if b.SideToMove() == us && b.Ply() >= 6 && !seen[b.Hash()] && threatened < 2 {
					seen[b.Hash()] = true
					if line, kind := classify(b, map[string]int{}); line != "" {
						missed := false
						if kind == "defence" {
							threatened++
							col := strings.Fields(line)
							missed = !strings.Contains(";"+col[5]+";", fmt.Sprintf(";%d,%d;", m[0], m[1]))
						}
						all = append(all, entry{line, kind, missed})
					}
				}
				b.Play(p)
			}
		}
	}
	var keep, rest []entry
	for _, e := range all {
		if e.kind == "vct" || e.missed {
			keep = append(keep, e)
		} else {
			rest = append(rest, e)
		}
	}
	if n := 50 - len(keep); n > 0 && len(rest) > 0 {
		step := float64(len(rest)) / float64(n)
		for i := 0; i < n && int(float64(i)*step) < len(rest); i++ {
			keep = append(keep, rest[int(float64(i)*step)])
		}
	}
	out, err := os.Create(filepath.Join("testdata", *tacticsOut))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	fmt.Fprintf(out, "# kind rule size plies moves answers  (made by TestMakeTacticsFromGames from the %d games %s lost in %s; 0-based x,y)\n", games, *tacticsName, *tacticsFrom)
	for _, e := range all {
		if slices.ContainsFunc(keep, func(k entry) bool { return k.line == e.line }) {
			fmt.Fprintln(out, e.line)
		}
	}
	t.Logf("%d lost games, %d positions classified, %d kept", games, len(all), len(keep))
}

// classify returns a suite line for b, or "".
func classify(b *eval.Board, count map[string]int) (string, string) {
	us := b.SideToMove()
	them := us.Opp()
	if hasFivePoint(b, us) || hasFivePoint(b, them) {
		return "", ""
	}
	s := New(32)
	s.b = b
	s.resetArea()
	if _, ok := s.vcfRoot(0); ok {
		return "", ""
	}
	moves := movesOf(b)
	head := func(kind string, plies int) string {
		return fmt.Sprintf("%s %d %d %d %s", kind, b.Rule(), b.Width(), plies, fmtMoves(b, moves))
	}
	if _, ok := s.vctRoot(tacticsPlies, tacticsNodes); ok {
		if count["vct"] >= 25 {
			return "", ""
		}
		s.TT.Clear()
		if _, easy := s.vctRoot(14, 40000); easy {
			return "", ""
		}
		for d := 3; d <= tacticsPlies; d += 2 {
			s.TT.Clear()
			if _, ok := s.vctRoot(d, tacticsNodes); ok {
				return head("vct", d) + " -", "vct"
			}
		}
		return "", ""
	}
	if count["defence"] >= 25 {
		return "", ""
	}
	b.SetSideToMove(them)
	_, threat := s.vctRoot(tacticsPlies, tacticsNodes)
	b.SetSideToMove(us)
	if !threat {
		return "", ""
	}
	cands := s.rootMoves()
	var answers []eval.Pos
	for _, p := range cands {
		s.play(p)
		_, still := s.vctRoot(tacticsPlies, tacticsNodes)
		s.undo()
		if !still {
			answers = append(answers, p)
		}
	}
	if len(answers) == 0 || 3*len(answers) > len(cands) {
		return "", ""
	}
	return head("defence", 0) + " " + fmtMoves(b, answers), "defence"
}

// readPSQ reads a Piskvork PSQ file: the size from its header, then 1-based
// x,y[,ms] lines up to the first line that is not a move.
func readPSQ(t *testing.T, path string) (int, []eval.Pos) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r", ""), "\n")
	var w, h int
	if _, err := fmt.Sscanf(lines[0], "Piskvorky %dx%d", &w, &h); err != nil || w != h {
		t.Fatalf("%s: header %q", path, lines[0])
	}
	b := setup(t, eval.Freestyle, w)
	var out []eval.Pos
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) < 2 {
			break
		}
		x, err1 := strconv.Atoi(f[0])
		y, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || !b.Inside(x-1, y-1) {
			break
		}
		out = append(out, b.Pos(x-1, y-1))
	}
	return w, out
}
