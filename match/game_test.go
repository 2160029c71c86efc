package match

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wuzi/eval"
	"wuzi/match/elo"
	"wuzi/match/engine"
	"wuzi/match/opening"
)

var (
	fakeOnce sync.Once
	fakePath string
	fakeErr  error
	fakeDir  string
)

// TestMain removes the fake engine's build directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if fakeDir != "" {
		os.RemoveAll(fakeDir)
	}
	os.Exit(code)
}

// fake builds testdata/fakeengine once and returns a spec running it with
// the given flags.
func fake(t *testing.T, name string, args ...string) engine.Spec {
	t.Helper()
	fakeOnce.Do(func() {
		fakeDir, fakeErr = os.MkdirTemp("", "wuzi-match-fake")
		if fakeErr != nil {
			return
		}
		fakePath = filepath.Join(fakeDir, "fakeengine")
		out, err := exec.Command("go", "build", "-o", fakePath, "./testdata/fakeengine").CombinedOutput()
		if err != nil {
			fakeErr = err
			fakePath = string(out)
		}
	})
	if fakeErr != nil {
		t.Fatalf("building the fake engine: %v\n%s", fakeErr, fakePath)
	}
	return engine.Spec{Name: name, Command: fakePath, Args: args}
}

func settings() Settings {
	return Settings{Width: 15, Height: 15, Rule: eval.Freestyle,
		TurnTime: 2 * time.Second, MatchTime: 20 * time.Second, Tolerance: time.Second}
}

// quick settings for failures that wait for a deadline.
func quick() Settings {
	s := settings()
	s.TurnTime, s.Tolerance = 400*time.Millisecond, 400*time.Millisecond
	return s
}

func play(t *testing.T, s Settings, black, white engine.Spec, open []opening.Point) *GameResult {
	t.Helper()
	res, err := PlayGame(context.Background(), s, black, white, open)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func contains(lines []string, sub string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, sub) })
}

// blackFive plays a horizontal five at the top while White plays below.
func fiveSeq(t *testing.T) (engine.Spec, engine.Spec) {
	return fake(t, "black", "-mode", "seq", "-moves", "0,0;1,0;2,0;3,0;4,0"),
		fake(t, "white", "-mode", "seq", "-moves", "0,5;1,5;2,5;3,5;4,5")
}

func TestFiveWins(t *testing.T) {
	b, w := fiveSeq(t)
	res := play(t, settings(), b, w, nil)
	if res.Winner != eval.Black || res.Reason != ReasonFive {
		t.Fatalf("got winner %v reason %q (%s), want Black by five", res.Winner, res.Reason, res.Detail)
	}
	if n := len(res.Record.Moves); n != 9 {
		t.Errorf("%d moves recorded, want 9", n)
	}
	if len(res.Times[0]) != 5 || len(res.Times[1]) != 4 {
		t.Errorf("move times %d/%d, want 5/4", len(res.Times[0]), len(res.Times[1]))
	}
}

