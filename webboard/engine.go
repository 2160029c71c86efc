package webboard

import (
	"context"
	"io"
	"os"

	"wuzi/brain"
	"wuzi/match/engine"
	"wuzi/protocol"
)

// EngineArg is the argument that makes cmd/wuzi-board run the built-in
// engine instead of the board: "wuzi-board engine" speaks the protocol on
// stdin and stdout exactly as pbrain-wuzi does. The board runs its own
// executable this way, so one binary (or one "go run") is all a user needs.
const EngineArg = "engine"

// ServeEngine runs the built-in Wuzi engine, the same brain pbrain-wuzi
// runs, on the given input and output until END or the end of the input.
func ServeEngine(ctx context.Context, in io.Reader, out io.Writer) error {
	return protocol.Run(ctx, in, protocol.NewWriter(out), brain.New(brain.Config{}))
}

// BuiltinSpec is the built-in Wuzi engine: this executable, run with
// EngineArg.
func BuiltinSpec() (engine.Spec, error) {
	exe, err := os.Executable()
	if err != nil {
		return engine.Spec{}, err
	}
	return engine.Spec{Name: "Wuzi " + brain.Version, Command: exe, Args: []string{EngineArg}}, nil
}
