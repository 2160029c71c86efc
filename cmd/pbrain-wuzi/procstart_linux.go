package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// processStart returns when the kernel started this process, read from
// /proc: its start time in clock ticks since boot (field 22 of
// /proc/self/stat, ticks of 1/100 s) against the time since boot
// (/proc/uptime), each to 10 ms. The result carries the monotonic clock,
// so time.Since works on it however the wall clock is set.
func processStart() (time.Time, bool) {
	now := time.Now()
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return time.Time{}, false
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return time.Time{}, false
	}
	return startFromProc(now, string(stat), string(up))
}

// startFromProc computes the start time from the texts of /proc/self/stat
// and /proc/uptime read at now.
func startFromProc(now time.Time, stat, uptime string) (time.Time, bool) {
	// The command name (field 2) is in parentheses and may hold spaces
	// or parentheses itself: the fields after it follow the last ')'.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := strings.Fields(stat[i+1:])
	const startField = 22 - 3 // fields[0] is field 3, the state
	if len(fields) <= startField {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(fields[startField], 10, 64)
	if err != nil || ticks < 0 {
		return time.Time{}, false
	}
	upFields := strings.Fields(uptime)
	if len(upFields) == 0 {
		return time.Time{}, false
	}
	sinceBoot, err := strconv.ParseFloat(upFields[0], 64)
	if err != nil {
		return time.Time{}, false
	}
	const ticksPerSecond = 100 // USER_HZ, the unit of /proc's times
	age := time.Duration((sinceBoot - float64(ticks)/ticksPerSecond) * float64(time.Second))
	if age < 0 {
		age = 0
	}
	return now.Add(-age), true
}
