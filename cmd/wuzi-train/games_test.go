package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wuzi/match/results"
	"wuzi/selfplay"
)

// writeResults writes a results file of a freestyle 15×15 match between
// "Wuzi" and "Opp" holding games.
func writeResults(t *testing.T, games ...results.Game) string {
	t.Helper()
	var buf bytes.Buffer
	h := results.Header{Kind: "match", Format: results.Format, Names: []string{"Wuzi", "Opp"},
		Width: 15, Height: 15, Rule: 0, Games: len(games), Total: len(games)}
	for _, v := range append([]any{h}, anySlice(games)...) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	path := filepath.Join(t.TempDir(), "res.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func anySlice(gs []results.Game) []any {
	out := make([]any, len(gs))
	for i, g := range gs {
		out[i] = g
	}
	return out
}

// blackFive is a game Black wins by five on row 7 after a 3-stone opening.
func blackFive(black, white string) results.Game {
	return results.Game{Kind: "game", Black: black, White: white, OpeningStones: 3, Result: "1-0", Reason: "five",
		Moves: [][2]int{{7, 7}, {7, 8}, {8, 7}, {8, 8}, {9, 7}, {9, 8}, {10, 7}, {10, 8}, {11, 7}}}
}

func convert(t *testing.T, args ...string) ([]selfplay.Position, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"games"}, args...), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return parsePositions(t, out.String()), errb.String()
}

// parsePositions reads the positions of a self-play text and checks that
// each replays.
func parsePositions(t *testing.T, text string) []selfplay.Position {
	t.Helper()
	var ps []selfplay.Position
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line == "" {
			continue
		}
		p, err := selfplay.ParseLine(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if _, err := p.Replay(); err != nil {
			t.Fatalf("%q does not replay: %v", line, err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestGamesPositionsOfOneEngine(t *testing.T) {
	path := writeResults(t, blackFive("Wuzi", "Opp"))
	all, _ := convert(t, path)
	if len(all) != 6 { // plies 3..8: after the opening, before the five
		t.Fatalf("%d positions, want 6", len(all))
	}
	ps, _ := convert(t, "--engine", "Wuzi", path)
	if len(ps) != 3 {
		t.Fatalf("%d positions with Wuzi to move, want 3", len(ps))
	}
	g := blackFive("Wuzi", "Opp")
	for _, p := range ps {
		if p.Side() != 1 || p.Result != 1 {
			t.Errorf("%s: side %v result %d, want Black to move and a win", p, p.Side(), p.Result)
		}
		next := g.Moves[p.Ply()]
		if p.Best != (selfplay.Move{X: next[0], Y: next[1]}) || p.Score != 0 || p.Depth != 0 {
			t.Errorf("%s: best %v, want the move played %v, score and depth 0", p, p.Best, next)
		}
	}
	for _, p := range all {
		if p.Side() == 2 && p.Result != -1 {
			t.Errorf("%s: White lost, result %d", p, p.Result)
		}
	}
}

func TestGamesLostOnlyAndBadGames(t *testing.T) {
	forfeit := blackFive("Opp", "Wuzi")
	forfeit.Failure, forfeit.Reason = true, "time-out"
	illegal := blackFive("Opp", "Wuzi")
	illegal.Moves = append([][2]int{{7, 8}}, illegal.Moves[1:]...) // a stone on an occupied cell
	path := writeResults(t, blackFive("Wuzi", "Opp"), blackFive("Opp", "Wuzi"), forfeit, illegal)
	ps, msg := convert(t, "--engine", "Wuzi", "--lost", "Wuzi", path)
	// Only the second game: Wuzi, White, lost it on the board.
	if len(ps) != 3 {
		t.Fatalf("%d positions, want the 3 of Wuzi's lost game", len(ps))
	}
	for _, p := range ps {
		if p.Side() != 2 || p.Result != -1 {
			t.Errorf("%s: want White (Wuzi) to move and a loss", p)
		}
	}
	if !strings.Contains(msg, "2 games left out") {
		t.Errorf("summary %q does not count the forfeit and the illegal game", msg)
	}
	// Both sides' moves of the lost games.
	if both, _ := convert(t, "--lost", "Wuzi", path); len(both) != 6 {
		t.Errorf("%d positions of the game Wuzi lost, want all 6", len(both))
	}
}

func TestGamesRejectsBadUse(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"games"}, &out, &errb); code != 2 {
		t.Errorf("no results file: exit %d, want 2", code)
	}
	if code := run([]string{"games", filepath.Join(t.TempDir(), "missing.jsonl")}, &out, &errb); code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}
}

// TestGamesReportsAFailedWrite: positions that never reached the disk are
// an error, not a silent success (/dev/full refuses every write).
func TestGamesReportsAFailedWrite(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	path := writeResults(t, blackFive("Wuzi", "Opp"))
	var out, errb bytes.Buffer
	if code := run([]string{"games", "-o", "/dev/full", path}, &out, &errb); code != 1 {
		t.Errorf("writing to a full disk: exit %d, want 1 (stderr %q)", code, errb.String())
	}
	if !strings.Contains(errb.String(), "no space") {
		t.Errorf("stderr %q does not say why", errb.String())
	}
}
