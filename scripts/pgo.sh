#!/usr/bin/env bash
# Regenerates cmd/pbrain-wuzi/default.pgo, the CPU profile that `go build`
# uses for profile-guided optimisation of the engine (Go picks up a
# default.pgo in a main package's folder by itself: go build, go run,
# scripts/release.sh and the Windows cross-build all use it).
#
# The profile is taken from the search benchmarks that play real positions
# (the bench positions, 40 positions of freestyle games and 40 of renju games against other engines, each
# searched for 200,000 nodes), about a minute on this machine. PGO changes
# only how the code is compiled, never what it computes: the bench signature
# (`pbrain-wuzi bench`, nodes searched) stays the same. Refresh the profile
# after a large change to the board or the search; an old profile still
# builds and still helps where the hot code is unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/search.test" ./search
(cd search && "$tmp/search.test" -test.run '^$' -test.bench 'GamePositions|SearchNodes|RenjuPositions' \
  -test.benchtime 2x -test.cpuprofile "$tmp/cpu.pprof")
cp "$tmp/cpu.pprof" cmd/pbrain-wuzi/default.pgo
echo "wrote cmd/pbrain-wuzi/default.pgo ($(wc -c <cmd/pbrain-wuzi/default.pgo) bytes)"
