package engine

import (
	"context"
	"time"
)

// ReadLine waits until the deadline for the next answer line that is not
// empty, MESSAGE (kept for Messages) or DEBUG, and says when it arrived. It
// is for answers that are not a single move, such as the several moves or
// SWAP that answer SWAP2BOARD, or the OK that answers TAKEBACK. Failures are
// classified as ReadMove's are.
func (p *Process) ReadLine(ctx context.Context, deadline time.Time) (string, time.Time, error) {
	return p.next(ctx, deadline)
}
