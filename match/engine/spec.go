// Package engine runs one Piskvork-protocol brain as a child process: it
// starts it, writes commands with CR LF line ends, reads its answers on a
// background goroutine, and classifies what goes wrong (time-out, crash,
// unparseable or ERROR answer) with the last lines the engine printed.
//
// The package knows the protocol's lines but no rules: which move is legal
// is the referee's business.
package engine

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Option is one extra "INFO key value" line sent after the standard ones.
type Option struct {
	Key, Value string
}

// Spec says how to run an engine.
type Spec struct {
	Name    string   // shown in tables and game records; defaults to the program's base name
	Command string   // program to run
	Args    []string // its arguments
	Dir     string   // working directory; empty for the runner's own
	Options []Option // extra INFO lines, in order
	// MemLimit, when HasMemLimit is set, is the memory in bytes the
	// engine is judged by instead of the max_memory it is told (0: its
	// memory is measured and shown but never loses a game), for engines
	// that ignore max_memory or keep no room beside their hash.
	MemLimit    int64
	HasMemLimit bool
}

// ParseSpec reads an engine description: comma-separated key=value fields
//
//	cmd=PROGRAM [ARGS...]   the command, split on spaces (required; a first field without '=' is the command too)
//	dir=DIR                 working directory
//	name=NAME               display name
//	option=KEY=VALUE        an extra "INFO KEY VALUE" line (repeatable)
//	memlimit=BYTES          the memory it is judged by, if not its max_memory (0: not judged)
//
// for example "cmd=./pbrain-wuzi,name=wuzi,option=hash_size=64".
func ParseSpec(s string) (Spec, error) {
	var sp Spec
	for i, field := range strings.Split(s, ",") {
		field = strings.TrimSpace(field)
		if field == "" {
			continue
		}
		key, value, ok := strings.Cut(field, "=")
		if !ok {
			if i == 0 {
				key, value = "cmd", field
			} else {
				return Spec{}, fmt.Errorf("engine %q: field %q is not key=value", s, field)
			}
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "cmd", "command":
			words := strings.Fields(value)
			if len(words) == 0 {
				return Spec{}, fmt.Errorf("engine %q: empty command", s)
			}
			sp.Command, sp.Args = words[0], words[1:]
		case "dir":
			sp.Dir = value
		case "name":
			sp.Name = value
		case "memlimit":
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return Spec{}, fmt.Errorf("engine %q: memlimit %q is not a number of bytes", s, value)
			}
			sp.MemLimit, sp.HasMemLimit = n, true
		case "option", "info":
			k, v, ok := strings.Cut(value, "=")
			if !ok || strings.TrimSpace(k) == "" {
				return Spec{}, fmt.Errorf("engine %q: option %q is not KEY=VALUE", s, value)
			}
			sp.Options = append(sp.Options, Option{strings.TrimSpace(k), strings.TrimSpace(v)})
		default:
			return Spec{}, fmt.Errorf("engine %q: unknown field %q (want cmd, dir, name, option, memlimit)", s, key)
		}
	}
	if sp.Command == "" {
		return Spec{}, fmt.Errorf("engine %q: no cmd", s)
	}
	if sp.Name == "" {
		sp.Name = DefaultName(sp.Command)
	}
	return sp, nil
}

// DefaultName derives a display name from a program path: the base name
// without a ".exe" extension.
func DefaultName(command string) string {
	base := filepath.Base(command)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".EXE")
}
