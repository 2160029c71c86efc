package protocol

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// ExampleRun shows the wiring cmd/pbrain-wuzi does: one Writer on stdout,
// the log package pointed at its DEBUG lines (log.SetOutput(w.DebugLogger())
// in main), then Run until END.
func ExampleRun() {
	w := NewWriter(os.Stdout)
	in := strings.NewReader("START 15\r\nINFO timeout_turn 1000\r\nABOUT\r\nFOO\r\nEND\r\n")
	if err := Run(context.Background(), in, w, newFake()); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// OK
	// name="fake", version="1.0", author="tester", country="Nowhere"
	// UNKNOWN FOO
}
