package protocol

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxTextBytes caps the free text of one ERROR, UNKNOWN, MESSAGE or DEBUG
// line.
const maxTextBytes = 4096

// Writer is the one way to the manager: every line goes out through it, in a
// single Write call ended by "\n", under a mutex, so lines from the loop and
// from a thinking brain never interleave. It writes only the line kinds the
// managers accept: moves, OK, ERROR, UNKNOWN, MESSAGE, DEBUG, the ABOUT line,
// SWAP and FORBID. Free text is cut to one line of printable characters, so
// nothing can produce a stray line a manager would read as a move.
//
// Writer implements Reporter. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	out io.Writer
	err error
	buf []byte
}

// NewWriter returns a Writer writing to out. Give it an unbuffered stream
// such as os.Stdout: each line is written at once with one Write call.
func NewWriter(out io.Writer) *Writer {
	return &Writer{out: out}
}

// Err returns the first error the underlying stream returned, if any.
// After an error the Writer drops every further line.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// line writes prefix+text+"\n" as one Write.
func (w *Writer) line(prefix, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	w.buf = append(w.buf[:0], prefix...)
	w.buf = append(w.buf, text...)
	w.buf = append(w.buf, '\n')
	if _, err := w.out.Write(w.buf); err != nil {
		w.err = err
	}
	if cap(w.buf) > 64<<10 {
		w.buf = nil
	}
}

// Move writes a move "x,y".
func (w *Writer) Move(m Move) {
	w.line("", strconv.Itoa(m.X)+","+strconv.Itoa(m.Y))
}

// Moves writes the stones of a SWAP2BOARD answer: "x,y x,y x,y".
func (w *Writer) Moves(ms []Move) {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(m.X))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(m.Y))
	}
	w.line("", b.String())
}

// OK writes "OK".
func (w *Writer) OK() { w.line("OK", "") }

// Swap writes "SWAP", the SWAP2BOARD answer that takes the other colour.
func (w *Writer) Swap() { w.line("SWAP", "") }

// Error writes "ERROR text".
func (w *Writer) Error(text string) { w.line("ERROR ", oneLine(text, "error")) }

// Unknown writes "UNKNOWN text".
func (w *Writer) Unknown(text string) { w.line("UNKNOWN ", oneLine(text, "command")) }

// Message writes "MESSAGE text", shown to the user by the manager. Nothing
// is written when text is empty after cleaning.
func (w *Writer) Message(text string) { w.text("MESSAGE ", text) }

// Debug writes "DEBUG text", kept in the manager's debug log. Nothing is
// written when text is empty after cleaning.
func (w *Writer) Debug(text string) { w.text("DEBUG ", text) }

func (w *Writer) text(prefix, text string) {
	if s := oneLine(text, ""); s != "" {
		w.line(prefix, s)
	}
}

// Forbid writes the YXSHOWFORBID answer: "FORBID " followed by every point
// as four digits, x then y, then ".". Points that do not fit two digits are
// left out.
func (w *Writer) Forbid(ms []Move) {
	var b strings.Builder
	for _, m := range ms {
		if m.X < 0 || m.Y < 0 || m.X > 99 || m.Y > 99 {
			continue
		}
		fmt.Fprintf(&b, "%02d%02d", m.X, m.Y)
	}
	b.WriteByte('.')
	w.line("FORBID ", b.String())
}

// About writes the ABOUT line: name, version, author and country always,
// www and email only when set. Commas, equals signs, double quotes and
// control characters are dropped from the values.
func (w *Writer) About(a About) {
	var b strings.Builder
	field := func(key, val string) {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(key)
		b.WriteString(`="`)
		b.WriteString(aboutValue(val))
		b.WriteByte('"')
	}
	field("name", a.Name)
	field("version", a.Version)
	field("author", a.Author)
	field("country", a.Country)
	if aboutValue(a.WWW) != "" {
		field("www", a.WWW)
	}
	if aboutValue(a.Email) != "" {
		field("email", a.Email)
	}
	w.line("", b.String())
}

