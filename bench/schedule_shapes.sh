#!/bin/bash
# bench/schedule_shapes.sh — `planner schedule` on the spec shapes that took
# the solver longest (issue 16: it stopped on fixed budgets, so its time
# followed the spec's shape more than its size), each timed and costed
# against the greedy baseline (--baseline: by priority, earliest hours, no
# repair) in the same run. Shapes from bench/gen_schedule_shapes.py, fixed
# seeds; inputs under build/ (never committed). Figures, not pass/fail.
# Targets: at most 256 owned GPUs and 1,000 jobs in <= 1 s, 5,000 jobs in
# <= 3 s. BENCH_SHAPES="a b" runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-build/planner}
DIR=build/bench-schedule
mkdir -p "$DIR"
# shape, generator seed, what it is
SHAPES=${BENCH_SHAPES:-"one-gpu-10 small-pools gpus8-1000 month-1000 watts-256 one-pool-5000"}
describe() {
	case $1 in
	one-gpu-10) echo "10 jobs, 1 GPU" ;;
	small-pools) echo "5 jobs, 4 pools of 1-2 GPUs (the slowest of 40 seeds)" ;;
	gpus8-1000) echo "1000 jobs, 8 GPUs (2 models)" ;;
	month-1000) echo "1000 jobs, 64 GPUs (4 models)" ;;
	watts-256) echo "1000 jobs, 256 GPUs of distinct wattage (256 pools)" ;;
	watts-1000) echo "1000 jobs, 1000 GPUs of distinct wattage (beyond the target)" ;;
	one-pool-5000) echo "5000 jobs, 1 pool of 64 GPUs" ;;
	esac
}
seed() { [ "$1" = small-pools ] && echo 24 || echo 1; }

# wall and user seconds of one schedule, then its total cost and unplaced hours
run() {
	local shape=$1
	shift
	/usr/bin/time -f '%e %U' -o "$DIR/time" "$BIN" schedule "$DIR/$shape.yaml" --month 2026-03 \
		--format json --db "$DIR/bench.db" -q --allow-unplaced -o "$DIR/$shape$*.json" "$@"
	python3 -c 'import json,sys
d = json.load(open(sys.argv[2]))
w, u = open(sys.argv[1]).read().split()
print(w, u, d["total_cost"], round(sum(x["hours"] for x in d["unplaced"]), 1))' \
		"$DIR/time" "$DIR/$shape$*.json"
}

echo "schedule shapes, 2026-03 (743 h): seconds wall/user, total cost, unplaced hours"
printf '%-14s %-9s %6s %6s %11s %9s\n' shape solver wall user total unplaced
for shape in $SHAPES; do
	python3 bench/gen_schedule_shapes.py "$shape" "$DIR/$shape.yaml" "$(seed "$shape")"
	read -r w u c h <<<"$(run "$shape")"
	read -r bw bu bc bh <<<"$(run "$shape" --baseline)"
	echo "$shape: $(describe "$shape")"
	printf '%-14s %-9s %6.2f %6.2f %11.2f %9.1f\n' "" optimiser "$w" "$u" "$c" "$h"
	printf '%-14s %-9s %6.2f %6.2f %11.2f %9.1f\n' "" baseline "$bw" "$bu" "$bc" "$bh"
done
