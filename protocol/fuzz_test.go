package protocol

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzSession feeds arbitrary input to a whole session: Run must not panic,
// must not hang, and must write nothing but allowed lines.
//
//	go test ./protocol -run=^$ -fuzz=FuzzSession -fuzztime=20s
func FuzzSession(f *testing.F) {
	seeds := []string{
		"START 15\r\nBEGIN\r\nTURN 7,7\r\nEND\r\n",
		"start 20\nINFO timeout_turn 1000\nINFO folder C:\\a b\nboard\n7,7,1\n8,8,2\ndone\n",
		"START 15\rBOARD\rDONE\rTURN 0,0\rTURN 0,0\r",
		"START 15\nBOARD\n1,1,1\n1,1,2\nDONE\nBOARD\n1,1,1\nxyz\nDONE\nBOARD\n1,1\nABOUT\n",
		"START 15\nYXBOARD\n3,3,1\nDONE\nYXSHOWFORBID\nYXHASHCLEAR\nYXNBEST 2\nSTOP\nYXSTOP\n",
		"RECTSTART 20,15\nSWAP2BOARD\nDONE\nSWAP2BOARD\n1,1\n2,2\n3,3\nDONE\nSWAP2BOARD\n1,1\nDONE\n",
		"START 0\nSTART 10000\nSTART abc\nTURN a,b\nTURN 3\nTURN 1,2,3\nTURN -1,-1\nDONE\nFOO bar\n",
		"START 15\nTAKEBACK 0,0\nPLAY 1,1\nTAKEBACK 1,1\nRESTART\nABOUT\nINFO\nINFO time_left -5\n",
		"START 15\nTURN 13,13\nBEGIN\n",
		"\x00\xff\xfe\r\n\t \t\n" + strings.Repeat("A", 300) + "\nSTART 5\n",
		"START 5\nBOARD\n" + strings.Repeat("0,0,1\n", 40) + "DONE\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := newFake()
		b.panicAt = &Move{13, 13}
		b.forbidden = []Move{{1, 2}, {100, 3}}
		out := &syncBuffer{}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, bytes.NewReader(data), NewWriter(out), b, WithMaxLineBytes(64), WithEndGrace(50*time.Millisecond))
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Run hung on %q", data)
		}
		checkOutput(t, out.String())
	})
}
