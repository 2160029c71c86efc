//go:build linux

package search

import (
	"bytes"
	"os"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64.
const hugePage = 2 << 20

// adviseHugePages asks the kernel to back the 2 MiB-aligned interior of
// the table t's memory with transparent huge pages (madvise MADV_HUGEPAGE). The
// tables are probed at random, so with 4 KiB pages a fresh table faults
// on almost every probe of the first searches, and each game of a match or
// a tournament is a fresh process. On this project's machine a 200 ms
// first search of a fresh 256 MiB table searched 2.5 to 3.7 times the
// nodes with the advice; the gap closes once the table is touched, after
// two or three moves at 1 s (docs/evidence.md, Speed). Since then a
// search probes only the part of the main table its time can fill (see
// TT.Reserve), which keeps most of that gain where there are no huge
// pages. Where the kernel has transparent huge pages off, the advice
// changes nothing; an error is ignored for the same reason.
func adviseHugePages[E any](t []E) {
	if len(t) == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(t))
	n := uintptr(len(t)) * unsafe.Sizeof(t[0])
	base := uintptr(p)
	start := (base + hugePage - 1) &^ (hugePage - 1)
	end := (base + n) &^ (hugePage - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-base)), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}

// thpEnabled is where the kernel says when it backs memory with
// transparent huge pages: "always", "madvise" or "never", the one in force
// bracketed.
const thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"

// hugePagesOn reports whether memory given adviseHugePages is backed by
// huge pages: the kernel has transparent huge pages on, always or on
// advice. Without them a large table probed at random costs a TLB miss a
// probe (see ttGameRoom).
func hugePagesOn() bool {
	b, err := os.ReadFile(thpEnabled)
	return err == nil && thpOn(b)
}

// thpOn reads the contents of thpEnabled: whether the mode in force is
// always or madvise.
func thpOn(enabled []byte) bool {
	return bytes.Contains(enabled, []byte("[always]")) || bytes.Contains(enabled, []byte("[madvise]"))
}
