package webboard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wuzi/match/engine"
)

// chromium finds a Chromium or Chrome to drive: $WUZI_CHROMIUM, else the
// usual names on the PATH.
func chromium() string {
	if p := os.Getenv("WUZI_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestBrowser drives the page in headless Chromium: a renju game against
// Wuzi with its answers, forbidden points, PV and hints drawn; an SGF saved
// and loaded back; a crashing engine shown; engine against engine; and the
// page closed with nothing left running. Screenshots go to
// $WUZI_BOARD_SHOTS when set (docs/ keeps some), else to a temporary
// folder.
func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("SKIP: no Chromium or Chrome found (apt-get install chromium, or set WUZI_CHROMIUM); the browser test did not run")
	}
	shots := os.Getenv("WUZI_BOARD_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	engines := []engine.Spec{wuziSpec(), fakeSpec("crasher", "-mode", "crash", "-after", "1", "-messages"),
		fakeSpec("sleeper", "-mode", "timeout", "-messages"),
		{Name: "missing", Command: filepath.Join(t.TempDir(), "pbrain-missing")}}
	// $WUZI_BOARD_SPAR names a sparring engine (as -e takes it) for the
	// engine-against-engine part; else Wuzi plays itself.
	opponent := "0"
	var maxMemory int64 // the test server's default
	if sp := os.Getenv("WUZI_BOARD_SPAR"); sp != "" {
		spec, err := engine.ParseSpec(sp)
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, spec)
		opponent = "4"
		maxMemory = 350 << 20 // sparring engines are tuned for Gomocup's limit
	}
	s := newTestServer(t, Config{Engines: engines, MaxEngines: 8, MaxMemory: maxMemory, Tolerance: 3 * time.Second})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(1100, 860),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// The first action starts the browser, on a context without a
	// deadline; the steps then share one overall limit.
	if err := chromedp.Do(bctx); err != nil {
		t.Skipf("SKIP: Chromium at %s does not start: %v", exe, err)
	}
	ctx, cancel := context.WithTimeout(bctx, 3*time.Minute)
	defer cancel()

	fail := func(what string, err error) {
		t.Helper()
		st, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#status').textContent + ' | ' + document.querySelector('#notice').textContent + ' | log: ' + document.querySelector('#log').textContent.slice(-600)`))
		t.Fatalf("%s: %v (the page says %q)", what, err, st)
	}
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			fail(what, err)
		}
	}
	// until waits for a JavaScript condition on the page.
	until := func(what, expr string) {
		t.Helper()
		step("waiting for "+what, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
	}
	shot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			fail("screenshot "+name, err)
		}
		path := filepath.Join(shots, name+".png")
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s (%d KB)", path, len(buf)/1024)
	}
	// click clicks a point of the board with the mouse.
	click := func(x, y int) {
		t.Helper()
		at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(
			`(() => { const r = document.querySelector('rect.hit[data-x="%d"][data-y="%d"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, x, y)))
		if err != nil || len(at) != 2 {
			fail(fmt.Sprintf("finding %d,%d", x, y), err)
		}
		step(fmt.Sprintf("clicking %d,%d", x, y), chromedp.MouseClickXY(at[0], at[1]))
	}
	stones := `document.querySelectorAll('#board circle.stone').length`
	newGame := func(black, white, rule, turn string, extra ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		old, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.game || ''`))
		if err != nil {
			fail("reading the game", err)
		}
		actions := []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.ID("black"), black),
			chromedp.SetValue(chromedp.ID("white"), white),
			chromedp.SetValue(chromedp.ID("rule"), rule),
			chromedp.SetValue(chromedp.ID("turn"), turn),
		}
		actions = append(actions, extra...)
		actions = append(actions, chromedp.Click(chromedp.ID("new")))
		step("new game", actions...)
		until("the new game", fmt.Sprintf(`(document.body.dataset.game || '') !== %q`, old))
	}

	step("opening the page", chromedp.Navigate(s.ts.URL))
	until("the engine list", fmt.Sprintf(`document.querySelectorAll('#white option').length === %d`, len(engines)+1))

	// Renju against Wuzi: the human is Black.
	newGame("-1", "0", "4", "1")
	click(7, 7)
	until("Wuzi's answer drawn", stones+` === 2 && !document.querySelector('#status').textContent.includes('thinking')`)
	// A position where Black has forbidden points, set up by hand.
	step("set-up mode", chromedp.Click(chromedp.ID("edit")), chromedp.Click(chromedp.ID("edit-clear")))
	for _, m := range [][2]int{{6, 7}, {2, 12}, {7, 7}, {12, 2}, {8, 5}, {12, 12}, {8, 6}, {2, 2}} {
		click(m[0], m[1])
	}
	step("set-up done", chromedp.Click(chromedp.ID("edit-done")))
	until("the forbidden mark at i8", `document.querySelector('#board g.forbid[data-x="8"][data-y="7"]') !== null`)
	// Hints for Black (YXNBEST) with the forbidden point marked.
	step("asking for hints", chromedp.SetValue(chromedp.ID("nbest"), "5"), chromedp.Click(chromedp.ID("hint")))
	until("the hints", `document.querySelectorAll('#board rect.cand').length >= 1 && document.querySelectorAll('#nbest-list li').length >= 1 && !document.querySelector('#status').textContent.includes('Looking')`)
	shot("board-renju-nbest")
	click(4, 4) // Black plays elsewhere; Wuzi answers, its PV drawn as ghosts
	until("Wuzi's answer", stones+` === 10 && !document.querySelector('#status').textContent.includes('thinking')`)
	until("the search report", `document.querySelector('#i-depth').textContent !== ''`)
	shot("board-renju-pv")

	// Save the game as SGF, take back a move, load the SGF: the stones
	// come back.
	sgf, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.getElementById('save-sgf').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		fail("saving the SGF", err)
	}
	if !strings.Contains(sgf, "RU[renju]") || strings.Count(sgf, ";B[")+strings.Count(sgf, ";W[") != 10 {
		t.Fatalf("the saved SGF:\n%s", sgf)
	}
	path := filepath.Join(t.TempDir(), "game.sgf")
	if err := os.WriteFile(path, []byte(sgf), 0o644); err != nil {
		t.Fatal(err)
	}
	step("undo", chromedp.Click(chromedp.ID("undo")))
	until("the undo", stones+` === 8`)
	step("loading the SGF", chromedp.SetUploadFiles(chromedp.ID("load-file"), []string{path}))
	until("the loaded game", stones+` === 10`)

	// A crashing engine: the page says so, with the engine's last words.
	newGame("-1", "1", "0", "0.3")
	click(7, 7)
	until("the crasher's first move", stones+` === 2`)
	click(8, 8)
	until("the crash shown", `document.querySelector('#status').textContent.includes('crash') && document.querySelector('#notice').textContent.includes('crashing on purpose')`)
	shot("board-crash")

	// Swap2: Wuzi places three stones, the human takes White and plays on.
	setOpening := func(on bool) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById('opening').checked = %v`, on))(ctx, tg)
			return chromedp.Void{}, err
		}
	}
	newGame("0", "-1", "0", "1", setOpening(true))
	until("Wuzi's three stones and the choice", stones+` === 3 && !document.getElementById('swap2').hidden`)
	shot("board-swap2")
	step("taking White", chromedp.Click(chromedp.ID("swap2-white")), setOpening(false))
	until("White to move", `document.querySelector('#status').textContent.includes('White (Human) to move')`)
	click(9, 9)
	until("Wuzi's 5th stone", stones+` === 5 && !document.querySelector('#status').textContent.includes('thinking')`)

	// A slow engine loses on time; an engine that cannot start, by crash.
	newGame("-1", "2", "0", "0.3")
	click(7, 7)
	until("the time-out shown", `document.querySelector('#status').textContent.includes('time-out')`)
	shot("board-slow")
	newGame("-1", "3", "0", "0.3")
	click(7, 7)
	until("the failed start shown", `document.querySelector('#status').textContent.includes('cannot start')`)
	shot("board-missing")

	// Engine against engine.
	if opponent == "0" {
		// A 2 s turn and a pause after two stones: no five is possible
		// before the ninth stone, and an opening move takes a good part of
		// a second, so the pause lands mid-game even on a loaded machine.
		// (At 0.2 s a move, Wuzi against itself once finished the game
		// between the sixth stone and the click; and once a threat search
		// proves a win, every move of it is played at once: a pause
		// clicked after four stones once came after the game's end.)
		newGame("0", opponent, "0", "2")
		until("two moves of Wuzi against Wuzi", stones+` >= 2`)
		step("pause", chromedp.Click(chromedp.ID("pause")))
		until("the pause", `document.querySelector('#status').textContent.includes('Paused')`)
		// Paused shows once the move being thought about is played; then
		// nothing moves until Resume.
		held, err := chromedp.Run(ctx, chromedp.Evaluate[int](stones))
		if err != nil {
			fail("counting the stones", err)
		}
		time.Sleep(1500 * time.Millisecond)
		if now, err := chromedp.Run(ctx, chromedp.Evaluate[int](stones)); err != nil || now != held {
			t.Fatalf("paused at %d stones, %d a moment later (%v)", held, now, err)
		}
		step("resume", chromedp.Click(chromedp.ID("pause")))
		until("the next move after Resume", fmt.Sprintf(`%s > %d || document.querySelector('#status').classList.contains('over')`, stones, held))
	} else {
		newGame("0", opponent, "0", "2", chromedp.SetValue(chromedp.ID("match"), "120"))
		until("the game's end, or 30 moves", stones+` >= 30 || document.querySelector('#status').classList.contains('over')`)
		until("a position with no engine thinking", `!document.querySelector('#status').textContent.includes('thinking')`+
			` || document.querySelector('#status').textContent.includes('Black') && document.querySelector('#i-pv').textContent !== ''`)
		shot("board-engines")
	}

	// Leaving the page closes its game and ends its engines.
	step("leaving", chromedp.Navigate("about:blank"))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && s.srv.Stats() != (Stats{}) {
		time.Sleep(50 * time.Millisecond)
	}
	if st := s.srv.Stats(); st != (Stats{}) {
		t.Errorf("after the page left: %+v", st)
	}
}