func TestProtocolSequence(t *testing.T) {
	dir := t.TempDir()
	blog, wlog := filepath.Join(dir, "b.log"), filepath.Join(dir, "w.log")
	b := fake(t, "black", "-mode", "random", "-log", blog)
	b.Options = []engine.Option{{Key: "hash_size", Value: "64"}}
	w := fake(t, "white", "-mode", "junk", "-after", "1", "-log", wlog)
	open, _ := opening.Opening{{DX: 0, DY: 0}, {DX: 1, DY: 0}, {DX: 1, DY: 3}}.Place(15, 15)
	res := play(t, settings(), b, w, open)
	if res.Winner != eval.Black || res.Reason != ReasonUnparseable {
		t.Fatalf("got %v %q, want Black by unparseable", res.Winner, res.Reason)
	}
	read := func(path string) []string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	// White moves first after a three-stone opening: it gets the whole
	// board, its own stone as 1.
	wantW := []string{`"START 15\r"`, `"INFO timeout_turn 2000\r"`, `"INFO timeout_match 20000\r"`,
		`"INFO max_memory 0\r"`, `"INFO game_type 1\r"`, `"INFO rule 0\r"`,
		`"INFO time_left 20000\r"`, `"BOARD\r"`, `"7,7,2\r"`, `"8,7,1\r"`, `"8,10,2\r"`, `"DONE\r"`}
	gotW := read(wlog)
	if len(gotW) < len(wantW) || !slices.Equal(gotW[:len(wantW)], wantW) {
		t.Errorf("white received\n%s\nwant it to start with\n%s", strings.Join(gotW, "\n"), strings.Join(wantW, "\n"))
	}
	if !strings.HasPrefix(gotW[len(wantW)], `"INFO time_left `) || !strings.HasPrefix(gotW[len(wantW)+1], `"TURN `) {
		t.Errorf("white's second request is not time_left + TURN: %v", gotW[len(wantW):])
	}
	if last := gotW[len(gotW)-1]; last != `"END\r"` {
		t.Errorf("white's last line %s, want END", last)
	}
	gotB := read(blog)
	if !slices.Contains(gotB, `"INFO hash_size 64\r"`) {
		t.Errorf("black never got its extra option: %v", gotB)
	}
	i := slices.Index(gotB, `"BOARD\r"`)
	if i < 1 || len(gotB) < i+6 || !slices.Equal(gotB[i:i+6], []string{`"BOARD\r"`, `"7,7,1\r"`, `"8,7,2\r"`, `"8,10,1\r"`, gotB[i+4], `"DONE\r"`}) ||
		!strings.HasSuffix(gotB[i+4], `,2\r"`) {
		t.Errorf("black's first BOARD wrong: %v", gotB)
	}
	if !strings.HasPrefix(gotB[i-1], `"INFO time_left `) {
		t.Errorf("no time_left before black's BOARD: %v", gotB)
	}
}

func TestEmptyBoardRequest(t *testing.T) {
	for _, begin := range []bool{false, true} {
		dir := t.TempDir()
		blog := filepath.Join(dir, "b.log")
		b := fake(t, "black", "-mode", "junk", "-log", blog)
		s := settings()
		s.UseBegin = begin
		play(t, s, b, fake(t, "white"), nil)
		data, _ := os.ReadFile(blog)
		got := string(data)
		if begin != strings.Contains(got, `"BEGIN\r"`) || begin == strings.Contains(got, `"BOARD\r"`+"\n"+`"DONE\r"`) {
			t.Errorf("UseBegin=%v: black received\n%s", begin, got)
		}
	}
}

func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		reason Reason
		output string // a line the loser's output must contain
		detail string
	}{
		{"crash", []string{"-mode", "crash", "-after", "2"}, ReasonCrash, "crashing on purpose", "exit status 3"},
		// The first words of a long dying message are kept with its end.
		{"panic", []string{"-mode", "panic", "-after", "1"}, ReasonCrash, "panic: fakeengine: out of ideas", "exit status 2"},
		{"panicend", []string{"-mode", "panic", "-after", "1"}, ReasonCrash, "frame 39", "exit status 2"},
		{"timeout", []string{"-mode", "timeout", "-after", "1"}, ReasonTimeout, "", "no answer"},
		{"occupied", []string{"-mode", "occupied", "-after", "1"}, ReasonIllegal, "", "occupied"},
		{"offboard", []string{"-mode", "offboard"}, ReasonIllegal, "15,0", "off the 15x15 board"},
		{"junk", []string{"-mode", "junk", "-after", "3"}, ReasonUnparseable, "hello there", "not a move"},
		{"error", []string{"-mode", "error"}, ReasonUnparseable, "ERROR something", "ERROR"},
		{"startfail", []string{"-mode", "startfail"}, ReasonUnparseable, "ERROR unsupported", "to START"},
		{"exitstart", []string{"-mode", "exitstart"}, ReasonCrash, "", "exit status 2"},
		{"missing", nil, ReasonCrash, "", "cannot start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := fake(t, "bad", tc.args...)
			if tc.args == nil {
				bad.Command = filepath.Join(t.TempDir(), "no-such-engine")
			}
			for _, badIsBlack := range []bool{true, false} {
				b, w := bad, fake(t, "good")
				loser, winner := eval.Black, eval.White
				if !badIsBlack {
					b, w = w, b
					loser, winner = winner, loser
				}
				res := play(t, quick(), b, w, nil)
				if res.Winner != winner || res.Reason != tc.reason {
					t.Fatalf("bad as %v: winner %v reason %q (%s), want %v by %q", loser, res.Winner, res.Reason, res.Detail, winner, tc.reason)
				}
				if !strings.Contains(res.Detail, tc.detail) {
					t.Errorf("detail %q does not mention %q", res.Detail, tc.detail)
				}
				if tc.output != "" && !contains(res.Output, tc.output) {
					t.Errorf("output %q lacks %q", res.Output, tc.output)
				}
				if !res.Record.Failure {
					t.Errorf("record not marked as a failure")
				}
			}
		})
	}
}

