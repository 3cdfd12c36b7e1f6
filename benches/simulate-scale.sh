#!/usr/bin/env bash
# Time and memory of `simulate` at the sizes the README quotes (release build, whole process).
# Usage: benches/simulate-scale.sh   (prints one line per size)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/streams-group
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/topology.json" <<'PY'
import json, sys
subs = []
for i in range(10):
    s = {"id": str(i), "source_topics": [f"in-{i}"]}
    if i % 2 == 0:
        s["state_changelog_topics"] = [{"name": f"app-store-{i}-changelog"}]
    subs.append(s)
json.dump({"epoch": 0, "subtopologies": subs}, open(sys.argv[1], "w"))
PY
run() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin" simulate --topology "$tmp/topology.json" --standby-replicas 1 "$@" --output json > "$tmp/out.json"
  read -r secs kib < "$tmp/t"
  state=$(python3 -c "import json;d=json.load(open('$tmp/out.json'));print(d['final_state'], d['total_tasks'], d['heartbeats'], 'samples', d['samples']['count'])")
  printf '%-48s %6ss %7d MiB  (%s)\n' "$label" "$secs" "$((kib / 1024))" "$state"
}
# One run each (--samples 1), then the default number of samples (as many as fit the budget).
run "1,000 members, 10x1,000 partitions"             --members 1000 --partitions 1000 --samples 1
run "1,000 members, 10x1,000 partitions, scale-out"  --members 1000 --partitions 1000 --scenario scale-out --samples 1
run "same, default samples"                          --members 1000 --partitions 1000 --scenario scale-out
# Issue #32's goal: the default samples of a crash (heartbeat phases of every member drawn)
# within 3x of one run.
run "1,000 members, crash, --samples 1"              --members 1000 --partitions 1000 --scenario crash --samples 1
run "same, default samples"                          --members 1000 --partitions 1000 --scenario crash
run "10,000 members (4/process), 100,000 tasks"      --members 10000 --threads-per-process 4 --partitions 10000 --samples 1
run "10,000 members, 100,000 tasks, crash of 1 member" --members 10000 --threads-per-process 4 --partitions 10000 --scenario crash --count 1 --session-timeout 45000 --samples 1
# Issue #13's goals: under 5 s, and under 1 s.
run "100,000 members (4/process), 100,000 tasks"     --members 100000 --threads-per-process 4 --partitions 10000 --samples 1
