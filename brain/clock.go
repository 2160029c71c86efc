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
	// Watch: a search that has not returned by this time is abandoned
	// and the move is answered without it (see Brain.runSearch). It lies
	// between Hard and the manager's own limit for the move.
	Watch time.Time
}

// Margins keep the answer inside the limit: the search polls the clock
// every 256 nodes, the move must still be written, and the managers
// measure from their side of a pipe on a busy machine. Every manager adds
// a tolerance of a second or more on top (PROTOCOL.md), so the margin
// itself can be small: at a 1 s turn the hard limit is 950 ms (5 % kept
// back until the 98th session gave 920 ms; Rapfi moves at a median 971),
// and in the 1 s gauntlets the move came at most 34 ms after the limit
// (968 ms at worst over 80 games at 950).
const (
	turnReserveMS = 30 // always kept back from timeout_turn
	turnReservePc = 2  // and this percentage of it
	// softPc is the share of the hard limit after which a fixed-turn
	// search starts no new iteration: all of it, so a fixed turn is
	// spent to its hard limit; an unfinished iteration is cut there and
	// still counts when a move searched to its end beat the first one.
	// Against Rapfi at 30,000 nodes a move, Wuzi at 300 ms, 100 against
	// 75 gained +64 ± 61 and +69 ± 56 Elo on two sets of openings
	// (docs/evidence.md, 24th session; −3 ± 20 at 200 ms against Rapfi
	// at 5,000 nodes, which rarely plays the long wins that more time
	// finds). Under a game clock the share of the time left still binds.
	softPc = 100
	// A move's hard limit is never below maxFloorMS while the clock has
	// time for it, and never below minFloorMS.
	maxFloorMS = 20
	minFloorMS = 4
	// The watchdog's grace after the hard limit: what is left of the
	// manager's limit less watchMarginMS, but at least minWatchMS and at
	// most maxWatchMS. At a 1 s turn the hard limit is 950 ms and the
	// watchdog bites at 990 ms; the search itself answers by the hard
	// limit plus the time between two clock polls and the write (the
	// worst of 120 gauntlet games at 1 s, under the old 920 ms limit:
	// 943 ms).
	watchMarginMS = 10
	minWatchMS    = 10
	maxWatchMS    = 200
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
		return Budget{Instant: true, Soft: now, Hard: now.Add(30 * time.Millisecond), Watch: now.Add(60 * time.Millisecond)}
	}
	hard := turn - turnReserveMS - turn*turnReservePc/100
	left := int64(Unlimited)
	if c.haveLeft && leftMS < Unlimited {
		left = leftMS
	} else if !c.haveLeft && match > 0 {
		left = match
	}
	soft := hard * softPc / 100
	floor := int64(maxFloorMS)
	if left != Unlimited {
		// Our own moves still to come: about half the empty cells, but
		// plan for at most 22 (at least 10). Games between strong engines
		// rarely last 40 moves of one side, and a time share of left/22
		// shrinks geometrically, so a long game still keeps time; planning
		// for 20 to 40 moves left two thirds of a 10 s clock unspent and
		// lost to this plan by 111 Elo (docs/evidence.md).
		movesLeft := int64(min(max(empties/2, 10), 22))
		share := left / movesLeft
		soft = min(soft, share)
		hard = min(hard, left/5, max(share*3, 0))
		// Every move takes some time however little is left: once the
		// clock is nearly spent the least a move may take shrinks too, so
		// that the moves still to come on a full board fit in what is
		// left rather than running it negative 20 ms at a time.
		floor = min(floor, max(minFloorMS, left/int64(max(empties/2, 1))))
	}
	hard = max(hard, floor)
	soft = max(min(soft, hard), floor/2)
	limit := turn
	if left != Unlimited {
		limit = min(limit, left)
	}
	watch := hard + min(max(limit-hard-watchMarginMS, minWatchMS), maxWatchMS)
	ms := func(v int64) time.Time { return now.Add(time.Duration(v) * time.Millisecond) }
	return Budget{Soft: ms(soft), Hard: ms(hard), Watch: ms(watch)}
}
