#!/bin/bash
# bench/fleet.sh — `planner fleet` on a generated spec: 200 jobs, six GPU
# types to buy (up to 8 each), none owned, December in UTC (744 h); timed
# (wall and CPU), with the gap to the documented lower bound (docs/fleet.md,
# "The bound") and two baselines of the same run: "one purchase per job"
# (each job's own purchase as compare prices it, scheduled together), and
# `fleet --thorough`, the search scheduling every purchase it tries in full
# (the method before the quick look; minutes of CPU, FLEET_THOROUGH=0 skips
# it). Inputs go under build/, never committed. Figures, not pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-build/planner}
DIR=build/bench-fleet
JOBS=${FLEET_JOBS:-200}
THOROUGH=${FLEET_THOROUGH:-1}
mkdir -p "$DIR"
python3 bench/gen_fleet.py "$DIR/fleet-$JOBS.yaml" "$JOBS"
rm -f "$DIR/bench.db"
# One timed run: wall seconds, then user+sys CPU seconds, on one line.
run() {
	python3 -c '
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True)
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.3f} {r.ru_utime + r.ru_stime:.3f}")' \
		"$BIN" fleet "$DIR/fleet-$JOBS.yaml" --month 2026-12 --format json --db "$DIR/bench.db" \
		-q "$@"
}
fast=$(run -o "$DIR/fleet.json")
slow=""
if [ "$THOROUGH" != 0 ]; then
	slow=$(run -o "$DIR/fleet-thorough.json" --thorough)
fi
python3 - "$DIR/fleet.json" "$JOBS" "$fast" "$DIR/fleet-thorough.json" "$slow" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = sys.argv[2]
wall, cpu = map(float, sys.argv[3].split())
alt = d["alternatives"]
def buy(c):
    return ", ".join(f'{p["count"]}x {p["gpu"]}' for p in c["purchase"]) or "nothing"
def gap(c):
    return (c["monthly_total"] / d["bound"] - 1) * 100
s = d["search"]
print(f"fleet: {jobs} jobs, 6 GPU types to buy, {d['month']} ({d['hours']} h)")
print(f"  time {wall:.2f} s wall, {cpu:.2f} s CPU; {s['quick_evaluations']} purchases looked at"
      f" quickly, {s['evaluations']} scheduled in full{' (every one)' if s['exact'] else ''}")
for name, c in (("fleet", d), ("one purchase per job", alt["one_purchase_per_job"]),
                ("buy nothing", alt["buy_nothing"])):
    print(f"  {name:21s} total {c['monthly_total']:10.2f}  capex {c['capex']:10.2f}"
          f"  unplaced {c['unplaced_hours']:7.1f} h  {buy(c)}")
print(f"  bound {d['bound']:.2f}: the fleet is within {gap(d):.2f}%"
      " of it (an upper limit on its distance from the optimum)")
b = alt["one_purchase_per_job"]["monthly_total"]
print(f"  baseline: one purchase per job costs {(b / d['monthly_total'] - 1) * 100:.1f}% more")
if sys.argv[5]:
    t = json.load(open(sys.argv[4]))
    twall, tcpu = map(float, sys.argv[5].split())
    print(f"  baseline --thorough: {twall:.2f} s wall, {tcpu:.2f} s CPU, {t['search']['evaluations']}"
          f" purchases scheduled in full; total {t['monthly_total']:.2f} (within {gap(t):.2f}%"
          f" of the bound), {buy(t)}")
    print(f"  ratio: the quick-look search takes {cpu / tcpu:.3f} of --thorough's CPU"
          f" ({tcpu / cpu:.1f}x faster); its total differs by {d['monthly_total'] - t['monthly_total']:+.2f}")
PY
