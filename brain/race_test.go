//go:build race

package brain

// raceEnabled: the race detector slows the search several times over, so
// timing tests widen their limits by raceSlowdown.
const raceSlowdown = 5
