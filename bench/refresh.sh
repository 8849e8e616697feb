#!/bin/sh
# bench/refresh.sh — `planner refresh` on big feeds over loopback: an AWS
# price-list CSV of at least 1 GiB (streamed) and a 50,000-offer Vast.ai
# body. Reports wall time, the ratio to `wc -l` on the same file, and peak
# RSS. Targets: AWS ≤ 3× wc -l, RSS < 64 MB; Vast 50k < 1 s.
# Inputs are generated under build/bench (ignored), once.
set -eu
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-$PWD/build/planner}
DIR=build/bench
AWS_MIB=${BENCH_AWS_MIB:-1100}
mkdir -p "$DIR"
[ -s "$DIR/aws.csv" ] && [ "$(stat -c %s "$DIR/aws.csv")" -ge $((AWS_MIB << 20)) ] ||
	python3 bench/gen_prices.py aws "$DIR/aws.csv" "$AWS_MIB"
[ -s "$DIR/vast.json" ] || python3 bench/gen_prices.py vast "$DIR/vast.json" 50000

rm -f "$DIR/port"
python3 tests/fixture_server.py --root "$DIR" > "$DIR/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
while ! grep -q PORT "$DIR/port" 2>/dev/null; do sleep 0.1; done
PORT=$(awk '{print $2}' "$DIR/port")

# Seconds and peak RSS (KiB) of a command, from GNU time.
measure() {
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$@" > /dev/null
	cat "$DIR/time"
}

rm -f "$DIR"/bench.db*
cat "$DIR/aws.csv" > /dev/null   # both runs read a warm page cache
set -- $(measure wc -l "$DIR/aws.csv"); WC_S=$1
set -- $(PLANNER_AWS_URL=http://127.0.0.1:$PORT/ok measure \
	"$BIN" refresh --quiet --provider aws --aws-regions us-east-1 --db "$DIR/bench.db")
AWS_S=$1 AWS_KB=$2
set -- $(PLANNER_VAST_URL=http://127.0.0.1:$PORT/ok PLANNER_VAST_LIMIT=50000 measure \
	"$BIN" refresh --quiet --provider vast --db "$DIR/bench.db")
VAST_S=$1 VAST_KB=$2
ROWS=$("$BIN" providers --db "$DIR/bench.db" --format json | python3 -c \
	'import json,sys; print({p["provider"]: p["rows"] for p in json.load(sys.stdin)})')
MB=$(( $(stat -c %s "$DIR/aws.csv") >> 20 ))
awk -v wc="$WC_S" -v a="$AWS_S" -v akb="$AWS_KB" -v v="$VAST_S" -v vkb="$VAST_KB" -v mb="$MB" 'BEGIN {
	printf "aws  %d MiB CSV: refresh %.2f s, wc -l %.2f s, ratio %.2f (target <= 3), peak RSS %.1f MB (target < 64)\n",
		mb, a, wc, (wc > 0 ? a / wc : 0), akb / 1024
	printf "vast 50000 offers: refresh %.2f s (target < 1), peak RSS %.1f MB\n", v, vkb / 1024
}'
echo "rows: $ROWS"
