//go:build !unix

package engine

import "os/exec"

// isolate does nothing where process groups are not available.
func isolate(cmd *exec.Cmd) {}

// killGroup kills the engine process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
