//go:build linux

package engine

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestTreeUSS: the test process has a unique set size, and a process's
// tree counts its children too.
func TestTreeUSS(t *testing.T) {
	self, err := treeUSS(os.Getpid())
	if err != nil || self < 1<<20 {
		t.Fatalf("own USS %d bytes, %v", self, err)
	}
	cmd := exec.Command("sh", "-c", "sleep 5; true")
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var kids []int
	for deadline := time.Now().Add(2 * time.Second); len(kids) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		kids = children(cmd.Process.Pid)
	}
	if len(kids) != 1 {
		t.Fatalf("sh has children %v, want the sleep", kids)
	}
	parent, err := processUSS(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	child, err := processUSS(kids[0])
	if err != nil {
		t.Fatal(err)
	}
	tree, err := treeUSS(cmd.Process.Pid)
	if err != nil || tree != parent+child || child == 0 {
		t.Errorf("tree %d (%v), sh %d + sleep %d", tree, err, parent, child)
	}
	if gone, err := treeUSS(1 << 30); gone != 0 || err != nil {
		t.Errorf("a process that does not exist: %d, %v", gone, err)
	}
}
