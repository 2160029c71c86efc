package main

import (
	"syscall"
	"time"
)

// processStart returns when Windows created this process
// (GetProcessTimes), as an age subtracted from the monotonic clock's now.
func processStart() (time.Time, bool) {
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return time.Time{}, false
	}
	var created, exited, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(self, &created, &exited, &kernel, &user); err != nil {
		return time.Time{}, false
	}
	now := time.Now()
	age := now.Sub(time.Unix(0, created.Nanoseconds()))
	if age < 0 {
		age = 0
	}
	return now.Add(-age), true
}
