#!/usr/bin/env bash
# soak.sh: a long fault hunt. Plays pbrain-wuzi against itself under every
# rule on 15x15 and 20x20 at a fast time control (and, when given, against
# other engines), with wuzi-match measuring time and memory, then prints
# each run's summary: the score, how the games ended (time-out, crash,
# illegal move and memory are the faults), move times and peak memory.
#
# Usage:   scripts/soak.sh [GAMES_PER_RUN] [-- extra wuzi-match flags]
# Env:     TURN (default 100ms), MATCH (game clock, default 3s),
#          CONCURRENCY (default 2), OUT (default matches/soak-DATE),
#          PER_OPP (games per run against another engine, default GAMES_PER_RUN),
#          OPPONENTS: extra runs, "NAME|ENGINE-SPEC|RULES|SIZES;..." e.g.
#          "Rapfi|cmd=$HOME/spar/pbrain-rapfi --config $HOME/spar/config.toml|0 1 4|15"
set -euo pipefail
cd "$(dirname "$0")/.."

per=${1:-80}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
turn=${TURN:-100ms} match=${MATCH:-3s} conc=${CONCURRENCY:-2}
out=${OUT:-matches/soak-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
go build -o "$out/bin/" ./cmd/pbrain-wuzi ./cmd/wuzi-match
wz="$out/bin/pbrain-wuzi"

run() { # name rule size games spec...
	local name=$1 rule=$2 size=$3 games=$4
	shift 4
	# Wuzi must answer every line correctly: only other engines' stray
	# lines are skipped (Rapfi answers some INFO with ERROR).
	local lenient=()
	[ $# -gt 0 ] && lenient=(--lenient)
	local log="$out/$name-r$rule-$size.txt"
	"$out/bin/wuzi-match" -e "cmd=$wz,name=Wuzi" "$@" -n "$games" -c "$conc" \
		--timeout-turn "$turn" --timeout-match "$match" --rule "$rule" --size "$size" \
		--seed "$((rule * 100 + size))" "${lenient[@]}" -q \
		--psq "$out/psq-$name-r$rule-$size" >"$log" 2>&1 || true
	# The summary: result line, how games ended, move times, peak memory.
	printf '== %s, rule %s, %sx%s, %s games\n' "$name" "$rule" "$size" "$size" "$games"
	sed -n '/ vs  *games/,$p' "$log" | grep -v '^$' | grep -v ' vs  *games' | sed 's/^/    /'
}

for rule in 0 1 4 8 9; do
	for size in 15 20; do
		run self "$rule" "$size" "$per"
	done
done
IFS=';' read -ra opps <<<"${OPPONENTS:-}"
for o in "${opps[@]}"; do
	IFS='|' read -r name spec rules sizes <<<"$o"
	for rule in $rules; do
		for size in $sizes; do
			run "$name" "$rule" "$size" "${PER_OPP:-$per}" -e "$spec,name=$name"
		done
	done
done
echo "logs and games in $out/"
