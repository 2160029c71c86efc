//go:build race

package search

// raceDetector is true in a -race build, where the slow suite checks run on
// a sample: the race detector makes the search about ten times slower. CI
// also runs them in full without it.
const raceDetector = true
