#!/bin/sh
# match-shard.sh: play one shard of a wuzi-match match as one task of a
# batch system, and leave its games in a shared results directory.
#
# Usage:   match-shard.sh WUZI-MATCH-FLAGS...     (engines, games, time control)
#
# The shard comes from the batch system:
#   Kubernetes Indexed Job  JOB_COMPLETION_INDEX (0..N-1); SHARDS=N
#   Slurm job array         SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN;
#                           SHARDS defaults to SLURM_ARRAY_TASK_COUNT
#   anything else           SHARD_INDEX (0..N-1); SHARDS=N
# Every shard must draw the same openings, so they share one SEED. Without
# SEED the seed comes from what all tasks of one submission share and the
# next submission does not: SLURM_ARRAY_JOB_ID, or JOB_UID (the Job's uid,
# which scripts/k8s/wuzi-match-job.yaml passes in).
#
# Environment: RESULTS_DIR (required; shared by all tasks), WUZI_MATCH
# (default: wuzi-match in PATH). The shard's games go to
# RESULTS_DIR/shard-I-of-N.jsonl, its output to RESULTS_DIR/shard-I-of-N.log.
# Then: wuzi-match merge --report RESULTS_DIR/report.html RESULTS_DIR/shard-*-of-N.jsonl
set -eu

: "${RESULTS_DIR:?set RESULTS_DIR to a directory every shard can write}"
wm=${WUZI_MATCH:-wuzi-match}

if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
	index=$JOB_COMPLETION_INDEX
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
	index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
	: "${SHARDS:=${SLURM_ARRAY_TASK_COUNT:-}}"
else
	index=${SHARD_INDEX:?no JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or SHARD_INDEX: which shard is this?}
fi
: "${SHARDS:?set SHARDS to the number of shards}"

if [ -z "${SEED:-}" ]; then
	if [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then
		SEED=$SLURM_ARRAY_JOB_ID
	elif [ -n "${JOB_UID:-}" ]; then
		SEED=$(printf '%s' "$JOB_UID" | cksum | cut -d' ' -f1)
	else
		echo "match-shard.sh: set SEED, the same for every shard" >&2
		exit 2
	fi
fi

mkdir -p "$RESULTS_DIR"
base="$RESULTS_DIR/shard-$index-of-$SHARDS"
echo "shard $index of $SHARDS (0-based), seed $SEED, results $base.jsonl" >&2
"$wm" --shard "$index/$SHARDS" --seed "$SEED" --results "$base.jsonl" "$@" >"$base.log"
