package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// session runs the engine on the given input lines and returns its output
// lines.
// With WUZI_ENGINE_CMD set, the engine is that external program instead
// (see external_test.go): the same sessions check a built binary, such as
// the Windows engine under Wine.
func session(t *testing.T, args []string, lines ...string) []string {
	t.Helper()
	input := strings.Join(lines, "\r\n") + "\r\n"
	var output string
	if cmd := externalCommand(); cmd != nil {
		output = externalSession(t, cmd, args, input)
	} else {
		// In-process sessions share one test process (and its Go memory
		// limit): a small table keeps them quick under the race detector,
		// which makes large allocations slow. brain's tests size tables.
		args = append([]string{"--hash", "16"}, args...)
		var out, errOut bytes.Buffer
		if code := run(args, strings.NewReader(input), &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		output = out.String()
	}
	var answers []string
	for _, l := range strings.Split(strings.TrimRight(output, "\n"), "\n") {
		if !allowed.MatchString(l) {
			t.Errorf("line a manager could misread: %q", l)
		}
		if !strings.HasPrefix(l, "MESSAGE") && !strings.HasPrefix(l, "DEBUG") {
			answers = append(answers, l)
		}
	}
	return answers
}

var allowed = regexp.MustCompile(`^(\d+,\d+|\d+,\d+ \d+,\d+ \d+,\d+|\d+,\d+ \d+,\d+|OK|SWAP|FORBID (\d{4})*\.|(ERROR|UNKNOWN|MESSAGE|DEBUG)( .*)?|name=".*)$`)

var moveRe = regexp.MustCompile(`^\d+,\d+$`)

func expect(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i, w := range want {
		ok := got[i] == w
		if strings.HasPrefix(w, "~") {
			ok = regexp.MustCompile("^" + w[1:] + "$").MatchString(got[i])
		}
		if !ok {
			t.Errorf("answer %d: got %q, want %q (all: %q)", i, got[i], w, got)
		}
	}
}

const move = `~\d+,\d+`

// TestEngineSession drives the real engine through a whole session, the
// way the managers do, including bad input it must survive.
func TestEngineSession(t *testing.T) {
	got := session(t, nil,
		"START 15", "INFO timeout_turn 300", "INFO timeout_match 10000", "INFO max_memory 367001600",
		"INFO rule 0", "INFO time_left 10000", "BEGIN",
		"TURN 7,8", "TURN 7,8", "TURN 15,3", "TURN a,b",
		"TAKEBACK 7,8", "TURN 0,0",
		"BOARD", "7,7,1", "8,8,2", "7,7,2", "DONE",
		"BOARD", "7,7,1", "8,8,2", "DONE",
		"ABOUT", "START 0", "START 10000", "RESTART", "FOOBAR 1",
		"INFO timeout_turn -5", "BOARD", "DONE",
		"END")
	expect(t, got,
		"OK", move, // START, BEGIN
		move,        // TURN 7,8
		"~ERROR .*", // occupied
		"~ERROR .*", // off board
		"~ERROR .*", // garbage
		"OK", move,  // TAKEBACK, TURN 0,0
		"~ERROR .*", // duplicate stone
		move,        // BOARD
		`~name="Wuzi", version=".*", author=".*", country=".*"`,
		"~ERROR .*", "~ERROR .*", // START 0, START 10000
		"OK",          // RESTART
		"~UNKNOWN .*", // FOOBAR
		move)          // empty BOARD: play first
}

// TestRuleAndForbid checks renju over the protocol: YXSHOWFORBID lists the
// foul of the Gomocup check, and the engine does not play it.
func TestRuleAndForbid(t *testing.T) {
	got := session(t, nil,
		"START 15", "INFO rule 4", "INFO timeout_turn 500",
		"YXBOARD", "7,7,1", "7,8,2", "8,6,1", "8,8,2", "7,9,1", "8,5,2", "8,10,1", "8,11,2", "DONE",
		"YXSHOWFORBID",
		"BOARD", "7,7,1", "7,8,2", "8,6,1", "8,8,2", "7,9,1", "8,5,2", "8,10,1", "8,11,2", "DONE",
		"END")
	expect(t, got, "OK", "FORBID 0608.", move)
	if got[2] == "6,8" {
		t.Errorf("played the foul 6,8")
	}
}

// TestSwap2 answers the three SWAP2BOARD cases.
func TestSwap2(t *testing.T) {
	got := session(t, nil,
		"START 15", "INFO timeout_turn 500",
		"SWAP2BOARD", "DONE",
		"SWAP2BOARD", "7,7", "8,7", "8,10", "DONE",
		"SWAP2BOARD", "7,7", "8,7", "8,10", "6,6", "9,9", "DONE",
		"END")
	if len(got) != 4 {
		t.Fatalf("got %q", got)
	}
	if !regexp.MustCompile(`^\d+,\d+ \d+,\d+ \d+,\d+$`).MatchString(got[1]) {
		t.Errorf("empty board: got %q, want three moves", got[1])
	}
	for _, a := range got[2:] {
		if a != "SWAP" && !moveRe.MatchString(a) {
			t.Errorf("got %q, want SWAP or one move", a)
		}
	}
}

func TestFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "pbrain-wuzi ") {
		t.Errorf("--version: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errOut); code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "--hash") {
		t.Errorf("--help: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	errOut.Reset()
	// Two search threads play a move like one.
	in := "START 15\nINFO timeout_turn 300\nTURN 7,7\nEND\n"
	lines := func() []string { return strings.Fields(out.String()) }
	if code := run([]string{"--threads", "2", "--hash", "8"}, strings.NewReader(in), &out, &errOut); code != 0 || !moveRe.MatchString(lines()[len(lines())-1]) {
		t.Errorf("--threads 2: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	// Tuning parameters: a known one plays, an unknown or unusable one
	// is refused before the protocol starts.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"--param", "futility=170", "--param", "lmrscale=90"}, strings.NewReader(in), &out, &errOut); code != 0 || !moveRe.MatchString(lines()[len(lines())-1]) {
		t.Errorf("--param: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	for _, bad := range []string{"nosuch=1", "blockext=12", "futility"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"--param", bad}, strings.NewReader(in), &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "--param") {
			t.Errorf("--param %s: exit %d, stdout %q, stderr %q", bad, code, out.String(), errOut.String())
		}
	}
	errOut.Reset()
	if code := run([]string{"--nonsense"}, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "nonsense") {
		t.Errorf("bad flag: exit %d, stderr %q", code, errOut.String())
	}
}

// TestOddInput covers inputs that once broke the engine: taking back a
// blocked cell, absurd table and time sizes, YXNBEST, and swap2 on the
// smallest board.
func TestOddInput(t *testing.T) {
	got := session(t, nil,
		"START 15", "INFO timeout_turn 300",
		"BOARD", "0,0,3", "7,7,2", "DONE", // a move
		"TAKEBACK 0,0", "TURN 4,4", // OK, a move
		"INFO max_memory 100000000", "INFO hash_size 99999999999", // clamped, then capped by max_memory
		"INFO timeout_turn 9223372036854775807", "INFO timeout_turn 200",
		"YXBOARD", "7,7,1", "8,8,2", "DONE",
		"YXNBEST 3", "YXNBEST 3", // analysis (that it plays nothing is checked in brain)
		"START 5", "SWAP2BOARD", "DONE",
		"END")
	if len(got) != 8 {
		t.Fatalf("got %q", got)
	}
	for i, want := range []string{"OK", move, "OK", move, move, move, "OK", `~\d+,\d+ \d+,\d+ \d+,\d+`} {
		expect(t, got[i:i+1], want)
	}
}

// TestGameCommandsBeforeStart: a game command before any START gets one
// ERROR line (there is no board yet), and START is then served at once.
func TestGameCommandsBeforeStart(t *testing.T) {
	got := session(t, nil,
		"INFO timeout_turn 200", "BEGIN", "TURN 7,7", "BOARD", "7,7,1", "DONE",
		"TAKEBACK 7,7", "RESTART", "SWAP2BOARD", "DONE",
		"START 15", "BEGIN", "END")
	expect(t, got,
		"~ERROR no game started.*", // BEGIN
		"~ERROR no game started.*", // TURN
		"~ERROR no game started.*", // BOARD
		"~ERROR no game started.*", // TAKEBACK
		"~ERROR no game started.*", // RESTART
		"~ERROR no game started.*", // SWAP2BOARD
		"OK", move)
}

// TestOverlongUnansweredCommands: a command that is never answered (INFO,
// STOP, YXSTOP, YXHASHCLEAR) gets no answer line when it is longer than the
// line cap either; Piskvork would read one as the answer to its next
// command. The next TURN is answered by its move.
func TestOverlongUnansweredCommands(t *testing.T) {
	long := strings.Repeat("9", 70<<10)
	got := session(t, nil,
		"START 15", "INFO timeout_turn 200", "INFO timeout_turn "+long, "YXSTOP "+long,
		"YXHASHCLEAR "+long, "TURN 7,7", "TURN "+long, "END")
	expect(t, got, "OK", move, `~UNKNOWN TURN 9+\.\.\. \(line too long\)`)
}

// benchNodes runs "pbrain-wuzi ARGS bench --depth 4" in process and returns
// the node count it prints.
func benchNodes(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	args = append(append([]string{"--hash", "16"}, args...), "bench", "--depth", "4")
	if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
	m := regexp.MustCompile(`Nodes searched\s*:\s*(\d+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("%v: no node count in %q", args, out.String())
	}
	return m[1]
}

// TestBenchParams checks that bench searches with the --param values it is
// given, the search's and the evaluation's, so that a tuner's signature is
// that of the tuned search, and that it is the same from run to run.
func TestBenchParams(t *testing.T) {
	plain := benchNodes(t)
	if again := benchNodes(t); again != plain {
		t.Errorf("bench is not deterministic: %s then %s nodes", plain, again)
	}
	for _, p := range []string{"futility=50", "evthreat=150"} {
		if n := benchNodes(t, "--param", p); n == plain {
			t.Errorf("bench --param %s searched %s nodes, as without it: the parameter was ignored", p, n)
		}
	}
	if n := benchNodes(t, "--param", "aspiration=60"); n != plain {
		t.Errorf("bench with the default aspiration set explicitly searched %s nodes, want %s", n, plain)
	}
	if n := benchNodes(t, "--cut-stats"); n != plain {
		t.Errorf("bench --cut-stats searched %s nodes, want %s: counting changed the search", n, plain)
	}
}

// TestBenchCutStats checks that bench --cut-stats prints its tables, a line
// a node kind with five counts and the first-move rate, and the ends of
// the nodes with their totals, and bench alone does not.
func TestBenchCutStats(t *testing.T) {
	for _, withStats := range []bool{false, true} {
		args := []string{"--hash", "16", "bench", "--depth", "3"}
		if withStats {
			args = append(args, "--cut-stats")
		}
		var out, errOut bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		row := regexp.MustCompile(`(?m)^non-PV, quiet +\d+ +\d+ +\d+ +\d+ +\d+ +(\d+\.\d|-)$`)
		if got := row.MatchString(out.String()); got != withStats {
			t.Errorf("%v: cut table printed %v, want %v:\n%s", args, got, withStats, out.String())
		}
		ends := regexp.MustCompile(`(?m)^all( +\d+){9} +(\d+\.\d\d|-) +(\d+\.\d\d|-)$`)
		if got := ends.MatchString(out.String()); got != withStats {
			t.Errorf("%v: node table printed %v, want %v:\n%s", args, got, withStats, out.String())
		}
	}
}

// benchLines runs pbrain-wuzi with args in process and returns each
// position line's node count by its name, and the exit code and stderr.
func benchLines(t *testing.T, args ...string) (map[string]string, int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	nodes := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(\S+) +depth +\d+ move .* nodes +(\d+) time`).FindAllStringSubmatch(out.String(), -1) {
		nodes[m[1]] = m[2]
	}
	return nodes, code, errOut.String()
}

// TestBenchPositions checks that bench --positions searches a file's
// positions, under the rule it is given, as the built-in bench searches
// the same moves (the same nodes), and that a bad file, rule or size is a
// clear error, not a search.
func TestBenchPositions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	builtin, code, errText := benchLines(t, "--hash", "16", "bench", "--depth", "4")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errText)
	}
	// The built-in freestyle and renju openings, with a comment and a
	// blank line between.
	f := write("pos.txt", "# two openings\n7,7;8,7;8,10\n\n7,7;8,6;9,7\n")
	for _, c := range []struct{ rule, name, want string }{
		{"0", "line-2", "freestyle-15-opening"},
		{"4", "line-4", "renju-15-opening"},
	} {
		got, code, errText := benchLines(t, "--hash", "16", "bench", "--depth", "4", "--positions", f, "--rule", c.rule)
		if code != 0 {
			t.Fatalf("--rule %s: exit %d: %s", c.rule, code, errText)
		}
		if len(got) != 2 || got["line-2"] == "" || got["line-4"] == "" {
			t.Fatalf("--rule %s: searched %v, want the file's lines 2 and 4 only", c.rule, got)
		}
		if got[c.name] != builtin[c.want] {
			t.Errorf("--rule %s: %s searched %s nodes, the built-in %s %s", c.rule, c.name, got[c.name], c.want, builtin[c.want])
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--positions", write("bad.txt", "7,7;8,x\n")}, 2, "line 1: bad move"},
		{[]string{"--positions", write("off.txt", "# c\n7,7;15,3\n")}, 2, "line 2: move 15,3 off the 15x15 board"},
		{[]string{"--positions", write("empty.txt", "# nothing\n\n")}, 2, "no positions"},
		{[]string{"--positions", filepath.Join(dir, "missing.txt")}, 2, "missing.txt"},
		{[]string{"--positions", f, "--size", "40"}, 2, "size 40"},
		{[]string{"--positions", f, "--rule", "12"}, 2, "rule 12"},
		{[]string{"--positions", write("twice.txt", "7,7;8,8;7,7\n")}, 1, "7,7 played twice"},
		{[]string{"--rule", "4"}, 2, "for bench --positions"},
	} {
		args := append([]string{"--hash", "16", "bench", "--depth", "2"}, c.args...)
		var out, errOut bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errOut)
		if code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d and %q", c.args, code, out.String(), errOut.String(), c.code, c.want)
		}
	}
	// Outside bench the file is refused, not ignored: the engine would
	// otherwise start speaking the protocol.
	var out, errOut bytes.Buffer
	if code := run([]string{"--positions", f}, strings.NewReader("ABOUT\nEND\n"), &out, &errOut); code != 2 || out.Len() != 0 {
		t.Errorf("--positions without bench: exit %d, output %q; want exit 2 and nothing on stdout", code, out.String())
	}
}
