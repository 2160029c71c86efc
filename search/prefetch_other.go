//go:build !amd64 && !arm64

package search

// prefetchSlot does nothing where the project has no prefetch
// instruction for the architecture: the probe then waits for its miss.
func prefetchSlot(*ttSlot) {}
