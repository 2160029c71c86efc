// Package eval is the board and what it knows of itself: stones, Zobrist
// key, per-cell line patterns, threat combos and counts, the attack and
// defence score grid, and the win and renju foul checks.
//
// Features, and where they live:
//   - rule.go: Rule (freestyle, standard, renju, caro, caro-exact), ParseRule,
//     Color.
//   - pattern.go: Pattern, what one stone makes along one line, ordered
//     Dead < H1 < F1 < H2 < F2 < H3 < F3 < B4 < F4 < F5 (plus renju Black's
//     Overline and DoubleFour), with a diagram per value; the per-rule
//     pattern classification of every line key.
//   - tables.go: the read-only per-rule lookup tables the hot path uses
//     (half-line classes, per-line value shares, counts-to-combo).
//   - board.go: Board, Play/PlayColor/Block/Undo, geometry (Pos, XY, Dir).
//   - cells.go: Combo, per-cell combos, shape codes and move values,
//     ComboCount, Evaluate, ThreatMask, Policy, Near, Alive; the hand-set
//     pattern values (the prior of the learned tables).
//   - weights.go: shape codes (ShapeCode, CodePatterns), Weights (the
//     learned evaluation and move-order tables of a rule family), their
//     file format, the embedded files (weights/) and PriorWeights.
//   - threats.go: FirstCombo (where a side has a combo, O(1) usually),
//     Candidates (cells worth searching), StoneBounds.
//   - rules.go: WinsAt, LastMoveWins (exact line walks), IsForbidden and
//     ForbiddenCells (the recursive renju foul check).
//
// Invariants, after every Play, PlayColor, Block and Undo:
//   - keys[p][d] holds the cells around p on line d within the rule's
//     reach (all ten; under freestyle the inner eight, the farthest two
//     never mattering; two bits each, see slotShift), for every cell p
//     on the board, and for every empty
//     cell pats[p][d] is its table entry (an occupied cell's patterns are
//     those it had when it was filled: nothing reads them, and Undo gives
//     them back with the cell).
//   - for every empty cell, info holds the combos, shape codes, move values
//     and evaluation shares its four patterns give; evalSum and
//     comboCount are their sums over the empty cells; near
//     counts the stones in its 5×5 square.
//   - Undo restores the exact previous state (patterns, values, totals,
//     threat hints and the stones' bounding box) from what Play saved,
//     without recomputing or allocating.
//
// A pattern sees five cells each side of its cell, which is all any rule
// needs: a row of exactly five through the cell and both its ends lie
// within that horizon, and under caro only such a row can be blocked (an
// overline wins under rule 8 however it is blocked, as GomocupJudge
// referees it). WinsAt and LastMoveWins walk the real line.
package eval
