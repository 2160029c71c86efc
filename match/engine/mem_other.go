//go:build !linux

package engine

import "errors"

// memorySupported says whether treeUSS can measure here.
const memorySupported = false

// treeUSS is not implemented outside Linux: memory is not measured there.
func treeUSS(pid int) (int64, error) {
	return 0, errors.New("memory is measured on Linux only")
}
