//go:build unix

package engine

import (
	"os/exec"
	"syscall"
)

// isolate puts the engine in its own process group, so that Ctrl-C on the
// terminal reaches only the runner (which then ends the engines itself), and
// so that killGroup can end any helper processes the engine started.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the engine's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
