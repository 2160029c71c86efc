package brain

import (
	"context"
	"fmt"
	"time"

	"wuzi/eval"
	"wuzi/protocol"
	"wuzi/search"
)

// swapMargin is how far (in evaluation units) the side to move must be
// ahead before we choose its colour in swap2 rather than swap.
const swapMargin = 0

// swap2Opening is the three stones we propose on an empty board, as offsets
// from the centre in play order (Black, White, Black). It is one of the
// balanced openings Gomocup and Piskvork play freestyle with.
var swap2Opening = [3][2]int{{0, 0}, {1, 0}, {1, 3}}

// Swap2 answers a SWAP2BOARD block.
//   - no stones: we propose the opening's three stones;
//   - three stones: we either swap (take Black; the opponent plays the
//     4th stone) or stay White and play the 4th stone ourselves;
//   - five stones: we either swap (take Black) or take White and play the
//     6th stone.
//
// The choice comes from a short search of the position with White to move.
func (br *Brain) Swap2(ctx context.Context, stones []protocol.Move, r protocol.Reporter) (protocol.Swap2Answer, error) {
	if err := br.needGame(); err != nil {
		return protocol.Swap2Answer{}, err
	}
	switch len(stones) {
	case 0:
		cx, cy := br.width/2, br.height/2
		var out []protocol.Move
		for _, o := range swap2Opening {
			out = append(out, protocol.Move{X: cx + o[0], Y: cy + o[1]})
		}
		for _, m := range out {
			if !br.board.Inside(m.X, m.Y) {
				// A small board: three stones around the centre.
				out = []protocol.Move{{X: cx, Y: cy}, {X: cx + 1, Y: cy + 1}, {X: cx - 1, Y: cy + 1}}
				break
			}
		}
		if err := br.setStones(out); err != nil {
			return protocol.Swap2Answer{}, err
		}
		return protocol.Swap2Answer{Moves: out}, nil
	case 3, 5:
	default:
		return protocol.Swap2Answer{}, fmt.Errorf("SWAP2BOARD takes 0, 3 or 5 stones, not %d", len(stones))
	}
	if err := br.setStones(stones); err != nil {
		return protocol.Swap2Answer{}, err
	}
	// Give the decision a tenth of the move's budget.
	saved := br.clock
	br.clock.TurnMS = max(br.clock.TurnMS/10, min(br.clock.TurnMS, 200))
	score, best := br.evaluateWhite(ctx, r)
	br.clock = saved
	if score < swapMargin || best == eval.NoPos {
		return protocol.Swap2Answer{Swap: true}, nil
	}
	br.board.Play(best)
	x, y := br.board.XY(best)
	return protocol.Swap2Answer{Moves: []protocol.Move{{X: x, Y: y}}}, nil
}

// setStones sets the position to the given stones, alternating from Black.
func (br *Brain) setStones(ms []protocol.Move) error {
	seen := map[protocol.Move]bool{}
	for _, m := range ms {
		if !br.board.Inside(m.X, m.Y) {
			return fmt.Errorf("stone %d,%d is off the board", m.X, m.Y)
		}
		if seen[m] {
			return fmt.Errorf("two stones at %d,%d", m.X, m.Y)
		}
		seen[m] = true
	}
	br.board.Clear()
	for _, m := range ms {
		br.board.Play(br.board.Pos(m.X, m.Y))
	}
	return nil
}

// evaluateWhite searches the position (White to move) briefly and returns
// White's score and best move; NoPos (Swap2 then swaps, always legal here)
// if the search failed.
func (br *Brain) evaluateWhite(ctx context.Context, r protocol.Reporter) (int, eval.Pos) {
	b := br.board
	budget := br.clock.Budget(time.Now(), b.Empties())
	res, err := br.runSearch(ctx, search.Limits{Soft: budget.Soft, Hard: budget.Hard}, budget.Watch, r)
	if err != nil {
		return 0, eval.NoPos
	}
	return res.Score, res.Move
}
