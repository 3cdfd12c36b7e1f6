#!/usr/bin/env bash
# Cluster scale (issue #36): time and peak memory of `streams-group` and of Apache's tools, side
# by side on the same harness broker, each step at 1x and 10x size.
#
#   benches/cluster-scale.sh [--groups G] [--partitions P] [--records R] [--watch-groups W]
#                            [--watch-s S] [--runs N] [--bin PATH] [--version V] [--out FILE]
#
#   --groups G        list / describe --all-groups with G and then 10G groups of 5 members
#                     (default 100: 100 and 1,000), held by the harness's load maker
#   --partitions P    describe --offsets / lag of one group reading P and then 10P input
#                     partitions (default 1000: 1,000 and 10,000; P/100 topics of 100 partitions)
#   --records R       history of one group in a __consumer_offsets partition holding R and then
#                     10R other groups' offset records, against DumpLogSegments --offsets-decoder
#                     on the same segment files (default 500000: 0.5 and 5 million)
#   --watch-groups W  describe --members --watch 1s of W groups for S seconds (default 100, 300):
#                     resident memory and CPU time sampled every 10 s
#   --runs N          counted runs per command, after one warm-up when N > 1 (default 3; the
#                     10x DumpLogSegments runs once, it takes minutes)
#   --bin PATH        the streams-group binary (default: target/release/streams-group, built)
#   --steps LIST      which of groups,partitions,history,watch to run (default: all four)
#
# Apache's tools run as their shell wrappers run them (kafka-run-class.sh's defaults: -Xmx256M,
# G1), from the harness's classpath. Wall time is the median of the runs (clock, microseconds), peak memory the largest
# resident set of the process tree (GNU time's %M). Prints a Markdown table (also to --out).
# Needs Java 17+, Maven, GNU time (/usr/bin/time), and about 6 GB of free disk at the defaults.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HARNESS="$HERE/tests/kafka/harness"
GROUPS_1X=100 PARTS_1X=1000 RECORDS_1X=500000 WATCH_GROUPS=100 WATCH_S=300 RUNS=3 BIN="" VERSION=4.3.1
OUT="" STEPS=groups,partitions,history,watch
while (($#)); do
  case "$1" in
    --groups) GROUPS_1X=${2:?}; shift 2 ;;
    --partitions) PARTS_1X=${2:?}; shift 2 ;;
    --records) RECORDS_1X=${2:?}; shift 2 ;;
    --watch-groups) WATCH_GROUPS=${2:?}; shift 2 ;;
    --watch-s) WATCH_S=${2:?}; shift 2 ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    --bin) BIN=${2:?}; shift 2 ;;
    --version) VERSION=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --steps) STEPS=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster-scale: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
((PARTS_1X % 100 == 0)) || { echo "cluster-scale: --partitions must be a multiple of 100" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "cluster-scale: GNU time is missing: apt-get install time" >&2; exit 2; }
if [[ -z "$BIN" ]]; then
  cargo build --release --locked --quiet --manifest-path "$HERE/Cargo.toml"
  BIN="$HERE/target/release/streams-group"
fi

RUNDIR=$(mktemp -d /tmp/sg-scale.XXXXXX)
WORK=$(mktemp -d /tmp/sg-scale-work.XXXXXX)
trap 'bash "$HARNESS" --dir "$RUNDIR" stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
h() { bash "$HARNESS" --dir "$RUNDIR" "$@"; }
# 1 GB segments: the log cleaner never compacts the active segment, so the filler records stay
h start --version "$VERSION" --broker-config offsets.topic.segment.bytes=1073741824 >/dev/null
B=$(cat "$RUNDIR/bootstrap")
CP=$(bash "$HARNESS" classpath --version "$VERSION")
# kafka-run-class.sh's defaults (KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS)
JVM=(java -Xmx256M -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
  -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true
  "-Dlog4j2.configurationFile=file:$HERE/tests/kafka/src/main/resources/log4j2.properties" -cp "$CP")
APACHE=("${JVM[@]}" org.apache.kafka.tools.streams.StreamsGroupCommand --bootstrap-server "$B")
OURS=("$BIN" --bootstrap-server "$B" --timeout 120000 --color never)

