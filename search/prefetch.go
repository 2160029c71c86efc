package search

// prefetch asks the processor to start loading the bucket where key's
// entry would be, without waiting for it: the searches call it before
// they play a move whose child will probe the table, so that the probe's
// cache miss (most probes of a large table miss) overlaps the board's
// update instead of following it. It changes nothing else.
func (t *TT) prefetch(key uint64) {
	prefetchSlot(&t.slots[key&t.mask])
}
