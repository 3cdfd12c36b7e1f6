#!/usr/bin/env bash
# Compare our sticky assignor with Apache Kafka's StickyTaskAssignor (kafka-group-coordinator
# 4.3.1) on the same inputs: timings and quality (balance, movement, standbys).
#
# Usage: benches/compare-assignor.sh [ORACLE_CLASSPATH]
#   ORACLE_CLASSPATH (or env ORACLE_CP): a directory of jars (kafka-group-coordinator 4.3.1 and
#   its dependencies, jackson-databind, slf4j-simple) plus compiled streamsgroup.AssignorOracle
#   classes, or any java classpath string. Sizes: env SIZES="members:tasks ...",
#   PER_PROCESS="1 4", REPEAT=5.
set -euo pipefail
cd "$(dirname "$0")/.."
CP="${1:-${ORACLE_CP:-}}"
if [[ -z "$CP" ]]; then
  echo "usage: $0 ORACLE_CLASSPATH (or set ORACLE_CP)" >&2
  exit 2
fi
# Each directory entry also contributes the jars inside it.
IFS=':' read -r -a _parts <<< "$CP"
CP=""
for e in "${_parts[@]}"; do
  [[ -z "$e" ]] && continue
  if [[ -d "$e" ]]; then e="$e:$e/*"; fi
  CP="${CP:+$CP:}$e"
done
SIZES="${SIZES:-100:1000 1000:10000 10000:100000}"
PER_PROCESS="${PER_PROCESS:-1 4}"
REPEAT="${REPEAT:-5}"
STANDBYS="${STANDBYS:-1}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cargo build -q --release --example assignor_compare
BIN=target/release/examples/assignor_compare
JAVA_OPTS="${JAVA_OPTS:--Xmx2g}"

metric() { # file key
  sed -E "s/.*\"$2\":([0-9]+).*/\1/" "$1"
}
timing() { # file key
  sed -nE "s/.*$2=([0-9.]+).*/\1/p" "$1" | tail -1
}

printf '%-8s %-8s %-3s %-11s | %-6s %9s %9s %7s %7s %7s %9s %9s\n' \
  members tasks pp mode impl best_ms median_ms act_sp tot_sp moved standbys new_sb
for size in $SIZES; do
  m="${size%%:*}"; t="${size##*:}"
  for pp in $PER_PROCESS; do
    for mode in fresh incremental; do
      spec="$WORK/spec-$m-$t-$pp-$mode.json"
      "$BIN" spec "$m" "$pp" "$t" "$STANDBYS" "$mode" > "$spec"
      "$BIN" run "$spec" "$REPEAT" > "$WORK/ours.json" 2> "$WORK/ours.err"
      # shellcheck disable=SC2086
      java $JAVA_OPTS -cp "$CP" streamsgroup.AssignorOracle --repeat "$REPEAT" \
        < "$spec" > "$WORK/apache.json" 2> "$WORK/apache.err" || {
          echo "oracle failed:" >&2; cat "$WORK/apache.err" >&2; exit 1; }
      for impl in ours apache; do
        "$BIN" eval "$spec" "$WORK/$impl.json" > "$WORK/$impl.metrics"
        f="$WORK/$impl.metrics"
        viol=$(sed -E 's/.*"violations":\[(.*)\].*/\1/' "$f")
        printf '%-8s %-8s %-3s %-11s | %-6s %9s %9s %7s %7s %7s %9s %9s %s\n' \
          "$m" "$t" "$pp" "$mode" "$impl" \
          "$(timing "$WORK/$impl.err" best_ms)" "$(timing "$WORK/$impl.err" median_ms)" \
          "$(metric "$f" active_spread)" "$(metric "$f" total_spread)" \
          "$(metric "$f" active_moved)" "$(metric "$f" standby_assigned)" \
          "$(metric "$f" standby_new)" "${viol:+VIOLATIONS: ${viol:0:200}}"
      done
    done
  done
done
