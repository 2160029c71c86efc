package brain

import (
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	now := time.Unix(1000, 0)
	cases := []struct {
		name               string
		clock              Clock
		empties            int
		wantSoft, wantHard time.Duration
		wantWatch          time.Duration
		instant            bool
	}{
		{"turn 0 answers at once", Clock{TurnMS: 0, LeftMS: Unlimited, haveLeft: true}, 200, 0, 30 * time.Millisecond, 60 * time.Millisecond, true},
		{"1 s a move, no game limit", Clock{TurnMS: 1000, LeftMS: Unlimited, haveLeft: true}, 200, 950 * time.Millisecond, 950 * time.Millisecond, 990 * time.Millisecond, false},
		{"Gomocup 30 s / 180 s, game start", Clock{TurnMS: 30000, MatchMS: 180000, LeftMS: 180000, haveLeft: true}, 222, 8181 * time.Millisecond, 24543 * time.Millisecond, 24743 * time.Millisecond, false},
		{"300 ms left of the game", Clock{TurnMS: 5000, LeftMS: 300, haveLeft: true}, 150, 13 * time.Millisecond, 39 * time.Millisecond, 239 * time.Millisecond, false},
		{"time already over", Clock{TurnMS: 5000, LeftMS: -50, haveLeft: true}, 150, 2 * time.Millisecond, 4 * time.Millisecond, 14 * time.Millisecond, false},
		{"match limit before any time_left", Clock{TurnMS: 5000, MatchMS: 100000, LeftMS: Unlimited}, 225, 4545 * time.Millisecond, 4870 * time.Millisecond, 4990 * time.Millisecond, false},
		{"100 ms a move", Clock{TurnMS: 100, LeftMS: Unlimited, haveLeft: true}, 200, 68 * time.Millisecond, 68 * time.Millisecond, 90 * time.Millisecond, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.clock.Budget(now, c.empties)
			if b.Instant != c.instant {
				t.Errorf("instant %v, want %v", b.Instant, c.instant)
			}
			if got := b.Soft.Sub(now); !c.instant && got != c.wantSoft {
				t.Errorf("soft %v, want %v", got, c.wantSoft)
			}
			if got := b.Hard.Sub(now); got != c.wantHard {
				t.Errorf("hard %v, want %v", got, c.wantHard)
			}
			if got := b.Watch.Sub(now); got != c.wantWatch {
				t.Errorf("watch %v, want %v", got, c.wantWatch)
			}
			if !b.Watch.After(b.Hard) {
				t.Errorf("watchdog at %v, not after the hard limit %v", b.Watch, b.Hard)
			}
			if b.Soft.After(b.Hard) {
				t.Errorf("soft %v after hard %v", b.Soft, b.Hard)
			}
			if c.clock.TurnMS > 0 && b.Hard.Sub(now) > time.Duration(c.clock.TurnMS)*time.Millisecond && c.clock.TurnMS >= 100 {
				t.Errorf("hard deadline beyond the turn limit")
			}
		})
	}
}

// TestBudgetKeepsTimeForALongGame plays out a game to a full board in
// which every move spends what a search whose best move keeps changing
// spends (half again its soft limit, at most its hard one): under
// Gomocup's game clocks the engine must not run its clock out, and no
// hard limit may reach beyond the time left.
func TestBudgetKeepsTimeForALongGame(t *testing.T) {
	for _, c := range []struct {
		name            string
		turnMS, matchMS int64
		cells, ourMoves int
	}{
		{"Gomocup 30 s / 180 s, 20x20, to a full board", 30000, 180000, 400, 200},
		{"fastgame 5 s / 120 s, 15x15, to a full board", 5000, 120000, 225, 112},
		{"10 s a game, 15x15, to a full board", 5000, 10000, 225, 112},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := time.Unix(1000, 0)
			clock := Clock{TurnMS: c.turnMS, MatchMS: c.matchMS, LeftMS: c.matchMS, haveLeft: true}
			empties := c.cells
			for move := 0; move < c.ourMoves; move++ {
				b := clock.Budget(now, empties)
				hard := b.Hard.Sub(now).Milliseconds()
				if hard > clock.LeftMS && hard > 20 {
					t.Fatalf("move %d: hard limit %d ms beyond the %d ms left", move, hard, clock.LeftMS)
				}
				spent := min(hard, b.Soft.Sub(now).Milliseconds()*3/2)
				clock.SetLeft(clock.LeftMS - spent)
				empties -= 2 // ours and the opponent's
			}
			// The managers forfeit a move that takes a second more than
			// the time left (PROTOCOL.md): the clock may end a little
			// below zero, where the least a move takes is a few ms, but
			// never near that second.
			if clock.LeftMS < -500 {
				t.Fatalf("the clock ran out: %d ms left after %d moves", clock.LeftMS, c.ourMoves)
			}
		})
	}
}
