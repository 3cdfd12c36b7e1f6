#!/usr/bin/env bash
# The field-fidelity matrix (issue #32): for each Kafka release, app shape and move (an instance
# stopped, killed with -9, or joining), snapshot a real group of real Kafka Streams apps, run
# `simulate --from-snapshot` of the move with samples, make the move with the harness, and
# compare: is the real assignment one of the listed outcomes, was an `Exact` contradicted, does
# the real time to Stable meet the predicted range (bracketed by the watch's stamps), do
# moves, loads and certain tasks lie inside the samples. Prints a Markdown table and a summary
# line; docs/simulate.md keeps the latest with its date.
#
# Usage: benches/field-fidelity.sh
#   Env: FIDELITY_VERSIONS="4.2.2 4.3.2 4.4.0", FIDELITY_SHAPES="3x1/0 2x3/2 3x4/1 2x8/1"
#   (INSTANCESxTHREADS/STANDBYS), FIDELITY_MOVES="stop kill join", FIDELITY_SAMPLES=1000.
#   About 40 s per run on 2 cores: the default 36 runs take about 25 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Each run's row as it finishes (`fidelity: | ...`), then the table and the summary.
{
  code=0
  cargo test --locked -q --test fidelity -- --nocapture --test-threads 1 || code=$?
  echo "$code" >"$log.status"
} 2>&1 | tee "$log" | grep --line-buffered '^fidelity: ' || true
status=$(cat "$log.status")
rm -f "$log.status"
if ((status != 0)); then
  echo "field-fidelity: the matrix stopped (exit $status); the end of its log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo
grep -E '^(\||[0-9]+ runs:)' "$log"