ROWS=()
# measure RUNS CMD... -> "median_wall_seconds peak_MB" (or "failed"); one warm-up run first
measure() {
  local runs=$1 i t=() m=0 out t0 t1
  shift
  # the warm-up (page cache, JIT-less first start) only when several runs are counted
  if ((runs > 1)); then /usr/bin/time -f '%M' -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err" || true; fi
  for ((i = 0; i < runs; i++)); do
    # Wall time from the clock in microseconds (GNU time's %e has 10 ms steps, and one group's
    # describe takes a few ms); peak memory from GNU time's %M.
    t0=$(date +%s%N)
    if ! /usr/bin/time -f '%M' -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err"; then
      echo "failed: $(tail -n1 "$WORK/err")" >&2
      echo "failed"
      return
    fi
    t1=$(date +%s%N)
    out=$(tail -n1 "$WORK/t")
    t+=("$(((t1 - t0) / 1000))")
    ((out > m)) && m=$out
  done
  printf '%s\n' "${t[@]}" | sort -n | awk -v m="$m" '{a[NR]=$1} END {printf "%.4f %.0f\n", a[int((NR+1)/2)] / 1e6, m/1024}'
}

# row STEP SIZE "OURS" "APACHE" [unit]: one table row, the ratio Apache/ours of wall time
row() {
  local step=$1 size=$2 o=$3 a=$4 ratio="-"
  if [[ "$o" != failed && "$a" != failed && "${a% *}" != "-" ]]; then
    ratio=$(awk -v o="${o% *}" -v a="${a% *}" 'BEGIN { printf "%.1fx", (o > 0 ? a / o : 0) }')
  fi
  local line
  line=$(printf '| %s | %s | %s | %s | %s | %s | %s |' "$step" "$size" "${o% *}" "${o#* }" "${a% *}" "${a#* }" "$ratio")
  [[ "$o" == failed ]] && line=$(printf '| %s | %s | failed | - | %s | %s | - |' "$step" "$size" "${a% *}" "${a#* }")
  ROWS+=("$line")
  echo "$line" >&2
}

