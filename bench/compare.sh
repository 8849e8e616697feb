#!/bin/sh
# bench/compare.sh — `planner compare` as jobs and offers grow (issue 16:
# about 156 ns per job x offer pair, 156 s for 10,000 jobs against 100,061
# offer rows). The growth curve: 10/100/1,000/10,000 jobs (bench/gen_jobs.py)
# x about 1k/10k/100k offer rows (Vast.ai bodies from bench/gen_prices.py,
# refreshed over loopback; each offer is an on-demand and an interruptible
# row, on top of the snapshot's). Prints CPU seconds (user + system) and
# peak RSS per cell, and ns per job x offer pair. Baseline in the same run:
# `planner offers` on the same database (reading and printing every row
# once, cheapest first), and with BENCH_COMPARE_OLD=path/to/planner an
# older binary on the cells up to BENCH_COMPARE_OLD_JOBS jobs (default 100).
# Target: 10,000 jobs x 100,000 offers in <= 0.5 s.
set -eu
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-$PWD/build/planner}
OLD=${BENCH_COMPARE_OLD:-}
OLD_JOBS=${BENCH_COMPARE_OLD_JOBS:-100}
DIR=build/bench/compare
mkdir -p "$DIR"

for n in 500 5000 50000; do
	mkdir -p "$DIR/v$n"
	[ -s "$DIR/v$n/vast.json" ] || python3 bench/gen_prices.py vast "$DIR/v$n/vast.json" $n
done
for j in 10 100 1000 10000; do
	[ -s "$DIR/jobs-$j.yaml" ] || python3 bench/gen_jobs.py "$DIR/jobs-$j.yaml" $j
done
# The same 10,000 jobs with one in ten sized to latency targets (slo:).
[ -s "$DIR/jobs-10000-slo.yaml" ] || python3 bench/gen_jobs.py "$DIR/jobs-10000-slo.yaml" 10000 --slo

SERVER=
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null' EXIT
for n in 500 5000 50000; do
	[ -s "$DIR/offers-$n.db" ] && continue
	rm -f "$DIR/port" "$DIR/offers-$n.db"*
	python3 tests/fixture_server.py --root "$DIR/v$n" > "$DIR/port" &
	SERVER=$!
	while ! grep -q PORT "$DIR/port" 2>/dev/null; do sleep 0.1; done
	PLANNER_VAST_URL=http://127.0.0.1:$(awk '{print $2}' "$DIR/port")/ok PLANNER_VAST_LIMIT=$n \
		"$BIN" refresh --quiet --provider vast --db "$DIR/offers-$n.db"
	kill $SERVER
	wait $SERVER 2>/dev/null || true
	SERVER=
done

# CPU seconds (user + system) and peak RSS in MB of a command.
cpu() {
	/usr/bin/time -f '%U %S %M' -o "$DIR/time" "$@" > /dev/null 2>&1 || true
	awk '{ printf "%.2f %.1f\n", $1 + $2, $3 / 1024 }' "$DIR/time"
}

rows_of() {
	"$BIN" offers --db "$1" --format csv 2>/dev/null | awk 'END { print NR - 1 }'
}

for n in 500 5000 50000; do
	db="$DIR/offers-$n.db"
	rows=$(rows_of "$db")
	set -- $(cpu "$BIN" offers --db "$db")
	printf "%6d offer rows: baseline planner offers %.2f s cpu, %.1f MB\n" "$rows" "$1" "$2"
	for j in 10 100 1000 10000; do
		set -- $(cpu "$BIN" compare "$DIR/jobs-$j.yaml" --db "$db" --quiet)
		awk -v j=$j -v r="$rows" -v c="$1" -v m="$2" 'BEGIN {
			printf "  %5d jobs: compare %6.2f s cpu, %5.1f MB, %7.2f ns per job x offer\n",
				j, c, m, c * 1e9 / (j * r) }'
		if [ -n "$OLD" ] && [ $j -le "$OLD_JOBS" ]; then
			set -- $(cpu "$OLD" compare "$DIR/jobs-$j.yaml" --db "$db" --quiet)
			awk -v j=$j -v r="$rows" -v c="$1" -v m="$2" 'BEGIN {
				printf "  %5d jobs: old     %6.2f s cpu, %5.1f MB, %7.2f ns per job x offer\n",
					j, c, m, c * 1e9 / (j * r) }'
		fi
	done
done
echo "target: 10000 jobs x 100000 offers <= 0.5 s"

# Latency targets (planner/slo.c): the 10,000 jobs with one in ten sized
# to load: and slo:, against the same jobs without (baseline, this run).
db="$DIR/offers-50000.db"
set -- $(cpu "$BIN" compare "$DIR/jobs-10000.yaml" --db "$db" --quiet)
set -- "$@" $(cpu "$BIN" compare "$DIR/jobs-10000-slo.yaml" --db "$db" --quiet)
awk -v b="$1" -v s="$3" -v m="$4" 'BEGIN {
	printf "10000 jobs x 100k offers, 1 in 10 with slo: %.2f s cpu, %.1f MB; without: %.2f s cpu\n",
		s, m, b }'

# The JSON contract of the largest cell: each job printed as it is made
# (planner/json_print.c); baseline: the table of the same run above.
db="$DIR/offers-50000.db"
set -- $(cpu "$BIN" compare "$DIR/jobs-10000.yaml" --db "$db" --quiet)
set -- "$@" $(cpu "$BIN" compare "$DIR/jobs-10000.yaml" --db "$db" --quiet --format json)
awk -v t="$1" -v tm="$2" -v c="$3" -v m="$4" 'BEGIN {
	printf "10000 jobs x 100k offers: --format json %.2f s cpu, %.1f MB; table %.2f s cpu, %.1f MB; ratio %.2f\n",
		c, m, t, tm, (t > 0 ? c / t : 0) }'
