package main

import (
	"slices"
	"testing"

	"wuzi/selfplay"
)

// TestLeavesAreSearchLeaves: each written position is an input position
// with legal moves after it (a leaf of its search: deeper than the root),
// at most --per of them a search, none with a five on the board, its best
// move an empty cell and its score and result 0; leaves of one search
// differ in depth (the draw is not the first leaves only), and the same
// seed writes the same positions while another seed draws others.
func TestLeavesAreSearchLeaves(t *testing.T) {
	inputs := inputPositions(t)
	args := []string{"--every", "1", "--nodes", "3000", "--per", "3", "--hash", "1", "--seed", "5"}
	ps := subcommandOut(t, "leaves", args...)
	if len(ps) < len(inputs) || len(ps) > 3*len(inputs) {
		t.Fatalf("%d leaves from %d searches of at most 3 each", len(ps), len(inputs))
	}
	depths := map[int]bool{}
	perRoot := map[int]int{}
	for _, p := range ps {
		root := -1
		for i, in := range inputs {
			if in.Game == p.Game && len(p.Moves) > len(in.Moves) && slices.Equal(p.Moves[:len(in.Moves)], in.Moves) &&
				(root < 0 || len(in.Moves) > len(inputs[root].Moves)) {
				root = i
			}
		}
		if root < 0 {
			t.Errorf("%v: no input position is its root", p)
			continue
		}
		perRoot[root]++
		depths[len(p.Moves)-len(inputs[root].Moves)] = true
		checkUnlabelled(t, p)
	}
	if len(depths) < 3 {
		t.Errorf("leaf depths %v: want several", depths)
	}
	again := subcommandOut(t, "leaves", args...)
	if !slices.EqualFunc(ps, again, func(a, b selfplay.Position) bool { return slices.Equal(a.Moves, b.Moves) }) {
		t.Error("the same seed drew other leaves")
	}
	other := subcommandOut(t, "leaves", append(args[:len(args)-1:len(args)-1], "6")...)
	if slices.EqualFunc(ps, other, func(a, b selfplay.Position) bool { return slices.Equal(a.Moves, b.Moves) }) {
		t.Error("another seed drew the same leaves")
	}
}
