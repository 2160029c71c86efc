#!/bin/sh
# judge.sh: where an engine lost its games, by a stronger engine's judgement.
#
# Takes the games NAME lost in wuzi-match results files, has a judging engine
# score every position of them (wuzi-train games, then wuzi-train label), and
# prints one line per move of NAME's: the game, the ply, the judge's score
# before the move and after it (both from NAME's side; a proven win shows as
# about +/-30000), the move played and the move the judge preferred. Then a
# summary: moves that lost at least DROP of the judge's units, wins NAME had
# and did not play, and moves after which the opponent had a forced win.
#
# Usage:   scripts/judge.sh NAME RESULTS.jsonl...
# Example: JUDGE="cmd=$HOME/spar/pbrain-rapfi,dir=$HOME/spar,option=max_memory=67108864,option=max_node=100000" \
#              scripts/judge.sh Wuzi match.jsonl
#
# Environment: JUDGE (the judging engine as wuzi-match takes it; required: it
# must print its evaluation as "ev N" or "Eval N", as Rapfi does), JOBS
# (judging processes at once, default 2), TURN (its time a position, default
# 5s; hold it to a node count with option=max_node=N for a fixed effort),
# DROP (default 250), OUT (keep the judged positions in this file).
set -eu

[ $# -ge 2 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ -n "${JUDGE:-}" ] || { echo "judge.sh: set JUDGE to the judging engine (see the usage)" >&2; exit 2; }
name=$1
shift

root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-judge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

(cd "$root" && go build -o "$tmp/wuzi-train" ./cmd/wuzi-train)
"$tmp/wuzi-train" games --lost "$name" -o "$tmp/lost.txt" "$@"
"$tmp/wuzi-train" label --engine "$JUDGE" -j "${JOBS:-2}" --turn "${TURN:-5s}" -o "$tmp/judged.txt" "$tmp/lost.txt"
[ -z "${OUT:-}" ] || cp "$tmp/judged.txt" "$OUT"

# A judged line: rule size game ply side score depth best result moves. The
# loser's positions have result -1; the next ply's score, negated, is its
# score after its move.
awk -v drop="${DROP:-250}" '
{ key = $3 " " $4; score[key] = $6; res[key] = $9; best[key] = $8; mv[key] = $10 }
END {
	print "game ply before after played judge"
	for (key in score) {
		if (res[key] != -1) continue
		split(key, k, " ")
		nxt = k[1] " " (k[2] + 1)
		if (!(nxt in score)) continue
		before = score[key]; after = -score[nxt]
		played = substr(mv[nxt], length(mv[key]) + 1)
		print k[1], k[2], before, after, played, best[key] | "sort -n -k1,1 -k2,2"
		moves++
		if (played != best[key] && before - after >= drop && before > -29000) bad++
		if (before >= 29000 && after < 29000) missed++
		if (before > -29000 && after <= -29000) allowed++
	}
	close("sort -n -k1,1 -k2,2")
	printf "%d moves judged: %d lost %d or more, %d left a forced win unplayed, %d let the opponent force a win\n", moves, bad, drop, missed, allowed
}' "$tmp/judged.txt"
