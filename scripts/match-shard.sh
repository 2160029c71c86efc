#!/bin/sh
# match-shard.sh: play one shard of a wuzi-match match as one task of a
# batch system, and leave its games in a shared results directory.
#
# Usage:   match-shard.sh WUZI-MATCH-FLAGS...     (engines, games, time control)
#
# The shard and the seed come from the batch system (see shard-env.sh:
# JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or SHARD_INDEX; SHARDS; SEED);
# every shard draws the same openings from the one seed.
#
# Environment: RESULTS_DIR (required; shared by all tasks), WUZI_MATCH
# (default: wuzi-match in PATH). The shard's games go to
# RESULTS_DIR/shard-I-of-N.jsonl, its output to RESULTS_DIR/shard-I-of-N.log.
# Then: wuzi-match merge --report RESULTS_DIR/report.html RESULTS_DIR/shard-*-of-N.jsonl
set -eu

: "${RESULTS_DIR:?set RESULTS_DIR to a directory every shard can write}"
wm=${WUZI_MATCH:-wuzi-match}

. "$(dirname "$0")/shard-env.sh"

mkdir -p "$RESULTS_DIR"
base="$RESULTS_DIR/shard-$index-of-$SHARDS"
echo "shard $index of $SHARDS (0-based), seed $SEED, results $base.jsonl" >&2
"$wm" --shard "$index/$SHARDS" --seed "$SEED" --results "$base.jsonl" "$@" >"$base.log"
