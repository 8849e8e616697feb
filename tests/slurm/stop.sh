#!/usr/bin/env bash
# stop.sh DIR — stops what tests/slurm/start.sh DIR started: slurmd,
# slurmctld and munged, by the pid files under DIR (waits up to 10 s each,
# then kills). Quiet when nothing is running.
set -uo pipefail

dir=${1:?usage: stop.sh SCRATCH_DIR}
for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
	[ -s "$pidfile" ] || continue
	pid=$(cat "$pidfile")
	if kill "$pid" 2>/dev/null; then
		for _ in $(seq 1 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$pidfile"
done
exit 0
