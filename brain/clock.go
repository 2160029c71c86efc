package brain

import (
	"time"
)

// Unlimited is the protocol's value for "no limit" in time_left.
const Unlimited = 2147483647

// Clock turns the manager's INFO time limits into the deadlines of one
// move. All values are milliseconds as the protocol sends them.
type Clock struct {
	TurnMS  int64 // timeout_turn; 0 = play at once
	MatchMS int64 // timeout_match; 0 = no game limit
	LeftMS  int64 // time_left; Unlimited = none; may be negative
	// haveLeft is set once time_left was sent; before that the match
	// limit stands in for it.
	haveLeft bool
}

// NewClock returns Gomocup's usual limits until the manager says
// otherwise: 30 s a move, 180 s a game.
func NewClock() Clock {
	return Clock{TurnMS: 30000, MatchMS: 180000, LeftMS: Unlimited}
}

// SetLeft records a time_left value.
func (c *Clock) SetLeft(ms int64) {
	c.LeftMS = ms
	c.haveLeft = true
}

// Budget is what one move may spend.
type Budget struct {
	// Instant: answer with the quickest reasonable move.
	Instant bool
	// Soft: start no new iteration after this.
	Soft time.Time
	// Hard: the move must be out by this.
	Hard time.Time
}

// Margins keep the answer inside the limit: the search polls the clock
// every 256 nodes, the move must still be written, and the managers
// measure from their side of a pipe on a busy machine. Every manager adds
// a tolerance of a second or more on top (PROTOCOL.md), so the margin
// itself can be small.
const (
	turnReserveMS = 30 // always kept back from timeout_turn
	turnReservePc = 5  // and this percentage of it
	// softPc is the share of the hard limit after which a fixed-turn
	// search starts no new iteration; an unfinished iteration is cut at
	// the hard limit and still counts when a move searched to its end
	// beat the first one.
	softPc = 75
)

// Budget computes the deadlines of a move that starts at now with empties
// empty cells left on the board.
func (c *Clock) Budget(now time.Time, empties int) Budget {
	// Beyond a few weeks a limit means "none"; capping keeps the
	// arithmetic below from overflowing.
	const longMS = 1 << 31
	turn, match, leftMS := min(c.TurnMS, longMS), min(c.MatchMS, longMS), min(c.LeftMS, longMS)
	if turn <= 0 {
		// timeout_turn 0: play at once.
		return Budget{Instant: true, Soft: now, Hard: now.Add(30 * time.Millisecond)}
	}
	hard := turn - turnReserveMS - turn*turnReservePc/100
	left := int64(Unlimited)
	if c.haveLeft && leftMS < Unlimited {
		left = leftMS
	} else if !c.haveLeft && match > 0 {
		left = match
	}
	soft := hard * softPc / 100
	if left != Unlimited {
		// Our own moves still to come: about half the empty cells, but
		// plan for at least 20 and at most 40 so that a long game keeps
		// time and a short one is not starved.
		movesLeft := int64(min(max(empties/2, 20), 40))
		share := left / movesLeft
		soft = min(soft, share)
		hard = min(hard, left/5, max(share*3, 0))
	}
	if hard < 20 {
		hard = 20
	}
	soft = max(min(soft, hard), 10)
	return Budget{Soft: now.Add(time.Duration(soft) * time.Millisecond), Hard: now.Add(time.Duration(hard) * time.Millisecond)}
}
