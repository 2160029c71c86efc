package webboard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wuzi/match/engine"
)

// engineArg makes the test binary the built-in engine, so that tests play
// the real Wuzi without building cmd/wuzi-board.
const engineArg = "webboard-test-engine"

var fakePath string

func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == engineArg {
		if err := ServeEngine(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "webboard-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakePath = filepath.Join(dir, "fakeengine")
	if out, err := exec.Command("go", "build", "-o", fakePath, "../match/testdata/fakeengine").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the fake engine: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// wuziSpec runs the real engine (this test binary in engine mode).
func wuziSpec() engine.Spec {
	return engine.Spec{Name: "Wuzi", Command: os.Args[0], Args: []string{engineArg},
		Options: []engine.Option{{Key: "hash_size", Value: "16384"}}} // KiB: keep tests light
}

// fakeSpec runs the fake engine of match's tests with the given flags.
func fakeSpec(name string, args ...string) engine.Spec {
	return engine.Spec{Name: name, Command: fakePath, Args: args}
}

type tserver struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

func newTestServer(t *testing.T, cfg Config) *tserver {
	t.Helper()
	if cfg.MaxMemory == 0 {
		// Wuzi runs with a 16 MiB table (wuziSpec); the race detector's
		// shadow memory must not count as the engine's.
		cfg.MaxMemory = 1 << 30
	}
	if cfg.Tolerance == 0 {
		// Generous: under "go test -race ./..." the engines share two
		// cores with every other package's tests.
		cfg.Tolerance = 5 * time.Second
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return &tserver{t: t, srv: srv, ts: ts}
}

// do sends a request and returns the status and the body.
func (s *tserver) do(method, path, body string, hdr ...string) (int, []byte) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.ts.URL+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if strings.EqualFold(hdr[i], "Host") {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (s *tserver) newGame(body string) *Snapshot {
	s.t.Helper()
	code, b := s.do("POST", "/api/games", body)
	if code != 200 {
		s.t.Fatalf("new game %s: %d %s", body, code, b)
	}
	var snap Snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		s.t.Fatal(err)
	}
	return &snap
}

// act posts an action and returns the snapshot, failing on an error status.
func (s *tserver) act(id, action, body string) *Snapshot {
	s.t.Helper()
	code, b := s.do("POST", "/api/games/"+id+"/"+action, body)
	if code != 200 {
		s.t.Fatalf("%s %s: %d %s", action, body, code, b)
	}
	var snap Snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		s.t.Fatal(err)
	}
	return &snap
}

// wait long-polls the game until cond holds.
func (s *tserver) wait(id string, what string, timeout time.Duration, cond func(*Snapshot) bool) *Snapshot {
	s.t.Helper()
	end := time.Now().Add(timeout)
	var v uint64
	var last Snapshot
	for time.Now().Before(end) {
		code, b := s.do("GET", fmt.Sprintf("/api/games/%s?v=%d", id, v), "")
		if code != 200 {
			s.t.Fatalf("waiting for %s: %d %s", what, code, b)
		}
		last = Snapshot{}
		if err := json.Unmarshal(b, &last); err != nil {
			s.t.Fatal(err)
		}
		if cond(&last) {
			return &last
		}
		v = last.V
	}
	s.t.Fatalf("gave up waiting for %s after %v; last state: moves %v, over %v %q, thinking %q, notice %q, log %q", what, timeout, last.Moves, last.Over, last.Result, last.Thinking, last.Notice, last.Log)
	return nil
}

func TestHumanAgainstWuzi(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{wuziSpec()}})
	g := s.newGame(`{"width":15,"rule":4,"turnMs":300,"black":-1,"white":0}`)
	if g.Actor != "human" || g.ToMove != "black" {
		t.Fatalf("new game: actor %q, to move %q", g.Actor, g.ToMove)
	}
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	snap := s.wait(g.ID, "Wuzi's answer", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 2 && s.Thinking == "" })
	if snap.Info == nil || snap.Info.Depth == "" || len(snap.Info.PV) == 0 {
		t.Fatalf("no search report from Wuzi: %+v (log %q)", snap.Info, snap.Log)
	}
	if snap.Info.PV[0] != snap.Moves[1] {
		t.Errorf("the PV starts with %v, Wuzi played %v", snap.Info.PV[0], snap.Moves[1])
	}
	// Hints: YXNBEST 3 on the human's turn.
	snap = s.act(g.ID, "hint", `{"n":3}`)
	if len(snap.NBest) != 3 || snap.NBestPly != 2 {
		t.Fatalf("hint: %d candidates at ply %d, want 3 at 2 (log %q)", len(snap.NBest), snap.NBestPly, snap.Log)
	}
	// Undo takes back Wuzi's move and the human's; TAKEBACK is answered OK
	// when the engine's board was in step.
	s.act(g.ID, "move", fmt.Sprintf(`{"x":%d,"y":%d}`, snap.NBest[0].X, snap.NBest[0].Y))
	s.wait(g.ID, "Wuzi's second answer", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 4 && s.Thinking == "" })
	snap = s.act(g.ID, "undo", `{}`)
	if len(snap.Moves) != 2 || snap.Redo != 2 || snap.ToMove != "black" {
		t.Fatalf("undo: %d moves, redo %d, %s to move; want 2, 2, black", len(snap.Moves), snap.Redo, snap.ToMove)
	}
	if !strings.Contains(strings.Join(snap.Log, "\n"), "TAKEBACK of 2 stone(s) answered OK") {
		t.Errorf("no TAKEBACK in the log: %q", snap.Log)
	}
	snap = s.act(g.ID, "redo", `{}`)
	if len(snap.Moves) != 4 || snap.Redo != 0 {
		t.Fatalf("redo: %d moves, redo %d; want 4, 0", len(snap.Moves), snap.Redo)
	}
	// Renju: forbidden points for Black are published when Black is to move.
	s.act(g.ID, "setup", `{"moves":[[6,7],[0,0],[7,7],[0,2],[8,5],[0,4],[8,6],[0,6]]}`)
	snap = s.wait(g.ID, "the position", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 8 })
	found := false
	for _, f := range snap.Forbidden {
		found = found || f == [2]int{8, 7}
	}
	if !found {
		t.Fatalf("8,7 (a double three) is not among the forbidden points %v", snap.Forbidden)
	}
	// Black playing it loses by a foul, judged by match's referee.
	snap = s.act(g.ID, "move", `{"x":8,"y":7}`)
	if !snap.Over || snap.Reason != "foul" || snap.Winner != "white" {
		t.Fatalf("forbidden move: over %v, reason %q, winner %q", snap.Over, snap.Reason, snap.Winner)
	}
}

