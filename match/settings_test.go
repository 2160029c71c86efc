package match

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wuzi/eval"
	"wuzi/match/engine"
)

// sentSettings reads a fake engine's log and returns every value each INFO
// key got before its first move request (time_left excepted: it goes
// before every move).
func sentSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(strings.Trim(l, `"`), `\r`)
		if l == "BOARD" || l == "BEGIN" {
			break
		}
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "INFO" && f[1] != "time_left" {
			got[f[1]] = append(got[f[1]], f[2])
		}
	}
	return got
}

// TestSettingsHold: each engine receives every setting exactly once, its
// own value where it gives one (in any letter case; the last of two), the
// match's otherwise, and its own extra keys too.
func TestSettingsHold(t *testing.T) {
	dir := t.TempDir()
	blog, wlog := filepath.Join(dir, "b.log"), filepath.Join(dir, "w.log")
	b := fake(t, "rapfi-like", "-log", blog)
	b.Options = []engine.Option{{Key: "max_memory", Value: "1"}, {Key: "MAX_MEMORY", Value: "67108864"},
		{Key: "thread_num", Value: "1"}, {Key: "timeout_turn", Value: "1500"}}
	w := fake(t, "plain", "-log", wlog)
	s := settings()
	s.MaxMemory, s.MaxPlies = 367001600, 6
	s.Info = []engine.Option{{Key: "thread_num", Value: "2"}, {Key: "caution_factor", Value: "3"}}
	res := play(t, s, b, w, nil)
	if res.Reason != ReasonPlies {
		t.Fatalf("%v by %q (%s), want a draw by ply limit", res.Winner, res.Reason, res.Detail)
	}
	wantB := map[string][]string{"timeout_turn": {"1500"}, "timeout_match": {"20000"}, "max_memory": {"67108864"},
		"game_type": {"1"}, "rule": {"0"}, "thread_num": {"1"}, "caution_factor": {"3"}}
	wantW := map[string][]string{"timeout_turn": {"2000"}, "timeout_match": {"20000"}, "max_memory": {"367001600"},
		"game_type": {"1"}, "rule": {"0"}, "thread_num": {"2"}, "caution_factor": {"3"}}
	if got := sentSettings(t, blog); !reflect.DeepEqual(got, wantB) {
		t.Errorf("the engine with options received %v\nwant %v", got, wantB)
	}
	if got := sentSettings(t, wlog); !reflect.DeepEqual(got, wantW) {
		t.Errorf("the engine without options received %v\nwant %v", got, wantW)
	}
	if res.MemoryLimit != [2]int64{67108864, 367001600} {
		t.Errorf("memory limits %v, want each engine's own", res.MemoryLimit)
	}
}

