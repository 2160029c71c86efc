//go:build amd64 || arm64

package search

// prefetchSlot issues a prefetch of the cache line holding *p
// (prefetch_amd64.s, prefetch_arm64.s). It never faults and returns at
// once.
//
//go:noescape
func prefetchSlot(p *ttSlot)
