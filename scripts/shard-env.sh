# shard-env.sh: sourced by match-shard.sh and selfplay-shard.sh. Sets
# index (0..SHARDS-1), SHARDS and SEED for one task of a batch system:
#   Kubernetes Indexed Job  JOB_COMPLETION_INDEX (0..N-1); SHARDS=N
#   Slurm job array         SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN;
#                           SHARDS defaults to SLURM_ARRAY_TASK_COUNT
#   anything else           SHARD_INDEX (0..N-1); SHARDS=N
# Every shard must use the same seed, so they share one SEED. Without SEED
# it comes from what all tasks of one submission share and the next
# submission does not: SLURM_ARRAY_JOB_ID, or JOB_UID (the Job's uid, which
# scripts/k8s/wuzi-match-job.yaml passes in).
# $0 names the calling script in messages.

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
		echo "$(basename "$0"): set SEED, the same for every shard" >&2
		exit 2
	fi
fi