func TestTimeoutIsMeasured(t *testing.T) {
	// An answer that arrives but too late is a time-out too.
	s := quick()
	slow := fake(t, "slow", "-delay", "1200ms")
	start := time.Now()
	res := play(t, s, slow, fake(t, "good"), nil)
	if res.Winner != eval.White || res.Reason != ReasonTimeout {
		t.Fatalf("winner %v reason %q, want White by time-out", res.Winner, res.Reason)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the time-out took %v to call", d)
	}
}

func TestFirstMoveTimeoutNamesStartup(t *testing.T) {
	// The start-up counts on the first move (as GomocupJudge has it): a
	// slow START leaves little of the first turn, and the record says so.
	s := quick()
	slow := fake(t, "slowstart", "-startdelay", "600ms", "-delay", "300ms")
	res := play(t, s, slow, fake(t, "good"), nil)
	if res.Winner != eval.White || res.Reason != ReasonTimeout {
		t.Fatalf("winner %v reason %q (%s), want White by time-out", res.Winner, res.Reason, res.Detail)
	}
	if !strings.Contains(res.Detail, "first move") || !strings.Contains(res.Detail, "start-up") {
		t.Errorf("detail %q does not name the start-up charged to the first move", res.Detail)
	}
	// A time-out on a later move says nothing of the start-up.
	res = play(t, s, fake(t, "late", "-mode", "timeout", "-after", "1"), fake(t, "good"), nil)
	if res.Reason != ReasonTimeout || strings.Contains(res.Detail, "start-up") {
		t.Errorf("a later move's time-out: reason %q, detail %q", res.Reason, res.Detail)
	}
}

func TestMatchTimeRunsOut(t *testing.T) {
	s := settings()
	s.TurnTime, s.MatchTime, s.Tolerance = time.Second, 500*time.Millisecond, 100*time.Millisecond
	res := play(t, s, fake(t, "slow", "-delay", "150ms"), fake(t, "fast"), nil)
	if res.Winner != eval.White || res.Reason != ReasonTimeout {
		t.Fatalf("winner %v reason %q (%s), want White by time-out", res.Winner, res.Reason, res.Detail)
	}
	if n := len(res.Times[0]); n < 3 || n > 5 {
		t.Errorf("black made %d moves in a 500 ms match at 150 ms a move", n)
	}
}

func TestMessagesKept(t *testing.T) {
	b, _ := fiveSeq(t)
	b.Args = append(b.Args, "-messages")
	_, w := fiveSeq(t)
	res := play(t, settings(), b, w, nil)
	if res.Reason != ReasonFive || len(res.Messages) != 5 {
		t.Fatalf("reason %q, %d messages, want five and 5", res.Reason, len(res.Messages))
	}
	if m := res.Messages[1]; m.Ply != 2 || m.Color != eval.Black || m.Text != "thinking about move 2" {
		t.Errorf("second message %+v", m)
	}
}

func TestPlyLimitDraw(t *testing.T) {
	s := settings()
	s.MaxPlies = 20
	res := play(t, s, fake(t, "a", "-seed", "3"), fake(t, "b", "-seed", "4"), nil)
	if res.Winner != eval.Empty || res.Reason != ReasonPlies || len(res.Record.Moves) != 20 {
		t.Fatalf("winner %v reason %q after %d moves, want a draw by ply limit after 20", res.Winner, res.Reason, len(res.Record.Moves))
	}
}

