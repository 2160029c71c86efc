package webboard

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"wuzi/match/engine"
)

// children counts the running processes whose parent is this one.
func children() int {
	self := strconv.Itoa(os.Getpid())
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: the comm may hold spaces, so read
		// after its closing parenthesis.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 2 && f[1] == self && f[0] != "Z" {
			n++
		}
	}
	return n
}

// rssKB is this process's resident set size.
func rssKB() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

func heapKB() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc / 1024
}

// TestManyGames plays games one after another and closes each, half of
// them while an engine thinks, then checks that nothing is left: no engine
// process, no game, no goroutine, and no memory growth. It plays 4 games
// against the fake engine by default; WUZI_BOARD_GAMES=50 plays 50 with the
// real Wuzi against it (the evidence in docs/evidence.md).
func TestManyGames(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to count processes")
	}
	// thinker is the engine the human games are closed on while it
	// thinks: a fake engine that answers at once could leave no thinking
	// to see, so by default one that takes 2 s a move (the turn is 5 s).
	n, black, thinker := 4, fakeSpec("random", "-seed", "3"), 2
	if v := os.Getenv("WUZI_BOARD_GAMES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("WUZI_BOARD_GAMES=%q", v)
		}
		black, thinker = wuziSpec(), 0
	}
	s := newTestServer(t, Config{Engines: []engine.Spec{black, fakeSpec("random", "-seed", "5"), fakeSpec("random", "-seed", "7", "-delay", "2s")}})
	warm := s.newGame(`{"width":15,"rule":0,"turnMs":100,"black":-1,"white":-1}`)
	s.act(warm.ID, "close", `{}`)
	quiet := func() {
		// Idle keep-alive connections hold goroutines on both ends.
		http.DefaultClient.CloseIdleConnections()
		s.ts.CloseClientConnections()
		time.Sleep(100 * time.Millisecond)
	}
	quiet()
	goroutines, heap, rss, kids := runtime.NumGoroutine(), heapKB(), rssKB(), children()
	t.Logf("before: %d goroutines, heap %d KB, RSS %d KB, %d child processes", goroutines, heap, rss, kids)
	start := time.Now()
	moves, peakKids := 0, 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			// Engine against engine, played to its end.
			g := s.newGame(`{"width":15,"rule":0,"turnMs":100,"black":0,"white":1}`)
			snap := s.wait(g.ID, "the end of game "+strconv.Itoa(i+1), 2*time.Minute, func(s *Snapshot) bool {
				peakKids = max(peakKids, children())
				return s.Over
			})
			moves += len(snap.Moves)
			if snap.Reason != "five" && snap.Reason != "full board" {
				t.Errorf("game %d: %s", i+1, snap.Result)
			}
			s.act(g.ID, "close", `{}`)
		} else {
			// A human against the engine, closed while it thinks.
			g := s.newGame(`{"width":15,"rule":4,"turnMs":5000,"black":-1,"white":` + strconv.Itoa(thinker) + `}`)
			s.act(g.ID, "move", `{"x":7,"y":7}`)
			s.wait(g.ID, "the engine thinking", time.Minute, func(s *Snapshot) bool { return s.Thinking == "white" })
			peakKids = max(peakKids, children())
			moves++
			s.act(g.ID, "close", `{}`)
		}
		if st := s.srv.Stats(); st != (Stats{}) {
			t.Fatalf("after game %d closed: %+v", i+1, st)
		}
	}
	elapsed := time.Since(start)
	quiet()
	// Engines end within Close; give the runtime a moment to reap.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (children() != kids || runtime.NumGoroutine() > goroutines) {
		time.Sleep(20 * time.Millisecond)
	}
	g2, heap2, rss2, kids2 := runtime.NumGoroutine(), heapKB(), rssKB(), children()
	t.Logf("%d games (%d moves) in %v; at most %d child processes at once", n, moves, elapsed.Round(time.Millisecond), peakKids)
	t.Logf("after: %d goroutines, heap %d KB, RSS %d KB, %d child processes; server %+v", g2, heap2, rss2, kids2, s.srv.Stats())
	if kids2 != kids {
		t.Errorf("%d child processes left, %d before", kids2, kids)
	}
	if g2 > goroutines {
		t.Errorf("%d goroutines, %d before", g2, goroutines)
	}
	if heap2 > heap+4096 {
		t.Errorf("heap grew from %d KB to %d KB", heap, heap2)
	}
}
