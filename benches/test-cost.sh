#!/usr/bin/env bash
# What each test costs (issue #35: CI time): every test of one test binary run alone, one after
# another, with its wall time and the CPU time the whole machine spent meanwhile (all cores,
# from /proc/stat: the brokers, Streams apps and JVM oracles a test starts count too).
#
#   benches/test-cost.sh BINARY [FILTER]   e.g. benches/test-cost.sh e2e, benches/test-cost.sh oracles coordinator
#
# Prints one line per test, then the sums. Run it on a quiet machine: anything else running is
# counted against the test. The test binary is built first (`cargo test --no-run`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: benches/test-cost.sh BINARY [FILTER] (a folder of tests/, e.g. e2e)}
filter=${2:-}
[[ -f "tests/$bin/main.rs" ]] || { echo "test-cost: no test binary '$bin' (want a folder of tests/ with a main.rs)" >&2; exit 2; }
exe=$(cargo test --locked --no-run --test "$bin" --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["executable"])' | tail -n1)
[[ -x "$exe" ]] || { echo "test-cost: building tests/$bin failed: run cargo test --no-run --test $bin" >&2; exit 1; }
export CI=${CI:-true}
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }  # user nice system irq softirq
hz=$(getconf CLK_TCK)
total_wall=0 total_cpu=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
while read -r t; do
  c0=$(busy) s0=$(date +%s%N)
  rc=0
  "$exe" --exact "$t" --test-threads=1 >"$out" 2>&1 || rc=$?
  s1=$(date +%s%N) c1=$(busy)
  wall=$(( (s1 - s0) / 1000000 )) cpu=$(( (c1 - c0) * 1000 / hz ))
  total_wall=$((total_wall + wall)) total_cpu=$((total_cpu + cpu))
  printf '%-92s %s wall %7.1f s  cpu %7.1f s\n' "$t" "$([[ $rc == 0 ]] && echo ok || echo FAILED)" \
    "$(echo "$wall / 1000" | bc -l)" "$(echo "$cpu / 1000" | bc -l)"
done < <("$exe" --list 2>/dev/null | sed -n 's/: test$//p' | grep -F -- "$filter")
printf '%-92s    wall %7.1f s  cpu %7.1f s\n' "all" "$(echo "$total_wall / 1000" | bc -l)" "$(echo "$total_cpu / 1000" | bc -l)"
