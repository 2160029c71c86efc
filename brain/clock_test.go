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
		instant            bool
	}{
		{"turn 0 answers at once", Clock{TurnMS: 0, LeftMS: Unlimited, haveLeft: true}, 200, 0, 30 * time.Millisecond, true},
		{"1 s a move, no game limit", Clock{TurnMS: 1000, LeftMS: Unlimited, haveLeft: true}, 200, 690 * time.Millisecond, 920 * time.Millisecond, false},
		{"Gomocup 30 s / 180 s, game start", Clock{TurnMS: 30000, MatchMS: 180000, LeftMS: 180000, haveLeft: true}, 222, 4500 * time.Millisecond, 13500 * time.Millisecond, false},
		{"300 ms left of the game", Clock{TurnMS: 5000, LeftMS: 300, haveLeft: true}, 150, 10 * time.Millisecond, 21 * time.Millisecond, false},
		{"time already over", Clock{TurnMS: 5000, LeftMS: -50, haveLeft: true}, 150, 10 * time.Millisecond, 20 * time.Millisecond, false},
		{"match limit before any time_left", Clock{TurnMS: 5000, MatchMS: 100000, LeftMS: Unlimited}, 225, 2500 * time.Millisecond, 4720 * time.Millisecond, false},
		{"100 ms a move", Clock{TurnMS: 100, LeftMS: Unlimited, haveLeft: true}, 200, 48 * time.Millisecond, 65 * time.Millisecond, false},
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
			if b.Soft.After(b.Hard) {
				t.Errorf("soft %v after hard %v", b.Soft, b.Hard)
			}
			if c.clock.TurnMS > 0 && b.Hard.Sub(now) > time.Duration(c.clock.TurnMS)*time.Millisecond && c.clock.TurnMS >= 100 {
				t.Errorf("hard deadline beyond the turn limit")
			}
		})
	}
}
