#!/bin/sh
# bench/history.sh — `planner history` and `planner report` over many
# refreshes of a changing feed (issue 12: 112 s after four refreshes of
# 20,000 offers, each refresh replacing every offer). Vast.ai bodies from
# the fixture server's gen scenario alternate between two sets of offer ids
# (a, then b with 10% more), so every refresh makes every offer vanish and
# a new set appear. Reports the time (wall and CPU) and peak RSS of history
# and report after R and 2R refreshes: linear time shows as a CPU ratio
# near 2, memory that does not grow with the rows as an RSS ratio near 1.
# Defaults: 50,000 offers, R = 15, so the second database holds 30 nightly
# refreshes (issue 16).
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

# "wall cpu rss" of a command, from GNU time: seconds elapsed, seconds of
# CPU (user + system: what the machine's other load does not inflate) and
# peak resident set in MB.
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/htime" "$@" > /dev/null 2>&1
	awk '{ printf "%s %.2f %.0f", $1, $2 + $3, $4 / 1024 }' "$DIR/htime"
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
	set -- $(measure "$BIN" history "RTX 4090" --db "$db")
	hw=$1 hc=$2 hm=$3
	set -- $(measure "$BIN" report jobs/monthly.yaml --db "$db" -o "$DIR/history$k.html")
	rw=$1 rc=$2 rm=$3
	echo "$((R * k)) refreshes of $N changing offers ($rows history rows):" \
		"history $hw s ($hc s cpu, $hm MB), report $rw s ($rc s cpu, $rm MB)"
	eval "H$k=$hc R$k=$rc HM$k=$hm RM$k=$rm"
done
awk -v h1="$H1" -v h2="$H2" -v r1="$R1" -v r2="$R2" -v hm1="$HM1" -v hm2="$HM2" \
	-v rm1="$RM1" -v rm2="$RM2" 'BEGIN {
	printf "ratio 2R/R of cpu time: history %.2f, report %.2f (linear: about 2; quadratic: about 4)\n",
		(h1 > 0 ? h2 / h1 : 0), (r1 > 0 ? r2 / r1 : 0)
	printf "ratio 2R/R of peak RSS: history %.2f, report %.2f (flat: about 1; holding every row: about 2)\n",
		(hm1 > 0 ? hm2 / hm1 : 0), (rm1 > 0 ? rm2 / rm1 : 0)
}'
