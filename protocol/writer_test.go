package protocol

import (
	"errors"
	"log"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriterLines(t *testing.T) {
	var out syncBuffer
	w := NewWriter(&out)
	w.Move(Move{7, 8})
	w.Moves([]Move{{1, 2}, {3, 4}, {5, 6}})
	w.OK()
	w.Swap()
	w.Error("bad\r\nthing")
	w.Error("")
	w.Unknown("")
	w.Message("two\nlines\u2028here\x85")
	w.Message("\r\n") // nothing left: no line at all
	w.Debug("tab\there")
	w.Forbid(nil)
	w.Forbid([]Move{{7, 7}, {12, 3}, {-1, 2}, {100, 0}})
	w.About(About{Name: "Wu,zi", Version: "0.1", Author: `A "B"=C`, Country: "CZ"})
	w.About(About{Name: "x", WWW: "https://example.org", Email: "a@b"})
	want := strings.Join([]string{
		"7,8",
		"1,2 3,4 5,6",
		"OK",
		"SWAP",
		"ERROR bad  thing",
		"ERROR error",
		"UNKNOWN command",
		"MESSAGE two lines here",
		"DEBUG tab here",
		"FORBID .",
		"FORBID 07071203.",
		`name="Wuzi", version="0.1", author="A BC", country="CZ"`,
		`name="x", version="", author="", country="", www="https://example.org", email="a@b"`,
	}, "\n") + "\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkOutput(t, out.String())
}

func TestFormatInfo(t *testing.T) {
	cases := []struct {
		si   SearchInfo
		want string
	}{
		{SearchInfo{Depth: 8, SelDepth: 14, Score: 120, Nodes: 1_200_000, Elapsed: 1500 * time.Millisecond, PV: []Move{{7, 7}, {8, 8}, {9, 9}}},
			"depth 8-14 ev 120 n 1.2M n/s 800k tm 1500 pv h8 i9 j10"},
		{SearchInfo{Depth: 5, Mate: 3, Nodes: 999}, "depth 5 win in 3 n 999 tm 0"},
		{SearchInfo{Depth: 5, Mate: -2, MultiPV: 2, Nodes: 5_000_000_000, Elapsed: time.Second, PV: []Move{{27, 3}}},
			"[2] depth 5 lose in 2 n 5G n/s 5G tm 1000 pv (27,3)"},
	}
	for _, c := range cases {
		if got := FormatInfo(c.si); got != c.want {
			t.Errorf("FormatInfo(%+v) = %q, want %q", c.si, got, c.want)
		}
	}
	var out syncBuffer
	NewWriter(&out).Info(cases[0].si)
	if got := out.String(); got != "MESSAGE "+cases[0].want+"\n" {
		t.Errorf("Info wrote %q", got)
	}
}

func TestDebugLogger(t *testing.T) {
	var out syncBuffer
	w := NewWriter(&out)
	l := log.New(w.DebugLogger(), "wuzi: ", 0)
	l.Printf("hash %d MB\nsecond line\r\n\n7,7", 64)
	want := "DEBUG wuzi: hash 64 MB\nDEBUG second line\nDEBUG 7,7\n"
	if got := out.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestWriterConcurrent checks that lines from many goroutines never mix.
func TestWriterConcurrent(t *testing.T) {
	var out syncBuffer
	w := NewWriter(&out)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				w.Message(strings.Repeat("x", 100))
				w.Move(Move{j, i})
			}
		}()
	}
	wg.Wait()
	checkOutput(t, out.String())
	if n := strings.Count(out.String(), "\n"); n != 8*200*2 {
		t.Errorf("%d lines, want %d", n, 8*200*2)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("closed")
}

func TestWriterError(t *testing.T) {
	f := &failWriter{}
	w := NewWriter(f)
	w.OK()
	w.OK()
	if w.Err() == nil || f.n != 1 {
		t.Errorf("Err() = %v after %d writes", w.Err(), f.n)
	}
}

func TestOneLine(t *testing.T) {
	long := oneLine(strings.Repeat("é", 10000), "")
	if len(long) > maxTextBytes+4 {
		t.Errorf("text not cut: %d bytes", len(long))
	}
	if got := oneLine("a\xffb\uFFFDc", ""); got != "a b\uFFFDc" {
		t.Errorf("got %q", got)
	}
}
