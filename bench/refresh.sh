#!/bin/sh
# bench/refresh.sh — `planner refresh` on big feeds over loopback: an AWS
# price-list CSV of at least 1 GiB (streamed) and a Vast.ai body of
# 200,000 offers (streamed, issue 16). For AWS it prints three CPU times
# (user + sys; best and median of BENCH_AWS_RUNS rounds, default 7)
# measured in this run on the same file: `wc -l` of it (the floor for
# reading it), `curl -s -o /dev/null` of the same loopback URL (the
# transfer alone) and the refresh, with the refresh's ratio to each, and
# peak RSS. The three run in turn within each round, so a load that comes
# and goes (other builds on the cores) falls on all three alike; run in
# three blocks, a block under load made its command look slower.
# Vast is timed three ways (below), the first refresh against the sqlite3
# shell copying the same rows (the floor of writing them) and the others
# against curl of the same body.
# Targets: AWS ≤ 1.5× wc -l CPU, RSS < 64 MB; Vast 200k < 1 s, RSS < 64 MB.
# Inputs are generated under build/bench (ignored), once.
set -eu
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-$PWD/build/planner}
DIR=build/bench
AWS_MIB=${BENCH_AWS_MIB:-1100}
VAST_N=${BENCH_VAST_OFFERS:-200000}
RUNS=${BENCH_RUNS:-3}
AWS_RUNS=${BENCH_AWS_RUNS:-7}
mkdir -p "$DIR"
[ -s "$DIR/aws.csv" ] && [ "$(stat -c %s "$DIR/aws.csv")" -ge $((AWS_MIB << 20)) ] ||
	python3 bench/gen_prices.py aws "$DIR/aws.csv" "$AWS_MIB"
# Vast: the body and the same offers with 10 % repriced; the one served
# (vast.json) is copied from either, since a row's source is its URL.
[ -s "$DIR/vast.base.json" ] && [ "$(cat "$DIR/vast.n" 2>/dev/null)" = "$VAST_N" ] || {
	python3 bench/gen_prices.py vast "$DIR/vast.base.json" "$VAST_N"
	python3 bench/gen_prices.py vast "$DIR/vast.churn.json" "$VAST_N" 10
	echo "$VAST_N" > "$DIR/vast.n"
}
cp "$DIR/vast.base.json" "$DIR/vast.json"

rm -f "$DIR/port"
python3 tests/fixture_server.py --root "$DIR" > "$DIR/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
while ! grep -q PORT "$DIR/port" 2>/dev/null; do sleep 0.1; done
PORT=$(awk '{print $2}' "$DIR/port")
AWS_URL=http://127.0.0.1:$PORT/ok/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv

# "wall cpu rss_kib" of a command: the run of the best CPU time (user +
# sys) of RUNS, from GNU time.
measure() {
	best=
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$@" > /dev/null
		line=$(awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}' "$DIR/time")
		if [ -z "$best" ] || awk -v a="$line" -v b="$best" \
			'BEGIN {split(a, x, " "); split(b, y, " "); exit !(x[2] < y[2])}'; then
			best=$line
		fi
		i=$((i + 1))
	done
	echo "$best"
}

rm -f "$DIR"/bench.db*
"$BIN" providers --db "$DIR/bench.db" > /dev/null # the database exists before any timing
cat "$DIR/aws.csv" > /dev/null                    # every run reads a warm page cache
# AWS: rounds of wc -l, curl and the refresh in turn; "wall cpu rss_kib"
# a line per run in $DIR/aws.<name>.
rm -f "$DIR"/aws.wc "$DIR"/aws.curl "$DIR"/aws.refresh
one() { # name command...: one run, appended to $DIR/aws.<name>
	name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$@" > /dev/null
	awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}' "$DIR/time" >> "$DIR/aws.$name"
}
i=0
while [ $i -lt "$AWS_RUNS" ]; do
	one wc wc -l "$DIR/aws.csv"
	one curl curl -s -o /dev/null "$AWS_URL"
	PLANNER_AWS_URL=http://127.0.0.1:$PORT/ok one refresh \
		"$BIN" refresh --quiet --provider aws --aws-regions us-east-1 --db "$DIR/bench.db"
	i=$((i + 1))
done
# "best median wall_of_best rss_of_best" of the CPU column of a file.
stats() {
	sort -n -k2 "$1" | awk '{w[NR] = $1; c[NR] = $2; r[NR] = $3} END {
		m = NR % 2 ? c[(NR + 1) / 2] : (c[NR / 2] + c[NR / 2 + 1]) / 2
		printf "%.2f %.3f %.2f %d\n", c[1], m, w[1], r[1]}'
}
set -- $(stats "$DIR/aws.wc"); WC_S=$1 WC_M=$2
set -- $(stats "$DIR/aws.curl"); CURL_S=$1 CURL_M=$2
set -- $(stats "$DIR/aws.refresh"); AWS_S=$1 AWS_M=$2 AWS_WALL=$3 AWS_KB=$4
# Vast, three cases: the first refresh (every offer new: each row and its
# history written), the same body again (the nightly case with no
# change), and 10 % of the offers repriced at each run (the bodies
# alternate). The body is over the 64 MiB cap on a response (http.c):
# raised here.
VAST="env PLANNER_VAST_URL=http://127.0.0.1:$PORT/ok PLANNER_VAST_LIMIT=$VAST_N
	PLANNER_HTTP_MAX_BYTES=1073741824 $BIN refresh --quiet --provider vast --db $DIR/bench.db"
