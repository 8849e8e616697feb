#!/bin/sh
# bench/history.sh — `planner history` and `planner report` over many
# refreshes of a changing feed (issue 12: 112 s after four refreshes of
# 20,000 offers, each refresh replacing every offer). Vast.ai bodies from
# the fixture server's gen scenario alternate between two sets of offer ids
# (a, then b with 10% more), so every refresh makes every offer vanish and
# a new set appear. Reports the time of history and report after R and 2R
# refreshes: linear time shows as a ratio near 2. Defaults: 50,000 offers,
# R = 15, so the second database holds 30 nightly refreshes (issue 16).
set -eu
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-$PWD/build/planner}
DIR=build/bench
N=${BENCH_HISTORY_OFFERS:-50000}
R=${BENCH_HISTORY_REFRESHES:-15}
mkdir -p "$DIR"
rm -f "$DIR/hport"
python3 tests/fixture_server.py --root tests/fixtures/providers > "$DIR/hport" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
while ! grep -q PORT "$DIR/hport" 2>/dev/null; do sleep 0.1; done
PORT=$(awk '{print $2}' "$DIR/hport")

# Seconds of a command, from GNU time.
seconds() {
	/usr/bin/time -f %e -o "$DIR/htime" "$@" > /dev/null 2>&1
	cat "$DIR/htime"
}

# refreshes DB COUNT: COUNT refreshes alternating the a and b offer sets,
# a second apart (history's refresh times have one-second resolution).
refreshes() {
	i=0
	while [ $i -lt "$2" ]; do
		v=a; [ $((i % 2)) -eq 1 ] && v=b
		PLANNER_VAST_URL=http://127.0.0.1:$PORT/gen-$N-$v PLANNER_VAST_LIMIT=$((N * 2)) \
			"$BIN" refresh --quiet --provider vast --db "$1"
		i=$((i + 1))
		sleep 1
	done
}

for k in 1 2; do
	db="$DIR/history$k.db"
	rm -f "$db"*
	refreshes "$db" $((R * k))
	rows=$(sqlite3 "$db" 'SELECT count(*) FROM price_history' 2>/dev/null || echo '?')
	h=$(seconds "$BIN" history "RTX 4090" --db "$db")
	r=$(seconds "$BIN" report jobs/monthly.yaml --db "$db" -o "$DIR/history$k.html")
	echo "$((R * k)) refreshes of $N changing offers ($rows history rows): history $h s, report $r s"
	eval "H$k=$h R$k=$r"
done
awk -v h1="$H1" -v h2="$H2" -v r1="$R1" -v r2="$R2" 'BEGIN {
	printf "ratio 2R/R: history %.2f, report %.2f (linear: about 2; quadratic: about 4)\n",
		(h1 > 0 ? h2 / h1 : 0), (r1 > 0 ? r2 / r1 : 0)
}'
