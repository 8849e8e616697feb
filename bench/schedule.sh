#!/bin/bash
# bench/schedule.sh — `planner schedule` on a generated month (1,000 jobs,
# 64 owned GPUs of four models, mixed windows), timed, against the greedy
# baseline (--baseline: by priority, earliest hours, no repair) in the same
# run. Inputs go under build/bench/, never committed. Figures, not pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-build/planner}
DIR=build/bench-schedule
mkdir -p "$DIR"
python3 bench/gen_schedule.py "$DIR/month-1000.yaml" 1000
DB="$DIR/bench.db"

run() {
	local start end
	start=$(date +%s.%N)
	"$BIN" schedule "$DIR/month-1000.yaml" --month 2026-03 --format json --db "$DB" -q "$@" \
		-o "$DIR/out${1:-}.json"
	end=$(date +%s.%N)
	echo "$end - $start" | bc
}
t_opt=$(run)
t_base=$(run --baseline)
cost() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total_cost"], round(sum(u["hours"] for u in d["unplaced"]),1), sum(1 for r in d["runs"] if r["route"]=="owned"))' "$1"; }
read -r c_opt u_opt n_opt <<<"$(cost "$DIR/out.json")"
read -r c_base u_base n_base <<<"$(cost "$DIR/out--baseline.json")"
echo "schedule: 1000 jobs, 64 owned GPUs (4 models), 2026-03 (743 h)"
printf '  optimiser  %6.2f s  total %12.2f  unplaced %8.1f h  owned runs %d\n' "$t_opt" "$c_opt" "$u_opt" "$n_opt"
printf '  baseline   %6.2f s  total %12.2f  unplaced %8.1f h  owned runs %d\n' "$t_base" "$c_base" "$u_base" "$n_base"
python3 -c "import sys; o,b=float(sys.argv[1]),float(sys.argv[2]); print('  gap: the baseline costs %.1f%% more' % ((b/o-1)*100))" "$c_opt" "$c_base"