func TestEngineFaults(t *testing.T) {
	cases := []struct {
		spec   engine.Spec
		reason string
		detail string
	}{
		{fakeSpec("crasher", "-mode", "crash"), "crash", "crashing on purpose"},
		{fakeSpec("slow", "-mode", "timeout"), "time-out", "no answer in time"},
		{fakeSpec("babbler", "-mode", "junk"), "unparseable", "hello there"},
		{fakeSpec("cheat", "-mode", "occupied"), "illegal", "occupied"},
		{engine.Spec{Name: "missing", Command: filepath.Join(t.TempDir(), "no-such-engine")}, "crash", "cannot start"},
		{fakeSpec("refuser", "-mode", "startfail"), "unparseable", "to START"},
	}
	specs := make([]engine.Spec, len(cases))
	for i, c := range cases {
		specs[i] = c.spec
	}
	s := newTestServer(t, Config{Engines: specs, Tolerance: time.Second})
	for i, c := range cases {
		t.Run(c.spec.Name, func(t *testing.T) {
			g := s.newGame(fmt.Sprintf(`{"width":15,"rule":0,"turnMs":1000,"black":-1,"white":%d}`, i))
			s.act(g.ID, "move", `{"x":7,"y":7}`)
			snap := s.wait(g.ID, c.reason, 30*time.Second, func(s *Snapshot) bool { return s.Over })
			text := snap.Result + "\n" + strings.Join(snap.Output, "\n")
			if snap.Reason != c.reason || snap.Winner != "black" || !strings.Contains(text, c.detail) {
				t.Errorf("%s: reason %q, winner %q, result and output %q; want %q, black, %q", c.spec.Name, snap.Reason, snap.Winner, text, c.reason, c.detail)
			}
			// The game goes on after an undo: the engine is started afresh.
			snap = s.act(g.ID, "undo", `{}`)
			if snap.Over || len(snap.Moves) != 0 {
				t.Errorf("undo after the fault: over %v, %d moves", snap.Over, len(snap.Moves))
			}
			s.act(g.ID, "close", `{}`)
		})
	}
	if st := s.srv.Stats(); st.Engines != 0 {
		t.Errorf("%d engines still counted after the games closed", st.Engines)
	}
}