func TestRenjuFoulThroughEngines(t *testing.T) {
	s := settings()
	s.Rule = eval.Renju
	// Black's fifth stone 9,7 makes two open threes (row 7 and column 9).
	b := fake(t, "black", "-mode", "seq", "-moves", "7,7;8,7;9,8;9,9;9,7")
	w := fake(t, "white", "-mode", "seq", "-moves", "0,14;2,14;4,14;6,14")
	res := play(t, s, b, w, nil)
	if res.Winner != eval.White || res.Reason != ReasonFoul {
		t.Fatalf("winner %v reason %q (%s), want White by foul", res.Winner, res.Reason, res.Detail)
	}
	if res.Record.Failure {
		t.Errorf("a foul is a loss on the board, not a failure")
	}
	if n := len(res.Record.Moves); n != 9 {
		t.Errorf("%d moves recorded, want 9 with the foul", n)
	}
}

func TestRunMatch(t *testing.T) {
	cfg := Config{
		Settings: settings(),
		Engines:  []engine.Spec{fake(t, "a"), fake(t, "b", "-mode", "junk", "-after", "2")},
		Games:    6,
		Parallel: 3,
	}
	var seen []int
	sum, err := Run(context.Background(), cfg, func(d Done, s *Summary) { seen = append(seen, d.Job.Number) })
	if err != nil {
		t.Fatal(err)
	}
	r := sum.Pairs[0]
	if sum.Done != 6 || r.Wins != 6 || r.WinsBy[ReasonUnparseable] != 6 {
		t.Fatalf("done %d, %+v, want 6 wins by unparseable", sum.Done, r)
	}
	slices.Sort(seen)
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("games reported %v", seen)
	}
	if med, worst := sum.MoveTime(0); med <= 0 || worst < med {
		t.Errorf("move times median %v worst %v", med, worst)
	}
}

func TestSelfPlayNames(t *testing.T) {
	cfg := Config{Settings: settings(), Engines: []engine.Spec{fake(t, "same")}, Games: 2, Parallel: 2}
	cfg.Settings.MaxPlies = 6
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sum.Names, []string{"same", "same#2"}) || sum.Done != 2 || sum.Pairs[0].Draws != 2 {
		t.Fatalf("names %v, done %d, %+v", sum.Names, sum.Done, sum.Pairs[0].Result)
	}
}

func TestSPRTStops(t *testing.T) {
	// After a three-stone opening and a 6-stone limit, the opponent's
	// second move only exists when it plays White: it junks it. So the
	// engine under test wins as Black and draws as White.
	test, _ := elo.ParseSPRT("0,100")
	cfg := Config{
		Settings: settings(),
		Engines:  []engine.Spec{fake(t, "a"), fake(t, "b", "-mode", "junk", "-after", "1")},
		Games:    60,
		Parallel: 2,
		SPRT:     &test,
	}
	cfg.Settings.MaxPlies = 6
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.SPRT != elo.AcceptH1 || sum.Done >= 60 || !strings.Contains(sum.Stopped, "H1") {
		t.Fatalf("SPRT %v after %d games (%+v), stopped %q", sum.SPRT, sum.Done, sum.Pairs[0].Result, sum.Stopped)
	}
}

