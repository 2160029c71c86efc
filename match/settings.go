package match

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"wuzi/match/engine"
)

// EngineSettings are what one engine is told before a game and held to
// during it: the match settings, with the engine's own options in place of
// the match defaults.
type EngineSettings struct {
	TurnTime  time.Duration // INFO timeout_turn: the time per move it is held to
	MatchTime time.Duration // INFO timeout_match: per game; 0 = no limit
	MaxMemory int64         // INFO max_memory: bytes it may use; 0 = no limit
	// MemoryLimit is what its memory is judged by: MaxMemory, unless the
	// engine's spec gives its own memlimit; 0 = never judged.
	MemoryLimit int64
	// Info is every INFO line sent after START, each key once: the
	// match's keys first (timeout_turn, timeout_match, max_memory,
	// game_type, rule) and the match's extra keys, with the engine's
	// value where it gives one, then the engine's other keys in its order.
	// Keys are lower case.
	Info []engine.Option
}

// ForEngine merges the match settings (the standard keys, then s.Info)
// with an engine's options. An option
// whose key (in any letter case) is a match setting replaces the match's
// value; when an engine gives a key twice, the last value counts. The
// engine's timeout_turn, timeout_match (milliseconds) and max_memory
// (bytes) are also the limits it is judged by. Its rule or game_type is
// only passed on: the referee judges by the match's rule. time_left is not
// a setting (it goes before every move) and is refused.
func (s Settings) ForEngine(sp engine.Spec) (EngineSettings, error) {
	es := EngineSettings{TurnTime: s.TurnTime, MatchTime: s.MatchTime, MaxMemory: s.MaxMemory}
	es.Info = []engine.Option{
		{Key: "timeout_turn", Value: strconv.FormatInt(s.TurnTime.Milliseconds(), 10)},
		{Key: "timeout_match", Value: strconv.FormatInt(s.MatchTime.Milliseconds(), 10)},
		{Key: "max_memory", Value: strconv.FormatInt(s.MaxMemory, 10)},
		{Key: "game_type", Value: "1"},
		{Key: "rule", Value: strconv.Itoa(int(s.Rule))},
	}
	for _, o := range append(slices.Clone(s.Info), sp.Options...) {
		key := strings.ToLower(strings.TrimSpace(o.Key))
		if key == "" || strings.ContainsAny(key, " \t\r\n") || strings.ContainsAny(o.Value, "\r\n") {
			return EngineSettings{}, fmt.Errorf("engine %s: option %q=%q is not one INFO line", sp.Name, o.Key, o.Value)
		}
		var err error
		switch key {
		case "time_left":
			return EngineSettings{}, fmt.Errorf("engine %s: time_left is sent before every move, not a setting", sp.Name)
		case "timeout_turn":
			es.TurnTime, err = millis(o.Value)
		case "timeout_match":
			es.MatchTime, err = millis(o.Value)
		case "max_memory":
			es.MaxMemory, err = strconv.ParseInt(o.Value, 10, 64)
			if err == nil && es.MaxMemory < 0 {
				err = fmt.Errorf("negative")
			}
		}
		if err != nil {
			return EngineSettings{}, fmt.Errorf("engine %s: option %s=%q: want a non-negative integer (%v)", sp.Name, key, o.Value, err)
		}
		es.set(key, o.Value)
	}
	es.MemoryLimit = es.MaxMemory
	if sp.HasMemLimit {
		es.MemoryLimit = sp.MemLimit
	}
	return es, nil
}

// set gives key the value, in place when the key is already there.
func (es *EngineSettings) set(key, value string) {
	for i := range es.Info {
		if es.Info[i].Key == key {
			es.Info[i].Value = value
			return
		}
	}
	es.Info = append(es.Info, engine.Option{Key: key, Value: value})
}

// millis reads a non-negative number of milliseconds.
func millis(v string) (time.Duration, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("negative")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// Value returns the value sent for key (lower case), if any.
func (es EngineSettings) Value(key string) (string, bool) {
	for _, o := range es.Info {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}
