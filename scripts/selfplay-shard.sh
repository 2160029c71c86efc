#!/bin/sh
# selfplay-shard.sh: play one shard of a self-play data run (pbrain-wuzi
# selfplay, the learned evaluation's positions) as one task of a batch
# system, and leave its positions in a shared results directory.
#
# Usage:   selfplay-shard.sh SELFPLAY-FLAGS...     (games, nodes, rules, sizes)
#
# The shard and the seed come from the batch system as for match-shard.sh
# (see shard-env.sh): every shard plays its own games of the one schedule
# the seed draws. Environment: RESULTS_DIR (required; shared by all tasks),
# PBRAIN_WUZI (default: pbrain-wuzi in PATH). The shard's positions go to
# RESULTS_DIR/positions-I-of-N.txt. Then, once every task is done:
#   pbrain-wuzi selfplay merge -o positions.txt RESULTS_DIR/positions-*-of-N.txt
# which keeps each position once (the same as one unsharded run).
set -eu

: "${RESULTS_DIR:?set RESULTS_DIR to a directory every shard can write}"
pw=${PBRAIN_WUZI:-pbrain-wuzi}
. "$(dirname "$0")/shard-env.sh"

mkdir -p "$RESULTS_DIR"
out="$RESULTS_DIR/positions-$index-of-$SHARDS.txt"
echo "self-play shard $index of $SHARDS (0-based), seed $SEED, positions to $out" >&2
"$pw" selfplay --shard "$index/$SHARDS" --seed "$SEED" -q -o "$out" "$@"
