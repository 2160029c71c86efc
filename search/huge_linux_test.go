//go:build linux

package search

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// vmaFlags returns the VmFlags of the mapping of this process that holds
// address a, from /proc/self/smaps.
func vmaFlags(t *testing.T, a uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Fields(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return nil
}

// TestTablesAdviseHugePages checks that the transposition table and the
// threat search's proof table are advised for transparent huge pages (the
// "hg" flag of their mappings), which multiplied the nodes of a fresh
// engine's first searches (docs/evidence.md, Speed). Whether the kernel
// then supplies huge pages depends on its settings, not on us.
func TestTablesAdviseHugePages(t *testing.T) {
	if data, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(data), "[never]") {
		t.Skip("transparent huge pages are off or absent on this kernel")
	}
	tt := NewTT(64)
	pn := newPNTable(20)
	for _, c := range []struct {
		name string
		p    unsafe.Pointer
		n    uintptr
	}{
		{"transposition table", unsafe.Pointer(&tt.slots[0]), uintptr(len(tt.slots)) * unsafe.Sizeof(tt.slots[0])},
		{"proof table", unsafe.Pointer(&pn.e[0]), uintptr(len(pn.e)) * unsafe.Sizeof(pn.e[0])},
	} {
		if c.n < 2*hugePage {
			t.Fatalf("%s: %d bytes, too small to test", c.name, c.n)
		}
		mid := uintptr(c.p) + c.n/2
		flags := vmaFlags(t, mid)
		found := false
		for _, f := range flags {
			found = found || f == "hg"
		}
		if !found {
			t.Errorf("%s: the mapping at its middle has VmFlags %v, no hg (MADV_HUGEPAGE)", c.name, flags)
		}
	}
}

// TestTHPOn: the kernel's mode in force is the bracketed one; huge pages
// back advised memory under always and madvise, not under never.
func TestTHPOn(t *testing.T) {
	for in, want := range map[string]bool{
		"[always] madvise never\n": true,
		"always [madvise] never\n": true,
		"always madvise [never]\n": false,
		"":                         false,
	} {
		if got := thpOn([]byte(in)); got != want {
			t.Errorf("thpOn(%q) = %v, want %v", in, got, want)
		}
	}
}
