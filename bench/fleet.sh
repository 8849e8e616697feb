#!/bin/bash
# bench/fleet.sh — `planner fleet` on a generated spec: 200 jobs, six GPU
# types to buy (up to 8 each), none owned, December in UTC (744 h); timed,
# with the gap to the documented lower bound (docs/fleet.md, "The bound")
# and the baseline of the same run: "one purchase per job" (each job's own
# purchase as compare prices it, scheduled together). Inputs go under
# build/, never committed. Figures, not pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-build/planner}
DIR=build/bench-fleet
JOBS=${FLEET_JOBS:-200}
mkdir -p "$DIR"
python3 bench/gen_fleet.py "$DIR/fleet-$JOBS.yaml" "$JOBS"
rm -f "$DIR/bench.db"
start=$(date +%s.%N)
"$BIN" fleet "$DIR/fleet-$JOBS.yaml" --month 2026-12 --format json --db "$DIR/bench.db" -q \
	-o "$DIR/fleet.json"
end=$(date +%s.%N)
python3 - "$DIR/fleet.json" "$(echo "$end - $start" | bc)" "$JOBS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t, jobs = float(sys.argv[2]), sys.argv[3]
alt = d["alternatives"]
def buy(c):
    return ", ".join(f'{p["count"]}x {p["gpu"]}' for p in c["purchase"]) or "nothing"
print(f"fleet: {jobs} jobs, 6 GPU types to buy, {d['month']} ({d['hours']} h)")
print(f"  time {t:.2f} s, {d['search']['evaluations']} purchases scheduled"
      f"{' (every one)' if d['search']['exact'] else ''}")
for name, c in (("fleet", d), ("one purchase per job", alt["one_purchase_per_job"]),
                ("buy nothing", alt["buy_nothing"])):
    print(f"  {name:21s} total {c['monthly_total']:10.2f}  capex {c['capex']:10.2f}"
          f"  unplaced {c['unplaced_hours']:7.1f} h  {buy(c)}")
print(f"  bound {d['bound']:.2f}: the fleet is within {(d['monthly_total'] / d['bound'] - 1) * 100:.1f}%"
      " of it (an upper limit on its distance from the optimum)")
b = alt["one_purchase_per_job"]["monthly_total"]
print(f"  baseline: one purchase per job costs {(b / d['monthly_total'] - 1) * 100:.1f}% more")
PY
