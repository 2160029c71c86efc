package protocol

import (
	"bytes"
	"io"
)

// DefaultMaxLineBytes is the longest command line kept in full. Longer lines
// are cut there, the rest is discarded, and the line is treated as a bad one.
const DefaultMaxLineBytes = 64 << 10

// rawLine is one trimmed, non-empty input line.
type rawLine struct {
	text    string // trimmed of spaces and tabs; at most maxLine bytes
	tooLong bool   // the line was longer than maxLine and was cut
}

// lineReader splits a byte stream into lines ended by CR LF, LF or a bare CR.
// It keeps at most max bytes of a line, so memory stays bounded whatever
// arrives.
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int
	max        int
	line       []byte
	over       bool
	err        error
	first      bool
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{r: r, buf: make([]byte, 4096), max: max, first: true}
}

func (lr *lineReader) add(p []byte) {
	room := lr.max - len(lr.line)
	if len(p) > room {
		p = p[:room]
		lr.over = true
	}
	lr.line = append(lr.line, p...)
}

// next returns the next non-empty line after trimming, or the read error
// (io.EOF at the end of input) once every line before it has been returned.
func (lr *lineReader) next() (rawLine, error) {
	for {
		if l, ok := lr.scan(); ok {
			return l, nil
		}
		if lr.err != nil {
			if len(lr.line) > 0 || lr.over {
				if l, ok := lr.emit(); ok {
					return l, nil
				}
			}
			return rawLine{}, lr.err
		}
		n, err := lr.r.Read(lr.buf)
		if n < 0 || n > len(lr.buf) {
			n = 0
		}
		lr.start, lr.end, lr.err = 0, n, err
	}
}

// scan consumes buffered bytes up to the next line end and returns a line if
// one was completed and is not empty.
func (lr *lineReader) scan() (rawLine, bool) {
	for lr.start < lr.end {
		chunk := lr.buf[lr.start:lr.end]
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			lr.add(chunk)
			lr.start = lr.end
			return rawLine{}, false
		}
		lr.add(chunk[:i])
		lr.start += i + 1
		if l, ok := lr.emit(); ok {
			return l, true
		}
	}
	return rawLine{}, false
}

// emit finishes the current line; empty lines (after trimming) are skipped
// unless they were cut for length.
func (lr *lineReader) emit() (rawLine, bool) {
	b := lr.line
	if lr.first && bytes.HasPrefix(b, []byte("\uFEFF")) {
		b = b[3:] // a byte-order mark some Windows tools put before the first line
	}
	l := rawLine{text: string(trimBlanks(b)), tooLong: lr.over}
	if len(b) > 0 || lr.over {
		lr.first = false
	}
	lr.line = lr.line[:0]
	lr.over = false
	if cap(lr.line) > 4096 {
		lr.line = nil // do not pin a huge buffer after one long line
	}
	return l, l.text != "" || l.tooLong
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func trimBlanks(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func trimBlankString(s string) string {
	for len(s) > 0 && isBlank(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isBlank(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}