func TestRenjuFoulByEngine(t *testing.T) {
	black := fakeSpec("black", "-mode", "seq", "-moves", "6,7;7,7;8,5;8,6;8,7")
	white := fakeSpec("white", "-mode", "seq", "-moves", "0,0;0,2;0,4;0,6")
	s := newTestServer(t, Config{Engines: []engine.Spec{black, white}})
	g := s.newGame(`{"width":15,"rule":4,"turnMs":500,"black":0,"white":1}`)
	snap := s.wait(g.ID, "the foul", 30*time.Second, func(s *Snapshot) bool { return s.Over })
	if snap.Reason != "foul" || snap.Winner != "white" || len(snap.Moves) != 9 {
		t.Fatalf("reason %q, winner %q, %d moves; want foul, white, 9 (%s)", snap.Reason, snap.Winner, len(snap.Moves), snap.Result)
	}
}

func TestUndoWithoutTakeback(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "fake.log")
	s := newTestServer(t, Config{Engines: []engine.Spec{fakeSpec("fake", "-log", logFile, "-messages")}})
	g := s.newGame(`{"width":15,"rule":0,"turnMs":500,"black":-1,"white":0}`)
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	s.wait(g.ID, "the answer", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 2 && s.Thinking == "" })
	snap := s.act(g.ID, "undo", `{}`)
	if len(snap.Moves) != 0 {
		t.Fatalf("undo left %d moves", len(snap.Moves))
	}
	s.act(g.ID, "move", `{"x":3,"y":3}`)
	s.wait(g.ID, "the answer after undo", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 2 && s.Thinking == "" })
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	// The fake engine knows no TAKEBACK: it is sent, refused, and the
	// engine gets the whole position with BOARD before its next move.
	for _, want := range []string{`"TAKEBACK `, `"BOARD\r"`, `"3,3,2\r"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the engine never received %s; it got:\n%s", want, got)
		}
	}
}

func TestStopAndUndoWhileThinking(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{wuziSpec(), fakeSpec("sleeper", "-delay", "20s")}})
	// Stop: Wuzi answers YXSTOP with its best move so far, long before
	// its 30 s are up.
	g := s.newGame(`{"width":15,"rule":0,"turnMs":30000,"black":-1,"white":0}`)
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	s.wait(g.ID, "thinking", 30*time.Second, func(s *Snapshot) bool { return s.Thinking == "white" })
	start := time.Now()
	s.act(g.ID, "stop", `{}`)
	s.wait(g.ID, "the stopped move", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 2 })
	if d := time.Since(start); d > 15*time.Second { // Wuzi's own limit is 30 s
		t.Errorf("the move came %v after Stop", d)
	}
	// Undo while an engine that ignores YXSTOP thinks: the thought is
	// abandoned and its process ended.
	g = s.newGame(`{"width":15,"rule":0,"turnMs":30000,"black":-1,"white":1}`)
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	s.wait(g.ID, "thinking", 30*time.Second, func(s *Snapshot) bool { return s.Thinking == "white" })
	code, b := s.do("POST", "/api/games/"+g.ID+"/move", `{"x":1,"y":1}`)
	if code != http.StatusConflict || !strings.Contains(string(b), "thinking") {
		t.Errorf("a move while the engine thinks: %d %s", code, b)
	}
	snap := s.act(g.ID, "undo", `{}`)
	if len(snap.Moves) != 0 || snap.Thinking != "" {
		t.Fatalf("undo while thinking: %d moves, thinking %q", len(snap.Moves), snap.Thinking)
	}
	if st := s.srv.Stats(); st.Engines != 1 { // Wuzi of the first game still runs
		t.Errorf("%d engines run, want 1", st.Engines)
	}
}

func TestSwap2(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{wuziSpec()}})
	// Wuzi opens: three stones, then the human decides.
	g := s.newGame(`{"width":15,"rule":0,"turnMs":1000,"black":0,"white":-1,"swap2":true}`)
	if g.Phase != phasePlace3 {
		t.Fatalf("phase %q", g.Phase)
	}
	snap := s.wait(g.ID, "Wuzi's three stones", 30*time.Second, func(s *Snapshot) bool { return s.Phase == phaseChoose3 })
	if len(snap.Moves) != 3 || snap.Actor != "human" {
		t.Fatalf("%d stones, actor %q", len(snap.Moves), snap.Actor)
	}
	snap = s.act(g.ID, "swap2", `{"choice":"black"}`)
	if snap.Phase != "" || snap.Players[0].Name != "Human" || snap.Opening != 3 {
		t.Fatalf("after taking Black: phase %q, Black is %q, opening %d", snap.Phase, snap.Players[0].Name, snap.Opening)
	}
	s.wait(g.ID, "Wuzi's 4th stone as White", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 4 && s.Thinking == "" })

	// The human opens; Wuzi answers SWAP2BOARD with SWAP or a stone.
	g = s.newGame(`{"width":15,"rule":0,"turnMs":1000,"black":-1,"white":0,"swap2":true}`)
	for _, m := range []string{`{"x":7,"y":7}`, `{"x":8,"y":8}`, `{"x":9,"y":7}`} {
		s.act(g.ID, "move", m)
	}
	snap = s.wait(g.ID, "Wuzi's decision", 30*time.Second, func(s *Snapshot) bool { return s.Phase == "" && s.Actor == "human" })
	if snap.Opening < 3 {
		t.Errorf("opening %d", snap.Opening)
	}
	code, b := s.do("POST", "/api/games/"+g.ID+"/swap2", `{"choice":"black"}`)
	if code != http.StatusConflict {
		t.Errorf("a late swap2 choice: %d %s", code, b)
	}
}

func TestHintsInAGameOfHumans(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{wuziSpec(), fakeSpec("fake")}})
	// The analysis engine runs only for hints.
	g := s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":-1,"white":-1,"analyst":0}`)
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	snap := s.act(g.ID, "hint", `{"n":2}`)
	if len(snap.NBest) == 0 || snap.NBestPly != 1 || snap.Info == nil || snap.Info.Color != "white" {
		t.Fatalf("hint for White: %v at ply %d, info %+v", snap.NBest, snap.NBestPly, snap.Info)
	}
	if len(snap.Moves) != 1 {
		t.Fatalf("the hint played a move: %v", snap.Moves)
	}
	// An engine that knows no YXBOARD or YXNBEST gives no hint, and says so;
	// it is no part of the game, so nothing is lost.
	g = s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":-1,"white":-1,"analyst":1}`)
	code, b := s.do("POST", "/api/games/"+g.ID+"/hint", `{"n":1}`)
	if code != http.StatusConflict || !strings.Contains(string(b), "gave no hint") {
		t.Errorf("a hint from the fake engine: %d %s", code, b)
	}
	snap = s.act(g.ID, "move", `{"x":7,"y":7}`)
	if snap.Over || len(snap.Moves) != 1 {
		t.Errorf("after the failed hint: over %v, %d moves", snap.Over, len(snap.Moves))
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{fakeSpec("fake")}})
	g := s.newGame(`{"width":20,"rule":1,"turnMs":300,"black":-1,"white":-1}`)
	moves := [][2]int{{10, 10}, {11, 11}, {10, 11}, {19, 0}, {0, 19}}
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "[%d,%d]", m[0], m[1])
	}
	s.act(g.ID, "setup", `{"moves":[`+b.String()+`]}`)
	for _, f := range []string{"psq", "sgf"} {
		code, text := s.do("GET", "/api/games/"+g.ID+"/game."+f, "")
		if code != 200 {
			t.Fatalf("game.%s: %d %s", f, code, text)
		}
		body, _ := json.Marshal(map[string]string{"format": f, "text": string(text)})
		s.act(g.ID, "setup", `{"moves":[]}`)
		snap := s.act(g.ID, "load", string(body))
		if fmt.Sprint(snap.Moves) != fmt.Sprint(moves) || snap.Width != 20 || snap.Rule != "standard" {
			t.Errorf("%s loaded back: %v on %dx%d %s; want %v on 20x20 standard\n%s", f, snap.Moves, snap.Width, snap.Height, snap.Rule, moves, text)
		}
	}
	code, text := s.do("GET", "/api/games/"+g.ID+"/position.txt", "")
	if code != 200 || !strings.Contains(string(text), "White (O) to move") || !strings.Contains(string(text), "[X]") {
		t.Errorf("position.txt: %d\n%s", code, text)
	}
}

