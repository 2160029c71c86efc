//go:build linux

package engine

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// memorySupported says whether treeUSS can measure here.
const memorySupported = true

// treeUSS returns the unique set size in bytes of the process pid and all
// its descendants, as GomocupJudge measures an engine (psutil's USS: the
// Private_* lines of /proc/PID/smaps_rollup, summed over the tree). A
// process that has just exited counts as zero.
func treeUSS(pid int) (int64, error) {
	var total int64
	var firstErr error
	seen := map[int]bool{}
	stack := []int{pid}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		n, err := processUSS(p)
		if err != nil {
			if p == pid && firstErr == nil && !os.IsNotExist(err) {
				firstErr = err
			}
			continue
		}
		total += n
		stack = append(stack, children(p)...)
	}
	return total, firstErr
}

// processUSS sums the Private_* fields (kB) of one process's smaps_rollup,
// or of its smaps on kernels older than 4.14.
func processUSS(pid int) (int64, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	data, err := os.ReadFile(dir + "/smaps_rollup")
	if err != nil {
		if data, err = os.ReadFile(dir + "/smaps"); err != nil {
			return 0, err
		}
	}
	var kb int64
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		if !bytes.HasPrefix(l, []byte("Private")) {
			continue
		}
		_, rest, ok := bytes.Cut(l, []byte{':'})
		if !ok {
			continue
		}
		f := strings.Fields(string(rest))
		if len(f) == 0 {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			kb += n
		}
	}
	return kb << 10, nil
}

// children lists the child processes of pid, from every thread's
// /proc/PID/task/TID/children.
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var kids []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}
