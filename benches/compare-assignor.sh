#!/usr/bin/env bash
# Time the exact sticky assignor (Apache's algorithm, emulated: `sticky`, 4.4) against Apache
# Kafka's own StickyTaskAssignor of 4.4.0 on the same inputs, both timed in-process with a warm
# JIT (each side computes the assignment REPEAT times; best and median are reported), and check
# that both assignments are identical. `balanced-sticky` is timed too, for reference.
#
# Usage: benches/compare-assignor.sh
#   Env: SIZES="members:tasks ..." (default "1000:10000 10000:100000"), PER_PROCESS="1 4",
#   MODES="fresh incremental", STANDBYS=1, REPEAT=5, KAFKA_VERSION=4.4.0 (4.2.2 and 4.3.1 work
#   too), ORACLE_CP (a classpath instead of `tests/kafka/harness classpath`), JAVA_OPTS.
set -euo pipefail
cd "$(dirname "$0")/.."
KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
CP="${ORACLE_CP:-$(bash tests/kafka/harness classpath --version "$KAFKA_VERSION" | tail -n1)}"
case "$KAFKA_VERSION" in
  4.4.*) ORACLE=streamsgroup.AssignorOracle44 ;;
  *) ORACLE=streamsgroup.AssignorOracle ;;
esac
SIZES="${SIZES:-1000:10000 10000:100000}"
PER_PROCESS="${PER_PROCESS:-1 4}"
MODES="${MODES:-fresh incremental}"
REPEAT="${REPEAT:-5}"
STANDBYS="${STANDBYS:-1}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cargo build -q --release --example assignor_compare
BIN=target/release/examples/assignor_compare
JAVA_OPTS="${JAVA_OPTS:--Xmx4g}"
LOG4J="tests/kafka/src/main/resources/log4j2.properties"

timing() { # file key
  sed -nE "s/.*$2=([0-9.]+).*/\1/p" "$1" | tail -1
}
metric() { # file key
  sed -E "s/.*\"$2\":([0-9]+).*/\1/" "$1"
}

printf '%-8s %-8s %-3s %-11s | %-16s %10s %10s %7s %7s %7s | %s\n' \
  members tasks pp mode impl best_ms median_ms act_sp tot_sp moved "apache/impl (best)"
for size in $SIZES; do
  m="${size%%:*}"; t="${size##*:}"
  for pp in $PER_PROCESS; do
    for mode in $MODES; do
      spec="$WORK/spec.json"
      "$BIN" spec "$m" "$pp" "$t" "$STANDBYS" "$mode" > "$spec"
      # shellcheck disable=SC2086
      java $JAVA_OPTS "-Dlog4j2.configurationFile=file:$LOG4J" -Dharness.log.level=ERROR \
        -cp "$CP" "$ORACLE" --repeat "$REPEAT" < "$spec" > "$WORK/apache.json" 2> "$WORK/apache.err" || {
          echo "oracle failed:" >&2; cat "$WORK/apache.err" >&2; exit 1; }
      "$BIN" run "$spec" "$REPEAT" sticky "$KAFKA_VERSION" > "$WORK/sticky.json" 2> "$WORK/sticky.err"
      "$BIN" run "$spec" "$REPEAT" balanced-sticky > "$WORK/balanced.json" 2> "$WORK/balanced.err"
      apache_best=$(timing "$WORK/apache.err" best_ms)
      same=$("$BIN" same "$WORK/apache.json" "$WORK/sticky.json")
      for impl in apache sticky balanced; do
        "$BIN" eval "$spec" "$WORK/$impl.json" > "$WORK/$impl.metrics"
        f="$WORK/$impl.metrics"
        best=$(timing "$WORK/$impl.err" best_ms)
        case "$impl" in
          apache) label="apache $KAFKA_VERSION"; ratio="" ;;
          sticky) label="sticky (exact)"; ratio=$(awk -v a="$apache_best" -v b="$best" 'BEGIN { printf "%.1fx", a / b }')" ($same)" ;;
          *) label="balanced-sticky"; ratio=$(awk -v a="$apache_best" -v b="$best" 'BEGIN { printf "%.1fx", a / b }') ;;
        esac
        printf '%-8s %-8s %-3s %-11s | %-16s %10s %10s %7s %7s %7s | %s\n' \
          "$m" "$t" "$pp" "$mode" "$label" "$best" "$(timing "$WORK/$impl.err" median_ms)" \
          "$(metric "$f" active_spread)" "$(metric "$f" total_spread)" "$(metric "$f" active_moved)" "$ratio"
      done
    done
  done
done