// Info writes one search report as a MESSAGE line, for example
// "MESSAGE depth 8-14 ev 120 n 1.2M n/s 800k tm 1500 pv h8 i9 j10", with
// "[k]" in front for the k-th line of a YXNBEST search. Moves are written
// the way Piskvork shows them: column letter, then row counted from 1 at the
// top; columns past z fall back to (x,y).
func (w *Writer) Info(si SearchInfo) { w.text("MESSAGE ", FormatInfo(si)) }

// FormatInfo returns the text Info writes after "MESSAGE ".
func FormatInfo(si SearchInfo) string {
	var b strings.Builder
	if si.MultiPV > 0 {
		fmt.Fprintf(&b, "[%d] ", si.MultiPV)
	}
	fmt.Fprintf(&b, "depth %d", si.Depth)
	if si.SelDepth > si.Depth {
		fmt.Fprintf(&b, "-%d", si.SelDepth)
	}
	switch {
	case si.Mate > 0:
		fmt.Fprintf(&b, " win in %d", si.Mate)
	case si.Mate < 0:
		fmt.Fprintf(&b, " lose in %d", -si.Mate)
	default:
		fmt.Fprintf(&b, " ev %d", si.Score)
	}
	b.WriteString(" n ")
	b.WriteString(humanCount(si.Nodes))
	ms := si.Elapsed.Milliseconds()
	if ms > 0 {
		b.WriteString(" n/s ")
		b.WriteString(humanCount(uint64(float64(si.Nodes) * 1000 / float64(ms))))
	}
	if ms < 0 {
		ms = 0
	}
	fmt.Fprintf(&b, " tm %d", ms)
	if len(si.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range si.PV {
			b.WriteByte(' ')
			b.WriteString(MoveName(m))
		}
	}
	return b.String()
}

// MoveName writes a move as Piskvork shows it: "h8" is x=7, y=7. Columns
// past z and negative coordinates are written "(x,y)".
func MoveName(m Move) string {
	if m.X >= 0 && m.X < 26 && m.Y >= 0 {
		return string(rune('a'+m.X)) + strconv.Itoa(m.Y+1)
	}
	return "(" + strconv.Itoa(m.X) + "," + strconv.Itoa(m.Y) + ")"
}

// humanCount writes n with a k, M or G suffix past a thousand.
func humanCount(n uint64) string {
	switch {
	case n < 1000:
		return strconv.FormatUint(n, 10)
	case n < 1000_000:
		return trimZero(float64(n)/1e3) + "k"
	case n < 1000_000_000:
		return trimZero(float64(n)/1e6) + "M"
	default:
		return trimZero(float64(n)/1e9) + "G"
	}
}

func trimZero(f float64) string {
	s := strconv.FormatFloat(f, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// DebugLogger returns an io.Writer that turns whatever is written to it into
// DEBUG lines, one per line of input; point Go's log package at it with
// log.SetOutput(w.DebugLogger()) so no log line can reach the manager bare.
func (w *Writer) DebugLogger() io.Writer { return debugWriter{w} }

type debugWriter struct{ w *Writer }

func (d debugWriter) Write(p []byte) (int, error) {
	s := string(p)
	for s != "" {
		line := s
		if i := strings.IndexAny(s, "\r\n"); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if strings.TrimSpace(line) != "" {
			d.w.Debug(line)
		}
	}
	return len(p), nil
}

// oneLine makes text safe for one output line: control characters, line
// and paragraph separators and invalid UTF-8 become spaces, surrounding
// spaces go, and the result is cut to maxTextBytes. An empty result is
// replaced by def.
func oneLine(text, def string) string {
	var b strings.Builder
	for i, r := range text {
		if b.Len() >= maxTextBytes {
			break
		}
		switch {
		case r == utf8.RuneError && !validAt(text, i):
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		return def
	}
	return s
}

// validAt reports whether the RuneError at text[i] is a real U+FFFD.
func validAt(text string, i int) bool {
	r, size := utf8.DecodeRuneInString(text[i:])
	return r == utf8.RuneError && size == 3
}

// aboutValue drops what may not appear inside an ABOUT value.
func aboutValue(s string) string {
	s = oneLine(s, "")
	return strings.Map(func(r rune) rune {
		switch r {
		case ',', '=', '"':
			return -1
		}
		return r
	}, s)
}