set -- $(RUNS=1 measure $VAST)
VAST_WALL=$1 VAST_S=$2 VAST_KB=$3
# Baselines. For the first refresh, the floor of writing its rows: the
# sqlite3 shell copying the same Vast offers and history rows, table to
# table, into a database that has none (no HTTP, JSON or staging; the
# same WAL and indexes). For the others, curl of the same body.
"$BIN" providers --db "$DIR/empty.db" > /dev/null
sqlite3 "$DIR/empty.db" "DELETE FROM offers WHERE provider = 'vast';
	DELETE FROM price_history WHERE provider = 'vast'"
COPY="PRAGMA cache_size = -16384; ATTACH '$DIR/bench.db' AS f; BEGIN;
	INSERT INTO main.offers SELECT * FROM f.offers WHERE provider = 'vast';
	INSERT INTO main.price_history SELECT * FROM f.price_history WHERE provider = 'vast'; COMMIT"
rm -f "$DIR/aws.vcopy" "$DIR/aws.vcurl"
i=0
while [ $i -lt "$RUNS" ]; do
	rm -f "$DIR"/floor.db*
	cp "$DIR/empty.db" "$DIR/floor.db"
	one vcopy sqlite3 "$DIR/floor.db" "$COPY"
	one vcurl curl -s -o /dev/null -X POST -d "{\"limit\":$VAST_N}" \
		"http://127.0.0.1:$PORT/ok/api/v0/bundles/"
	i=$((i + 1))
done
set -- $(stats "$DIR/aws.vcopy"); VAST_COPY_S=$1
set -- $(stats "$DIR/aws.vcurl"); VAST_CURL_S=$1
set -- $(measure $VAST)
VAST_AGAIN_S=$2 VAST_AGAIN_KB=$3
rm -f "$DIR/aws.vchurn"
i=0
while [ $i -lt "$RUNS" ]; do
	[ $((i % 2)) = 0 ] && body=churn || body=base
	cp "$DIR/vast.$body.json" "$DIR/vast.json"
	one vchurn $VAST
	i=$((i + 1))
done
set -- $(stats "$DIR/aws.vchurn"); VAST_CHURN_S=$1 VAST_CHURN_KB=$4
ROWS=$("$BIN" providers --db "$DIR/bench.db" --format json | python3 -c \
	'import json,sys; print({p["provider"]: p["rows"] for p in json.load(sys.stdin)})')
MB=$(( $(stat -c %s "$DIR/aws.csv") >> 20 ))
VMB=$(( $(stat -c %s "$DIR/vast.json") >> 20 ))
awk -v wc="$WC_S" -v cu="$CURL_S" -v a="$AWS_S" -v aw="$AWS_WALL" -v akb="$AWS_KB" \
	-v wcm="$WC_M" -v cum="$CURL_M" -v am="$AWS_M" -v aruns="$AWS_RUNS" \
	-v v="$VAST_S" -v vw="$VAST_WALL" -v vkb="$VAST_KB" -v mb="$MB" -v vmb="$VMB" -v vn="$VAST_N" \
	-v runs="$RUNS" -v va="$VAST_AGAIN_S" -v vakb="$VAST_AGAIN_KB" -v vc="$VAST_CHURN_S" \
	-v vckb="$VAST_CHURN_KB" -v vcopy="$VAST_COPY_S" -v vcurl="$VAST_CURL_S" 'BEGIN {
	printf "aws  %d MiB CSV, CPU s (user+sys, best of %d rounds): wc -l %.2f, curl -o /dev/null %.2f, refresh %.2f (wall %.2f)\n",
		mb, aruns, wc, cu, a, aw
	printf "     ratio refresh/wc -l %.2f (target <= 1.5), refresh/curl %.2f, peak RSS %.1f MB (target < 64)\n",
		(wc > 0 ? a / wc : 0), (cu > 0 ? a / cu : 0), akb / 1024
	printf "     medians: wc -l %.3f, curl %.3f, refresh %.3f; ratio refresh/wc -l %.2f, refresh/curl %.2f\n",
		wcm, cum, am, (wcm > 0 ? am / wcm : 0), (cum > 0 ? am / cum : 0)
	printf "vast %d offers (%d MiB body), CPU s (user+sys) and peak RSS; target < 1 s, < 64 MB:\n", vn, vmb
	printf "     first refresh (every offer new): CPU %.2f (wall %.2f), %.1f MB\n", v, vw, vkb / 1024
	printf "       baseline: sqlite3 copying its offer and history rows into a database without them %.2f; ratio %.2f\n",
		vcopy, (vcopy > 0 ? v / vcopy : 0)
	printf "     same body again (best of %d): CPU %.2f, %.1f MB\n", runs, va, vakb / 1024
	printf "     10 %% of offers repriced (best of %d): CPU %.2f, %.1f MB\n", runs, vc, vckb / 1024
	printf "       baseline: curl -o /dev/null of the body %.2f (the transfer alone); ratio to the first refresh: again %.2f, repriced %.2f\n",
		vcurl, (v > 0 ? va / v : 0), (v > 0 ? vc / v : 0)
}'
echo "rows: $ROWS"
