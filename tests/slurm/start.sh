#!/usr/bin/env bash
# start.sh DIR — a throwaway single-node Slurm for tests (Debian 12's
# slurm-wlm 22.05 and munge; as root; no systemd). Writes slurm.conf,
# gres.conf and a munge key under DIR, starts munged, slurmctld and slurmd
# in the background with their pid, log and state files under DIR, and
# waits (bounded) until the node is idle. Clients find it through
#   export SLURM_CONF=DIR/slurm.conf
# The node advertises GPUs it does not have: slurmd drops a GPU gres.conf
# line without File= ("Removing file-less GPU") and wants each File= to be
# a character device, so each fake GPU is a symlink to /dev/null under
# DIR/dev. Enough for `sbatch --test-only`, which only asks the
# controller when a job would start; nothing ever runs on them.
# Stop it all with tests/slurm/stop.sh DIR.
#
# Beside it, SLURM_TEST_CLOUD_NODES more nodes with the same GPUs, in
# state CLOUD (powered down, resumed by /bin/true, never started): a job
# over several nodes then gets an answer from --test-only too, as the
# controller schedules powered-down cloud nodes as if they were up (Slurm
# power_save.html, "Cloud Support"; checked with 22.05 on 2026-12-02).
#
# Environment: SLURM_TEST_GRES  the node's GPUs, "type:count ..." (default
#                               below: the tour's owned and buyable models)
#              SLURM_TEST_CLOUD_NODES  the cloud nodes (default 3: four
#                               nodes in all, for tests/check_slurm.c's
#                               job over 4 nodes)
#              SLURM_TEST_PORT  slurmctld's port; slurmd uses the next one
#                               (default 6817)
set -euo pipefail

dir=${1:?usage: start.sh SCRATCH_DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chmod go+x "$dir" # munged wants its socket reachable by all
gres_list=${SLURM_TEST_GRES:-"rtx4090:2 rtx5090:2 rtx6000ada:2 h100sxm:8 a100sxm:8"}
port=${SLURM_TEST_PORT:-6817}

for bin in munged mungekey slurmctld slurmd scontrol sinfo; do
	command -v "$bin" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
	command -v "$bin" >/dev/null || { echo "start.sh: $bin not found (apt-get install slurm-wlm munge)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "start.sh: must run as root (slurmd and munged)" >&2; exit 1; }

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/munge-socket" "$dir/log" "$dir/dev"
chmod 700 "$dir/munge"
chmod 755 "$dir/munge-socket"

# munge: own key, socket, pid and seed files, so nothing in /etc or /run
# is needed (munged insists the key is 0600 and owned by its user).
key=$dir/munge/munge.key
[ -s "$key" ] || mungekey --create --keyfile="$key"
chmod 600 "$key"
sock=$dir/munge-socket/munge.socket
munged --force --socket="$sock" --key-file="$key" --pid-file="$dir/munge/munged.pid" \
	--seed-file="$dir/munge/munged.seed" --log-file="$dir/log/munged.log"

node_gres='' gres_conf=''
for g in $gres_list; do
	node_gres+=${node_gres:+,}gpu:$g
	type=${g%%:*} n=${g##*:}
	for ((i = 0; i < n; i++)); do ln -sfn /dev/null "$dir/dev/${type}_$i"; done
	gres_conf+="NodeName=$host Name=gpu Type=$type File=$dir/dev/${type}_[0-$((n - 1))]"$'\n'
done

cloud_conf=''
extra=${SLURM_TEST_CLOUD_NODES:-3}
if [ "$extra" -gt 0 ]; then
	cloud_conf="SuspendProgram=/bin/true
ResumeProgram=/bin/true
SuspendTime=600
NodeName=cloud[1-$extra] CPUs=$cpus Gres=$node_gres State=CLOUD
"
	for g in $gres_list; do
		type=${g%%:*} n=${g##*:}
		gres_conf+="NodeName=cloud[1-$extra] Name=gpu Type=$type Count=$n"$'\n'
	done
fi
cat > "$dir/slurm.conf" <<CONF
# written by tests/slurm/start.sh
ClusterName=plannertest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
GresTypes=gpu
PlugStackConfig=$dir/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=$node_gres State=UNKNOWN
${cloud_conf}PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
printf 'AutoDetect=off\n%s' "$gres_conf" > "$dir/gres.conf"
: > "$dir/plugstack.conf"

export SLURM_CONF=$dir/slurm.conf
# -i: ignore state left by an earlier run in the same DIR.
slurmctld -i
slurmd

# Bounded wait: the controller answers and the node is idle.
for _ in $(seq 1 60); do
	state=$(sinfo -h -N -o %T 2>/dev/null | head -n1 || true)
	if [ "$state" = idle ]; then
		echo "start.sh: slurm up (SLURM_CONF=$SLURM_CONF, node $host, gres $node_gres)"
		exit 0
	fi
	sleep 0.5
done
echo "start.sh: slurm did not come up in 30 s (node state: '${state:-no answer}'); logs:" >&2
tail -n 20 "$dir/log/"*.log >&2 || true
exit 1
