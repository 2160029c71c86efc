package engine

import (
	"sync"
	"time"
)

// MemoryInterval is how often a memory watch samples the engine.
const MemoryInterval = 50 * time.Millisecond

// MemoryMeasured says whether memory is measured on this system (Linux
// only); elsewhere every measurement is zero.
func MemoryMeasured() bool { return memorySupported }

// Memory returns the unique set size (USS) in bytes of the engine's process
// and all its descendants now, as GomocupJudge measures an engine.
func (p *Process) Memory() (int64, error) {
	if !memorySupported || p.cmd.Process == nil {
		return 0, nil
	}
	return treeUSS(p.cmd.Process.Pid)
}

// MemoryWatch samples an engine's memory while it thinks.
type MemoryWatch struct {
	p        *Process
	limit    int64
	over     func()
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	peak     int64
	exceeded bool
}

// WatchMemory samples the engine's memory now and then every interval
// until Stop. When a sample exceeds limit (> 0), over is called once, at
// once (to stop waiting for the move). Where memory is not measured it
// does nothing.
func (p *Process) WatchMemory(interval time.Duration, limit int64, over func()) *MemoryWatch {
	w := &MemoryWatch{p: p, limit: limit, over: over, stop: make(chan struct{}), done: make(chan struct{})}
	if !memorySupported {
		close(w.done)
		return w
	}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			w.sample()
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *MemoryWatch) sample() {
	n, err := w.p.Memory()
	if err != nil {
		return
	}
	w.mu.Lock()
	w.peak = max(w.peak, n)
	fire := w.limit > 0 && n > w.limit && !w.exceeded
	if fire {
		w.exceeded = true
	}
	w.mu.Unlock()
	w.p.notePeak(n)
	if fire && w.over != nil {
		w.over()
	}
}

// Stop ends the sampling after one last sample (the answer has come: the
// memory after the move counts too) and returns the peak seen and whether
// it was over the limit.
func (w *MemoryWatch) Stop() (peak int64, exceeded bool) {
	if memorySupported {
		close(w.stop)
		<-w.done
		w.sample()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak, w.exceeded
}
