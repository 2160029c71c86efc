//go:build !linux

package search

// adviseHugePages does nothing outside Linux: Windows' large pages need a
// privilege a Gomocup engine does not have (see huge_linux.go).
func adviseHugePages[E any](t []E) {}

// hugePagesOn is false outside Linux: no huge pages back the tables.
func hugePagesOn() bool { return false }
