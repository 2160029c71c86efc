#!/bin/sh
# submit.sh: submit scripts/slurm/wuzi-match.sbatch as a job array and a
# merge that runs when every shard has ended; the report of the whole
# match lands in RESULTS_DIR/report.txt and report.html.
#
# Usage:   scripts/slurm/submit.sh [sbatch options for the array...]
# Example: WUZI_DIR=$HOME/wuzi scripts/slurm/submit.sh --array=0-15
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${WUZI_DIR:=$HOME/wuzi}"
export WUZI_DIR
job=$(sbatch --parsable "$@" "$here/wuzi-match.sbatch")
job=${job%%;*}
results=${RESULTS_DIR:-$HOME/wuzi-results/$job}
sbatch --parsable --dependency="afterany:$job" --job-name=wuzi-match-merge \
	--output="$results/merge.out" --wrap \
	"\"$WUZI_DIR/wuzi-match\" merge --report \"$results/report.html\" --results \"$results/merged.jsonl\" \"$results\"/shard-*.jsonl > \"$results/report.txt\""
echo "array job $job; results in $results"