func TestInterrupt(t *testing.T) {
	cfg := Config{
		Settings: settings(),
		Engines:  []engine.Spec{fake(t, "a", "-delay", "50ms"), fake(t, "b", "-delay", "50ms")},
		Games:    4,
		Parallel: 2,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	sum, err := Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stopped != "interrupted" || sum.Done != 0 {
		t.Fatalf("stopped %q with %d games done", sum.Stopped, sum.Done)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("interrupting took %v", d)
	}
}

// TestLenient: an ERROR line followed by a move loses under Piskvork's
// rules (the default) and is skipped under GomocupJudge's (--lenient).
func TestLenient(t *testing.T) {
	bad := fake(t, "bad", "-mode", "errormove", "-after", "1")
	strict := play(t, quick(), bad, fake(t, "good"), nil)
	if strict.Reason != ReasonUnparseable || strict.Winner != eval.White {
		t.Errorf("strict: winner %v by %q, want White by unparseable", strict.Winner, strict.Reason)
	}
	s := quick()
	s.Lenient = true
	lenient := play(t, s, bad, fake(t, "good"), nil)
	if lenient.Reason == ReasonUnparseable || lenient.Record.Failure {
		t.Errorf("lenient: ended by %q (%s); the ERROR line should have been skipped", lenient.Reason, lenient.Detail)
	}
}

// TestMemoryLimit: an engine whose process tree's USS goes over max_memory
// while it thinks loses by memory; one that stays under does not, and its
// peak is measured.
func TestMemoryLimit(t *testing.T) {
	if !engine.MemoryMeasured() {
		t.Skip("memory is measured on Linux only")
	}
	// Generous times: the game over the limit ends at once anyway, and a
	// busy machine must not turn it into a time-out.
	s := settings()
	s.MaxMemory = 100 << 20
	for _, badIsBlack := range []bool{true, false} {
		hog, good := fake(t, "hog", "-mode", "memory", "-mb", "150", "-after", "1"), fake(t, "good")
		b, w := hog, good
		loser := eval.Black
		if !badIsBlack {
			b, w, loser = good, hog, eval.White
		}
		start := time.Now()
		res := play(t, s, b, w, nil)
		if res.Winner != loser.Opp() || res.Reason != ReasonMemory {
			t.Fatalf("hog as %v: winner %v by %q (%s), want %v by memory", loser, res.Winner, res.Reason, res.Detail, loser.Opp())
		}
		if !res.Record.Failure || !strings.Contains(res.Detail, "limit 100.0 MB") {
			t.Errorf("failure %v, detail %q", res.Record.Failure, res.Detail)
		}
		if peak := res.PeakMemory[colorIndex(loser)]; peak <= s.MaxMemory {
			t.Errorf("peak %d bytes, not over the limit", peak)
		}
		if len(res.Times[colorIndex(loser)]) != 1 {
			t.Errorf("the hog made %d moves, want 1 before the one over the limit", len(res.Times[colorIndex(loser)]))
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the game took %v", d)
		}
	}

	// 30 MiB a move for two moves stays under 100 MiB.
	s.MaxPlies = 4
	res := play(t, s, fake(t, "small", "-mode", "memory", "-mb", "30"), fake(t, "good"), nil)
	if res.Reason != ReasonPlies {
		t.Fatalf("winner %v by %q (%s), want a draw by ply limit", res.Winner, res.Reason, res.Detail)
	}
	t.Logf("peaks: %.1f MiB (60 MiB allocated), %.1f MiB", float64(res.PeakMemory[0])/(1<<20), float64(res.PeakMemory[1])/(1<<20))
	if peak := res.PeakMemory[0]; peak < 60<<20 || peak > 90<<20 {
		t.Errorf("peak %.1f MiB, want about 60 MiB and the fake engine", float64(peak)/(1<<20))
	}
	if peak := res.PeakMemory[1]; peak <= 0 || peak > 30<<20 {
		t.Errorf("the plain fake engine's peak %.1f MiB", float64(peak)/(1<<20))
	}
}

func TestShard(t *testing.T) {
	for _, bad := range []string{"4/4", "-1/4", "1", "a/b", "0/0x"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	sh, err := ParseShard("2/4")
	if err != nil || sh != (Shard{2, 4}) || sh.String() != "2/4" {
		t.Fatalf("%+v %v", sh, err)
	}
	// Every game in exactly one shard.
	for n := 1; n <= 20; n++ {
		in := 0
		for i := range 4 {
			if (Shard{i, 4}).Has(n) {
				in++
			}
		}
		if in != 1 || !(Shard{}).Has(n) {
			t.Errorf("game %d in %d shards", n, in)
		}
	}
}

// TestRandomOpenings: with Random and no openings the schedule draws fresh
// openings from the seed: the same for the same seed, others for another.
func TestRandomOpenings(t *testing.T) {
	cfg := Config{Settings: settings(), Engines: []engine.Spec{{Name: "a"}, {Name: "b"}}, Games: 20, Random: true, Seed: 1}
	set := func(seed uint64) []string {
		cfg.Seed = seed
		placed, _ := cfg.Placed()
		var out []string
		for _, j := range Schedule(cfg, len(placed)) {
			out = append(out, fmt.Sprint(placed[j.Opening]))
		}
		return out
	}
	if a, b := set(1), set(1); !slices.Equal(a, b) {
		t.Error("seed 1 twice scheduled different openings")
	}
	if a, b := set(1), set(2); slices.Equal(a, b) {
		t.Error("seeds 1 and 2 scheduled the same openings")
	}
	cfg.Random = false
	if placed, _ := cfg.Placed(); len(placed) != len(opening.Default()) {
		t.Errorf("in order: %d openings, want the built-in set", len(placed))
	}
}
