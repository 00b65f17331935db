#!/usr/bin/env bash
# Concurrent renditions off the cooperative pool: eight generated 12 MP
# JPEGs rendered to a 1170x2532 box one after another, all at once through
# ImageWorkers, and all at once straight from tasks; wall time, CPU time,
# cores kept busy, and how late a 10 ms timer on the cooperative pool ran
# meanwhile. Writes the table to BENCHMARKS.md between the workers markers.
#
# Environment: WORK (a folder for the generated photos), ROUNDS (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
. Benchmarks/Scripts/photos.sh
prepare_bench bench-workers workers-bench
json=$(.build/release/workers-bench "$WORK"/photos/*.jpg --box 1170x2532 --rounds "$ROUNDS")
table=$(python3 - "$json" "$ROUNDS" "$(nproc)" <<'PY'
import json, sys, datetime
r = json.loads(sys.argv[1]); rounds = sys.argv[2]; cores = sys.argv[3]
rows = [
    ("one after another, on one ImageWorkers thread", r["results"]["sequential"]),
    ("all at once through `ImageWorkers.shared.run`", r["results"]["workers"]),
    ("all at once straight from tasks (on the cooperative pool)", r["results"]["tasks"]),
]
lines = [
    "<!-- workers:begin -->",
    "## Concurrent renditions off the cooperative pool",
    "",
    f"Measured {datetime.date.today()} on {cores} cores by `Benchmarks/Scripts/workers.sh` (`make bench NAME=workers`): {r['files']} generated",
    f"12 MP JPEGs rendered to fit {r['box']}, medians of {rounds} rounds. *Cores* is CPU time over wall time. *Timer late* is",
    "the worst lateness of a task on the cooperative pool that wakes every 10 ms while the renditions run: how long",
    "other async work (a tap handler, a network completion) would wait.",
    "",
    "| how | wall | CPU | cores | timer late (max) |",
    "|---|---|---|---|---|",
]
for name, row in rows:
    lines.append(f"| {name} | {row['wall_ms']:.0f} ms | {row['cpu_ms']:.0f} ms | {row['cores']:.2f} | {row['probe_late_max_ms']:.1f} ms |")
lines.append("<!-- workers:end -->")
print("\n".join(lines))
PY
)
printf '%s\n' "$table" | python3 Benchmarks/Scripts/update-benchmarks.py workers
echo "$table"
