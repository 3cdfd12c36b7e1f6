#!/usr/bin/env bash
# Time `streams-group describe --members` against Apache's `kafka-streams-groups.sh --describe
# --members` (run through tests/kafka/harness `tool`) on the same broker and group.
#
#   benches/compare-describe.sh [--runs N] [--bootstrap HOST:PORT --group G --dir RUNDIR]
#
# Without --bootstrap it starts a harness broker and a 2x2 Streams app (group `bench-app`) in a
# temporary run directory and stops them at the end. Uses hyperfine when installed, else a loop
# with `date +%s%N`; prints the median wall-clock time of each tool in milliseconds.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HARNESS="$HERE/tests/kafka/harness"
RUNS=10
BOOTSTRAP=""
GROUP="bench-app"
RUNDIR=""
while (($#)); do
  case "$1" in
    --runs) RUNS=${2:?}; shift 2 ;;
    --bootstrap) BOOTSTRAP=${2:?}; shift 2 ;;
    --group) GROUP=${2:?}; shift 2 ;;
    --dir) RUNDIR=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet --manifest-path "$HERE/Cargo.toml"
SG="$HERE/target/release/streams-group"

OWN=0
if [[ -z "$BOOTSTRAP" ]]; then
  OWN=1
  RUNDIR=$(mktemp -d /tmp/sg-bench.XXXXXX)
  trap 'bash "$HARNESS" --dir "$RUNDIR" stop >/dev/null 2>&1 || true' EXIT
  bash "$HARNESS" --dir "$RUNDIR" start >/dev/null
  BOOTSTRAP=$(cat "$RUNDIR/bootstrap")
  bash "$HARNESS" --dir "$RUNDIR" app --application-id "$GROUP" --instances 2 --threads 2 >/dev/null
fi
[[ -n "$RUNDIR" ]] || { echo "--dir RUNDIR (the harness run dir) is needed with --bootstrap" >&2; exit 2; }

ours=("$SG" describe --bootstrap-server "$BOOTSTRAP" --group "$GROUP" --members --color never)
java=(bash "$HARNESS" --dir "$RUNDIR" tool --bootstrap-server "$BOOTSTRAP" --describe --group "$GROUP" --members)

# sanity: both must succeed
"${ours[@]}" >/dev/null
"${java[@]}" >/dev/null

median_ms() { # CMD... ; runs RUNS times, prints the median in ms
  local times=() i t0 t1
  for ((i = 0; i < RUNS; i++)); do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'
}

echo "group $GROUP on $BOOTSTRAP, $RUNS runs each"
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine --warmup 1 --runs "$RUNS" -N \
    --command-name streams-group "$(printf '%q ' "${ours[@]}")" \
    --command-name kafka-streams-groups "$(printf '%q ' "${java[@]}")"
else
  o=$(median_ms "${ours[@]}")
  j=$(median_ms "${java[@]}")
  echo "streams-group describe --members:          median ${o} ms"
  echo "kafka-streams-groups --describe --members: median ${j} ms"
  awk -v o="$o" -v j="$j" 'BEGIN { if (o > 0) printf "speed-up: %.1fx\n", j / o }'
fi
