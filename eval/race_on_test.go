//go:build race

package eval

// raceDetector is true in a -race build, where the random-game comparison
// runs fewer games: the race detector makes it about ten times slower, and
// eval shares nothing between goroutines but its read-only tables.
const raceDetector = true
