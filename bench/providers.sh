#!/bin/sh
# bench/providers.sh — `planner refresh --provider NAME` for every provider
# `planner providers` lists (the ecb step too), each from its loopback
# fixture scaled to a realistic size (bench/scale_fixture.py; sizes below,
# BENCH_SCALE multiplies them). Prints per provider the rows stored, wall
# time and peak RSS (GNU time), and the baseline of the same run: the same
# refresh from the small, unscaled fixture. A provider added later is
# benched as soon as it has tests/fixtures/providers/<name>.* and a route
# in tests/fixture_server.py (default size 1000 elements). Inputs go to
# build/bench/providers (ignored).
set -eu
cd "$(dirname "$0")/.."
BIN=${PLANNER_BIN:-$PWD/build/planner}
DIR=build/bench/providers
SCALE=${BENCH_SCALE:-1}
mkdir -p "$DIR/small" "$DIR/big"
rm -f "$DIR"/*.db* "$DIR"/port-*

# Realistic sizes, elements of each feed's main list (issue 14): Vast.ai
# about 20,000 offers a search; Azure and GCP thousands of meters/SKUs per
# page; LiteLLM's table about 3,000 entries, OpenRouter's about 400 models;
# the AWS CSV is benched at 1.1 GiB by refresh.sh, here 200,000 rows;
# Scaleway 99 types a zone (100 would ask for a page 2 the fixture lacks).
size_of() {
	case $1 in
	vast) echo 20000 ;; aws) echo 200000 ;; azure) echo 5000 ;; gcp) echo 5000 ;;
	litellm) echo 3000 ;; openrouter) echo 400 ;; runpod) echo 100 ;;
	lambda) echo 40 ;; scaleway) echo 99 ;; seeweb) echo 60 ;; ecb) echo 0 ;;
	*) echo 1000 ;;
	esac
}

NAMES=$("$BIN" providers --db "$DIR/names.db" --format json | python3 -c \
	'import json,sys; print(" ".join(p["provider"] for p in json.load(sys.stdin)))')
cp tests/fixtures/providers/* "$DIR/small/"
cp tests/fixtures/providers/* "$DIR/big/"
for name in $NAMES; do
	n=$(( $(size_of "$name") * SCALE ))
	for f in tests/fixtures/providers/"$name".json tests/fixtures/providers/"$name".csv; do
		[ -f "$f" ] && [ "$n" -gt 0 ] && python3 bench/scale_fixture.py "$f" "$DIR/big/$(basename "$f")" "$n"
	done
done

serve() { # serve ROOT TAG: starts a fixture server, sets PORT_<TAG>
	python3 tests/fixture_server.py --root "$1" > "$DIR/port-$2" &
	echo $! >> "$DIR/pids"
	while ! grep -q PORT "$DIR/port-$2" 2>/dev/null; do sleep 0.1; done
}
rm -f "$DIR/pids"
trap 'for p in $(cat "$DIR/pids" 2>/dev/null); do kill "$p" 2>/dev/null; done' EXIT
serve "$PWD/$DIR/small" small
serve "$PWD/$DIR/big" big
SMALL=$(awk '{print $2}' "$DIR/port-small")
BIG=$(awk '{print $2}' "$DIR/port-big")

# Environment for one provider: its URL at PORT and a key for every keyed one.
envs() {
	"$BIN" providers --db "$DIR/names.db" --format json | python3 -c '
import json, sys
port = sys.argv[1]
for p in json.load(sys.stdin):
    print("PLANNER_%s_URL=http://127.0.0.1:%s/ok" % (p["provider"].upper(), port))
    if p.get("key_env"):
        print("%s=bench-key" % p["key_env"])' "$1"
}

# Seconds, peak RSS (KiB) and rows of one refresh.
measure() { # measure NAME PORT DB
	/usr/bin/time -f '%e %M' -o "$DIR/time" env $(envs "$2") VERDA_CLIENT_ID=bench-id HOTAISLE_TEAM_HANDLE=bench-team PLANNER_AWS_REGIONS=us-east-1 \
		PLANNER_VAST_LIMIT=50000 "$BIN" refresh --quiet --provider "$1" --db "$3" \
		> /dev/null 2> "$DIR/err" || echo "  ($1 failed: $(head -c 200 "$DIR/err"))" >&2
	rows=$("$BIN" providers --db "$3" --format json | python3 -c \
		'import json,sys; print({p["provider"]: p["rows"] for p in json.load(sys.stdin)}[sys.argv[1]])' "$1")
	echo "$(cat "$DIR/time") $rows"
}

printf '%-11s %8s %8s %9s   %s\n' provider rows time peakRSS "baseline (unscaled fixture): rows, time, peak RSS"
for name in $NAMES; do
	set -- $(measure "$name" "$SMALL" "$DIR/small-$name.db"); s_t=$1 s_kb=$2 s_rows=$3
	set -- $(measure "$name" "$BIG" "$DIR/big-$name.db"); b_t=$1 b_kb=$2 b_rows=$3
	awk -v n="$name" -v r="$b_rows" -v t="$b_t" -v kb="$b_kb" -v sr="$s_rows" -v st="$s_t" \
		-v skb="$s_kb" 'BEGIN { printf "%-11s %8d %7.2fs %7.1fMB   %d rows, %.2fs, %.1fMB\n",
		n, r, t, kb / 1024, sr, st, skb / 1024 }'
done