both() { # STEP SIZE -- OURS ARGS... -- APACHE ARGS... (APACHE may be empty: no counterpart)
  local step=$1 size=$2 o a ours=() apache=()
  shift 3
  while (($#)) && [[ "$1" != -- ]]; do ours+=("$1"); shift; done
  shift
  apache=("$@")
  o=$(measure "$RUNS" "${OURS[@]}" "${ours[@]}")
  if ((${#apache[@]})); then a=$(measure "$RUNS" "${APACHE[@]}" "${apache[@]}"); else a="- -"; fi
  row "$step" "$size" "$o" "$a"
}

groups_step() { # SIZE-LABEL; the cluster holds the groups already
  local size=$1
  both "list" "$size" -- list -- --list
  both "describe --all-groups --state" "$size" -- describe --all-groups --state -- --describe --all-groups --state
  both "describe --all-groups --members" "$size" -- describe --all-groups --members -- --describe --all-groups --members
  both "describe --all-groups --offsets" "$size" -- describe --all-groups --offsets -- --describe --all-groups --offsets
  both "describe --all-groups --members -o json" "$size" -- describe --all-groups --members -o json --
  both "describe --group G --members (one group)" "$size" -- describe --group g1-1 --members -- --describe --group g1-1 --members
}

echo "cluster-scale: Kafka $VERSION broker at $B; $RUNS run(s) per command; $(date -u +%F)" >&2
step() { [[ ",$STEPS," == *",$1,"* ]]; }
# 1. many groups: G groups (g1-1..g1-G), then 9G more (g2-*) for 10G in all, 5 members each
if step groups; then
h load-groups --prefix g1 --count "$GROUPS_1X" --members 5 --partitions 4 >/dev/null
groups_step "$GROUPS_1X groups"
h load-groups --prefix g2 --count $((9 * GROUPS_1X)) --members 5 --partitions 4 >/dev/null
groups_step "$((10 * GROUPS_1X)) groups"
h load-stop --prefix g1
h load-stop --prefix g2
fi

# 2. one group reading many partitions: P/100 and then 10P/100 topics of 100 partitions
step partitions && for n in "$PARTS_1X" $((10 * PARTS_1X)); do
  h load-groups --prefix "p$n" --count 1 --members 5 --topics $((n / 100)) --partitions 100 --leave >/dev/null
  both "describe --group G --offsets" "$n partitions" -- describe --group "p$n-1" --offsets -- --describe --group "p$n-1" --offsets
  both "lag --group G (Apache: --describe --offsets)" "$n partitions" -- lag --group "p$n-1" -- --describe --group "p$n-1" --offsets
done

# 3. history in a partition full of other groups' records, against DumpLogSegments
partition_dir() { ls -d "$RUNDIR"/data/__consumer_offsets-0; }
history_step() { # RECORDS-LABEL DUMP-RUNS
  local label=$1 druns=$2 files mb o a
  files=$(ls "$(partition_dir)"/*.log | paste -sd,)
  mb=$(du -cb "$(partition_dir)"/*.log | tail -n1 | awk '{printf "%.1f", $1 / 1e6}')
  o=$(measure "$RUNS" "${OURS[@]}" history --group h-1)
  a=$(measure "$druns" "${JVM[@]}" org.apache.kafka.tools.DumpLogSegments --offsets-decoder --files "$files")
  row "history --group G (Apache: DumpLogSegments --offsets-decoder)" "$label, $mb MB" "$o" "$a"
  ROWS+=("$(awk -v o="${o% *}" -v a="${a% *}" -v mb="$mb" -v l="$label" 'BEGIN {
    printf "| history throughput | %s | %.1f MB/s | | %.1f MB/s | | |", l, mb / o, (a > 0 ? mb / a : 0) }')")
  echo "${ROWS[-1]}" >&2
}
if step history; then
h load-groups --prefix h --count 1 --members 5 --leave --fill "$RECORDS_1X" >/dev/null
history_step "$RECORDS_1X records" "$RUNS"
h load-groups --prefix h10 --count 1 --members 1 --leave --fill $((9 * RECORDS_1X)) >/dev/null
history_step "$((10 * RECORDS_1X)) records" 1
fi

# 4. describe --watch 1s of W groups for S seconds: memory and CPU sampled every 10 s
if step watch; then
h load-groups --prefix w --count "$WATCH_GROUPS" --members 5 --partitions 4 >/dev/null
watch_args=()
for ((i = 1; i <= WATCH_GROUPS; i++)); do watch_args+=(--group "w-$i"); done
"${OURS[@]}" describe "${watch_args[@]}" --members --watch 1s --for "${WATCH_S}s" >/dev/null 2>"$WORK/watch.err" &
wpid=$!
samples=()
clk=$(getconf CLK_TCK)
while kill -0 "$wpid" 2>/dev/null; do
  sleep 10
  kill -0 "$wpid" 2>/dev/null || break
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$wpid/status" 2>/dev/null || echo 0)
  cpu=$(awk -v c="$clk" '{printf "%.2f", ($14 + $15) / c}' "/proc/$wpid/stat" 2>/dev/null || echo 0)
  samples+=("$rss $cpu")
done
wait "$wpid" || echo "cluster-scale: describe --watch exited non-zero: $(tail -n1 "$WORK/watch.err")" >&2
if ((${#samples[@]} >= 2)); then
  read -r r0 c0 <<<"${samples[0]}"
  read -r rm cm <<<"${samples[$((${#samples[@]} / 2))]}"
  read -r r1 c1 <<<"${samples[-1]}"
  line=$(awk -v r0="$r0" -v r1="$r1" -v c0="$c0" -v cm="$cm" -v c1="$c1" -v n="${#samples[@]}" -v s="$WATCH_S" -v w="$WATCH_GROUPS" 'BEGIN {
    printf "| describe --members --watch 1s | %d groups, %d s | RSS %.1f -> %.1f MB; CPU %.1f%% then %.1f%% (first, second half) | | - | | |",
      w, s, r0 / 1024, r1 / 1024, 100 * (cm - c0) / ((int(n / 2) > 0 ? int(n / 2) : 1) * 10), 100 * (c1 - cm) / ((n - 1 - int(n / 2) > 0 ? n - 1 - int(n / 2) : 1) * 10) }')
  ROWS+=("$line")
  echo "$line" >&2
fi
h load-stop --prefix w
fi

{
  echo "Kafka $VERSION, one harness broker, $(nproc) cores; $(date -u +%F). Wall time: median of $RUNS run(s) in seconds (clock, microseconds); memory: peak RSS in MB."
  echo
  echo "| step | size | ours s | ours MB | Apache s | Apache MB | Apache/ours |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
} | tee ${OUT:+"$OUT"}
