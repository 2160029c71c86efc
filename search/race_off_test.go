//go:build !race

package search

// raceDetector is false without -race: every slow check runs.
const raceDetector = false