func TestForEngine(t *testing.T) {
	s := settings()
	s.Rule, s.MaxMemory = eval.Renju, 100
	es, err := s.ForEngine(engine.Spec{Name: "e", Options: []engine.Option{
		{Key: "Timeout_Match", Value: "0"}, {Key: "rule", Value: "2"}, {Key: "hash_size", Value: "1024"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Option{{Key: "timeout_turn", Value: "2000"}, {Key: "timeout_match", Value: "0"},
		{Key: "max_memory", Value: "100"}, {Key: "game_type", Value: "1"}, {Key: "rule", Value: "2"},
		{Key: "hash_size", Value: "1024"}}
	if !reflect.DeepEqual(es.Info, want) || es.MatchTime != 0 || es.TurnTime != s.TurnTime || es.MaxMemory != 100 {
		t.Errorf("got %+v", es)
	}
	if v, ok := es.Value("rule"); !ok || v != "2" {
		t.Errorf("rule %q %v", v, ok)
	}
	// Match-wide extras: valid ones pass, a standard key or junk does not.
	for _, c := range []struct {
		o  engine.Option
		ok bool
	}{{engine.Option{Key: "thread_num", Value: "1"}, true}, {engine.Option{Key: "Timeout_Turn", Value: "5"}, false},
		{engine.Option{Key: "time_left", Value: "5"}, false}, {engine.Option{Key: "a b", Value: "5"}, false}} {
		m := s
		m.Info = []engine.Option{c.o}
		if err := m.Validate(); (err == nil) != c.ok {
			t.Errorf("--info %+v: %v", c.o, err)
		}
	}
	for _, bad := range []engine.Option{{Key: "max_memory", Value: "64MB"}, {Key: "timeout_turn", Value: "-1"},
		{Key: "time_left", Value: "5"}, {Key: "two words", Value: "1"}, {Key: "k", Value: "a\nINFO rule 1"}} {
		if _, err := s.ForEngine(engine.Spec{Name: "e", Options: []engine.Option{bad}}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestOwnMemoryLimit: an engine's own max_memory is the limit it is judged
// by, below the match's as above it.
func TestOwnMemoryLimit(t *testing.T) {
	if !engine.MemoryMeasured() {
		t.Skip("memory is measured on Linux only")
	}
	s := settings()
	s.MaxMemory, s.MaxPlies = 400<<20, 6
	// Both allocate 120 MiB a move from their second; only the one whose
	// own limit is 100 MiB loses.
	own := fake(t, "own", "-mode", "memory", "-mb", "120", "-after", "1")
	own.Options = []engine.Option{{Key: "max_memory", Value: "104857600"}}
	res := play(t, s, own, fake(t, "default", "-mode", "memory", "-mb", "120", "-after", "1"), nil)
	if res.Winner != eval.White || res.Reason != ReasonMemory || !strings.Contains(res.Detail, "limit 100.0 MB") {
		t.Fatalf("%v by %q (%s), want White by memory, over 100 MB", res.Winner, res.Reason, res.Detail)
	}
	// Over the match's 100 MiB, under its own 400 MiB: plays on.
	s.MaxMemory = 100 << 20
	big := fake(t, "big", "-mode", "memory", "-mb", "120", "-after", "1")
	big.Options = []engine.Option{{Key: "max_memory", Value: "419430400"}}
	res = play(t, s, big, fake(t, "plain"), nil)
	if res.Reason != ReasonPlies || res.PeakMemory[0] <= s.MaxMemory {
		t.Fatalf("%v by %q (%s), peak %d: want a draw by ply limit over the match's limit", res.Winner, res.Reason, res.Detail, res.PeakMemory[0])
	}
}

// TestMemLimitField: an engine's memlimit replaces the max_memory it is
// told as the limit it is judged by; memlimit=0 measures without judging.
// What the engine is told does not change.
func TestMemLimitField(t *testing.T) {
	if !engine.MemoryMeasured() {
		t.Skip("memory is measured on Linux only")
	}
	s := settings()
	s.MaxMemory, s.MaxPlies = 100<<20, 6
	// Told 100 MiB, judged by 300 MiB: 120 MiB plays on.
	loose := fake(t, "loose", "-mode", "memory", "-mb", "120", "-after", "1")
	loose.MemLimit, loose.HasMemLimit = 300<<20, true
	res := play(t, s, loose, fake(t, "plain"), nil)
	if res.Reason != ReasonPlies || res.PeakMemory[0] <= s.MaxMemory || res.MemoryLimit[0] != 300<<20 {
		t.Fatalf("%v by %q (%s), peak %d, limit %d: want a draw by ply limit, judged by 300 MiB", res.Winner, res.Reason, res.Detail, res.PeakMemory[0], res.MemoryLimit[0])
	}
	// memlimit=0: measured, never judged.
	free := fake(t, "free", "-mode", "memory", "-mb", "120", "-after", "1")
	free.HasMemLimit = true
	res = play(t, s, free, fake(t, "plain"), nil)
	if res.Reason != ReasonPlies || res.PeakMemory[0] <= s.MaxMemory {
		t.Fatalf("%v by %q (%s), peak %d: want a draw by ply limit, memory not judged", res.Winner, res.Reason, res.Detail, res.PeakMemory[0])
	}
	// A tighter memlimit than max_memory loses.
	tight := fake(t, "tight", "-mode", "memory", "-mb", "120", "-after", "1")
	tight.MemLimit, tight.HasMemLimit = 110<<20, true
	s.MaxMemory = 400 << 20
	res = play(t, s, tight, fake(t, "plain"), nil)
	if res.Winner != eval.White || res.Reason != ReasonMemory || !strings.Contains(res.Detail, "limit 110.0 MB") {
		t.Fatalf("%v by %q (%s), want White by memory over 110 MB", res.Winner, res.Reason, res.Detail)
	}
	es, err := s.ForEngine(tight)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := es.Value("max_memory"); v != "419430400" {
		t.Errorf("told max_memory %s, want the match's 419430400 (memlimit is not sent)", v)
	}
}
