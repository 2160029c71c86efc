//go:build race

package selfplay

// raceDetector is true in a -race build, where the tests play fewer and
// smaller games: the race detector makes the search about 25 times slower.
const raceDetector = true