func TestMalformedRequests(t *testing.T) {
	s := newTestServer(t, Config{Engines: []engine.Spec{fakeSpec("fake")}, MaxGames: 2})
	g := s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":-1,"white":-1}`)
	s.act(g.ID, "move", `{"x":7,"y":7}`)
	base := "/api/games/" + g.ID
	cases := []struct {
		method, path, body string
		hdr                []string
		code               int
		reason             string
	}{
		{"POST", "/api/games", `{"width":4,"turnMs":300}`, nil, 400, "sides must be 5 to 32"},
		{"POST", "/api/games", `{"width":33,"turnMs":300}`, nil, 400, "sides must be 5 to 32"},
		{"POST", "/api/games", `{"width":15,"rule":3,"turnMs":300}`, nil, 400, "rule 3"},
		{"POST", "/api/games", `{"width":15,"turnMs":0}`, nil, 400, "time per move"},
		{"POST", "/api/games", `{"width":15,"turnMs":300,"black":7}`, nil, 400, "not one of the 1 engines"},
		{"POST", "/api/games", `{"width":15,"turnMs":300,"cmd":"rm -rf /"}`, nil, 400, "unknown field"},
		{"POST", "/api/games", `{"width":15,`, nil, 400, "bad JSON"},
		{"POST", "/api/games", `{"width":15,"turnMs":300} {}`, nil, 400, "more than one value"},
		{"POST", "/api/games", `{"text":"` + strings.Repeat("x", maxBody) + `"}`, nil, 400, "over"},
		{"POST", base + "/move", `{"x":7,"y":7}`, nil, 409, "occupied"},
		{"POST", base + "/move", `{"x":15,"y":0}`, nil, 400, "off the 15x15 board"},
		{"POST", base + "/move", `{"x":-1}`, nil, 400, "give x and y"},
		{"POST", base + "/move", `{"x":"a","y":1}`, nil, 400, "bad JSON"},
		{"POST", base + "/launch", `{}`, nil, 404, "no action"},
		{"POST", base + "/hint", `{"n":50}`, nil, 400, "1 to 10"},
		{"POST", base + "/swap2", `{"choice":"black"}`, nil, 409, "no swap2 decision"},
		{"POST", base + "/redo", `{}`, nil, 409, "nothing to redo"},
		{"POST", base + "/setup", `{"moves":[[1,1],[1,1]]}`, nil, 400, "occupied"},
		{"POST", base + "/setup", `{"moves":[[99,1]]}`, nil, 400, "off the"},
		{"POST", base + "/load", `{"format":"psq","text":"hello"}`, nil, 400, "Piskvorky"},
		{"POST", base + "/load", `{"format":"sgf","text":"(;SZ[15];B[hh];B[ii])"}`, nil, 400, "alternate"},
		{"POST", base + "/load", `{"format":"sgf","text":"(;SZ[99])"}`, nil, 400, "SZ"},
		{"POST", base + "/load", `{"format":"exe","text":""}`, nil, 400, "want psq or sgf"},
		{"GET", base + "?v=abc", "", nil, 400, "version"},
		{"GET", base + "/game.exe", "", nil, 404, "no file"},
		{"GET", "/api/games/nosuchgame", "", nil, 404, "no such game"},
		{"POST", base + "/move", `{"x":1,"y":1}`, []string{"Content-Type", "text/plain"}, 415, "application/json"},
		{"POST", base + "/move", `{"x":1,"y":1}`, []string{"Origin", "http://evil.example"}, 403, "not accepted"},
		{"GET", "/api/config", "", []string{"Host", "evil.example:80"}, 403, "loopback"},
	}
	for _, c := range cases {
		code, b := s.do(c.method, c.path, c.body, c.hdr...)
		var e struct{ Error string }
		_ = json.Unmarshal(b, &e)
		if code != c.code || !strings.Contains(e.Error, c.reason) {
			t.Errorf("%s %s %.60s: %d %q; want %d with %q", c.method, c.path, c.body, code, e.Error, c.code, c.reason)
		}
	}
	// The game survived all of that.
	snap := s.act(g.ID, "move", `{"x":8,"y":8}`)
	if len(snap.Moves) != 2 {
		t.Errorf("%d moves after the bad requests", len(snap.Moves))
	}
	// Games are bounded.
	s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":-1,"white":-1}`)
	code, b := s.do("POST", "/api/games", `{"width":15,"rule":0,"turnMs":300,"black":-1,"white":-1}`)
	if code != http.StatusTooManyRequests || !bytes.Contains(b, []byte("games are open")) {
		t.Errorf("a third game: %d %s", code, b)
	}
	if code, _ := s.do("GET", "/", ""); code != 200 {
		t.Errorf("the page: %d", code)
	}
}

