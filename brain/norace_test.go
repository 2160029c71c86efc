//go:build !race

package brain

// raceSlowdown is 1 without the race detector: timing limits are the real
// ones.
const raceSlowdown = 1
