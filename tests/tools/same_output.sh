#!/usr/bin/env bash
# same_output.sh — every output planner prints, from a base commit's binary
# and from this tree's, compared byte for byte (issue 24: a refactor keeps
# every output the same).
#
#   tests/tools/same_output.sh [BASE_REV]        build BASE_REV (default HEAD)
#   tests/tools/same_output.sh --base-bin PATH   compare against a built binary
#   KEEP=DIR tests/tools/same_output.sh ...      keep both output trees in DIR
#
# What it pins, so the two runs can differ only by the code:
#   * the prices: one database made once from the bundled snapshot by the
#     base binary, copied fresh for every command of either binary;
#   * the month: --month 2026-03 for schedule and fleet;
#   * the clock: SOURCE_DATE_EPOCH for the report's "report written" line,
#     TZ=UTC, LC_ALL=C, HOME and XDG_DATA_HOME in a temporary directory;
#   * the inputs: every job spec under jobs/ and tests/ (malformed ones
#     too: their messages and exit codes are outputs), and a fixed list of
#     fit, offers, gpus and models questions.
# Each command's stdout, stderr and exit status are kept, plus any file it
# writes (-o). Exit 0 when every output is byte-identical, 1 with a diff
# of each one that is not, 2 on a usage or build problem.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD

base_rev=HEAD base_bin=
while [ $# -gt 0 ]; do
	case $1 in
	--base-bin) base_bin=$(realpath "$2"); shift 2 ;;
	-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) base_rev=$1; shift ;;
	esac
done

work=$(mktemp -d)
cleanup() {
	if [ -n "${wt:-}" ]; then git worktree remove --force "$wt" >/dev/null 2>&1 || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$base_bin" ]; then
	wt=$work/base-tree
	git worktree add --detach --quiet "$wt" "$base_rev" || exit 2
	make -s -C "$wt" BUILD="$work/base-build" "$work/base-build/planner" >"$work/base-make.log" 2>&1 ||
		{ cat "$work/base-make.log"; exit 2; }
	base_bin=$work/base-build/planner
fi
make -s build/planner >"$work/new-make.log" 2>&1 || { cat "$work/new-make.log"; exit 2; }
new_bin=$top/build/planner

export TZ=UTC LC_ALL=C SOURCE_DATE_EPOCH=1772323200 # 2026-03-01T00:00:00Z
export HOME=$work/home XDG_DATA_HOME=$work/home/data
mkdir -p "$HOME"
unset PLANNER_DB
"$base_bin" offers --db "$work/prices.db" --format json >/dev/null 2>&1 || true

specs=$(find jobs tests -name '*.yaml' -not -path '*/build*' | LC_ALL=C sort)
month=(--month 2026-03)

# One command, run by one binary: out/NAME.{out,err,rc} and any -o file.
run_one() {
	local bin=$1 dir=$2 name=$3
	shift 3
	local db=$work/run.db
	cp "$work/prices.db" "$db"
	rm -f "$work/o.file"
	local rc=0
	(cd "$top" && "$bin" "$@" --db "$db") >"$dir/$name.out" 2>"$dir/$name.err" || rc=$?
	echo "$rc" >"$dir/$name.rc"
	if [ -f "$work/o.file" ]; then mv "$work/o.file" "$dir/$name.file"; fi
	# Paths of this run's temporary files are not outputs.
	sed -i "s#$work#WORK#g" "$dir/$name".* 2>/dev/null || true
}

run_all() {
	local bin=$1 dir=$2 n=0
	mkdir -p "$dir"
	for s in $specs; do
		local k=${s//\//_}
		run_one "$bin" "$dir" "$k.compare" compare "$s"
		run_one "$bin" "$dir" "$k.compare-json" compare "$s" --format json
		run_one "$bin" "$dir" "$k.compare-csv" compare "$s" --format csv
		run_one "$bin" "$dir" "$k.breakeven" breakeven "$s"
		run_one "$bin" "$dir" "$k.report" report "$s" "${month[@]}" -o "$work/o.file"
		for f in table json csv ics slurm k8s skypilot dstack; do
			run_one "$bin" "$dir" "$k.schedule-$f" schedule "$s" "${month[@]}" --format "$f" \
				--allow-unplaced
		done
		run_one "$bin" "$dir" "$k.schedule-fleet" schedule "$s" "${month[@]}" --fleet --format json \
			--allow-unplaced
		run_one "$bin" "$dir" "$k.fleet" fleet "$s" "${month[@]}"
		run_one "$bin" "$dir" "$k.fleet-json" fleet "$s" "${month[@]}" --format json
		run_one "$bin" "$dir" "$k.diff-power" diff "$s" --set electricity_per_kwh=0.5
		run_one "$bin" "$dir" "$k.diff-power-json" diff "$s" --set electricity_per_kwh=0.5 --format json
		n=$((n + 18))
	done
	run_one "$bin" "$dir" diff-specs diff jobs/monthly.yaml jobs/eu-team.yaml
	run_one "$bin" "$dir" diff-specs-json diff jobs/monthly.yaml jobs/eu-team.yaml --format json
	local i=0
	while IFS= read -r q; do
		[ -n "$q" ] || continue
		# shellcheck disable=SC2086 # each line is a command's words
		run_one "$bin" "$dir" "q$i" $q
		i=$((i + 1))
	done <<'EOF'
fit llama-3.1-8b
fit llama-3.1-8b --format json
fit llama-3.1-70b --precision q4_k_m
fit llama-3.1-70b --precision fp8 --format json
fit deepseek-v3 --precision fp8
fit qwen2.5-32b --precision q4_k_m --gpu 3060 --gpus 1
fit qwen2.5-7b --batch max --gpu 4090 --format json
fit llama-3.1-8b --task finetune-lora --format json
fit llama-3.1-70b --task finetune-qlora --precision q4_k_m
fit mixtral-8x7b --precision fp8 --batch max --format json
fit tests/fixtures/configs/qwen2.5-0.5b
offers
offers --format json
offers --api
offers --api --format json
gpus
gpus --format json
models
models --format json
EOF
	echo $((n + 2 + i))
}

base_n=$(run_all "$base_bin" "$work/base")
new_n=$(run_all "$new_bin" "$work/new")
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp -r "$work/base" "$work/new" "$KEEP"/
fi
if diff -r "$work/base" "$work/new" >"$work/diff" 2>&1; then
	echo "same: $new_n commands, $(find "$work/new" -type f | wc -l) files byte-identical" \
		"(base $(basename "$base_bin") of ${base_rev}, specs: $(echo "$specs" | wc -l))"
	exit 0
fi
echo "different: $(grep -c '^diff\|^Only' "$work/diff") of $new_n commands' outputs (base $base_n)"
head -c 20000 "$work/diff"
exit 1