// countProcs counts running processes whose command line starts with path.
func countProcs(path string) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.HasPrefix(b, []byte(path+"\x00")) {
			n++
		}
	}
	return n
}

func TestGamesAndEnginesEnd(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc to count processes")
	}
	s := newTestServer(t, Config{Engines: []engine.Spec{fakeSpec("fake")}, MaxEngines: 3, IdleTimeout: 400 * time.Millisecond})
	// Engine against engine: two processes a game; the second game would
	// need a 4th process and is paused with a notice instead.
	a := s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":0,"white":0}`)
	s.wait(a.ID, "both engines moving", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) >= 2 })
	s.act(a.ID, "pause", `{}`)
	b := s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":-1,"white":0}`)
	s.act(b.ID, "move", `{"x":7,"y":7}`)
	s.wait(b.ID, "the answer", 30*time.Second, func(s *Snapshot) bool { return len(s.Moves) == 2 })
	c := s.newGame(`{"width":15,"rule":0,"turnMs":300,"black":0,"white":-1}`)
	snap := s.wait(c.ID, "the refusal", 30*time.Second, func(s *Snapshot) bool { return s.Paused && s.Notice != "" })
	if !strings.Contains(snap.Notice, "max-engines") {
		t.Errorf("notice %q", snap.Notice)
	}
	if n := countProcs(fakePath); n != 3 {
		t.Errorf("%d fake engines run, want 3", n)
	}
	// Closing a game ends its engines; a game nobody polls is closed.
	s.act(a.ID, "close", `{}`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (s.srv.Stats() != Stats{} || countProcs(fakePath) != 0) {
		time.Sleep(50 * time.Millisecond)
	}
	if st, n := s.srv.Stats(), countProcs(fakePath); st != (Stats{}) || n != 0 {
		t.Errorf("after close and idle: %+v, %d fake processes", st, n)
	}
}

