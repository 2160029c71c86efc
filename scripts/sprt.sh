#!/bin/sh
# sprt.sh: an SPRT of this branch's pbrain-wuzi against main's.
#
# Builds both engines (and wuzi-match) into a temporary directory, main's
# from a throw-away `git worktree`, then runs wuzi-match with an SPRT until it
# is decided. Extra arguments go to wuzi-match and override the defaults.
#
# Usage:   scripts/sprt.sh [BASE_REF] [-- wuzi-match flags...]
# Example: scripts/sprt.sh main -- --sprt 0,10 -c 4 --timeout-turn 1s
#
# Environment: SPRT (elo0,elo1[,alpha,beta], default 0,10), GAMES (upper
# bound on games, default 2000), CONCURRENCY (default: number of CPUs / 2).
set -eu

base=main
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	base=$1
	shift
fi
[ "${1:-}" = "--" ] && shift

root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-sprt.XXXXXX")
cleanup() {
	git -C "$root" worktree remove --force "$tmp/base-src" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

echo "building $(git -C "$root" rev-parse --abbrev-ref HEAD) (working tree) ..."
(cd "$root" && go build -o "$tmp/new/pbrain-wuzi" ./cmd/pbrain-wuzi && go build -o "$tmp/wuzi-match" ./cmd/wuzi-match)

echo "building $base ..."
git -C "$root" worktree add --detach "$tmp/base-src" "$base" >/dev/null
(cd "$tmp/base-src" && go build -o "$tmp/base/pbrain-wuzi" ./cmd/pbrain-wuzi)

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
conc=${CONCURRENCY:-$(( cpus > 3 ? cpus / 2 : 1 ))}

# Each engine runs in its own directory, so data files next to it are found.
"$tmp/wuzi-match" \
	-e "cmd=$tmp/new/pbrain-wuzi,dir=$tmp/new,name=new" \
	-e "cmd=$tmp/base/pbrain-wuzi,dir=$tmp/base,name=$base" \
	--sprt "${SPRT:-0,10}" -n "${GAMES:-2000}" -c "$conc" \
	--timeout-turn 1s --timeout-match 30s \
	--psq "${PSQ_DIR:-$tmp/psq}" \
	"$@"