func TestParseInfo(t *testing.T) {
	si, ok := ParseInfo("depth 8-14 ev 120 n 1.2M n/s 800k tm 1500 pv h8 i9 (30,2)")
	if !ok || si.Depth != "8-14" || si.Score != "120" || si.Nodes != "1.2M" || si.Speed != "800k" || si.TimeMS != "1500" ||
		fmt.Sprint(si.PV) != "[[7 7] [8 8] [30 2]]" {
		t.Errorf("Wuzi's line: %+v", si)
	}
	si, ok = ParseInfo("[2] depth 5 win in 7 n 300 pv a1")
	if !ok || si.Rank != 2 || si.Score != "win in 7" || fmt.Sprint(si.PV) != "[[0 0]]" {
		t.Errorf("an NBEST line: %+v", si)
	}
	si, ok = ParseInfo("Depth: 10 | Eval: -35 | Nodes: 12345 | PV: 7,7 8,8")
	if !ok || si.Depth != "10" || si.Score != "-35" || fmt.Sprint(si.PV) != "[[7 7] [8 8]]" {
		t.Errorf("another engine's line: %+v", si)
	}
	si, ok = ParseInfo("depth: 7-11 best:[5,7] val=-47 time:428ms")
	if !ok || si.Depth != "7-11" || si.Score != "-47" || fmt.Sprint(si.PV) != "[[5 7]]" {
		t.Errorf("AIWine's line: %+v", si)
	}
	if _, ok := ParseInfo("thinking about move 3"); ok {
		t.Error("free text read as a report")
	}
}

func FuzzParseRecords(f *testing.F) {
	f.Add("(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[ii](;B[jj])(;B[kk]))")
	f.Add("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,10\nA\nB\n0\n")
	f.Add("(;SZ[20:7]AB[aa]")
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (*Loaded, error){ParsePSQ, ParseSGF} {
			l, err := parse(s)
			if err != nil {
				continue
			}
			for _, m := range l.Moves {
				if m.X < 0 || m.Y < 0 || m.X >= l.Width || m.Y >= l.Height {
					t.Fatalf("move %v off the %dx%d board from %q", m, l.Width, l.Height, s)
				}
			}
		}
	})
}
