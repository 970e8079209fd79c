#!/usr/bin/env bash
# A one-node SLURM on localhost for the tests: munged, slurmctld and slurmd as plain daemons (no
# systemd, no accounting). Installs the Debian packages when missing (root). Records every PID it
# starts in $SVMFS_SLURM_PIDS; stop_cluster.sh stops exactly those. Idempotent: a running cluster is kept.
#   NODE_CPUS=8 advertises more CPUs than the machine has, so several jobs run side by side.
set -euo pipefail
PIDS=${SVMFS_SLURM_PIDS:-/tmp/svmfs-slurm/pids}
CPUS=${NODE_CPUS:-8}
mkdir -p "$(dirname "$PIDS")"
say() { echo "[slurm-testbed] $*"; }
until_ok() { local tries=$(( $1 * 5 )); shift; for _ in $(seq "$tries"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done; return 1; }
alive() { [ -s "$1" ] && [ "$(ps -o comm= -p "$(cat "$1")" 2>/dev/null)" = "$2" ]; }

need=""
for pkg in munge slurmctld slurmd slurm-client; do dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"; done
if [ -n "$need" ]; then
    say "apt-get install$need"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

host=$(hostname -s)
getent hosts "$host" >/dev/null || echo "127.0.0.1 $host" >> /etc/hosts
install -d -o slurm -g slurm /var/log/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd
install -d -o munge -g munge -m 0755 /run/munge
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
mem=$(slurmd -C | sed -nE '1s/.*RealMemory=([0-9]+).*/\1/p')
# MinJobAge keeps finished jobs visible to squeue (the status command used without accounting);
# DefMemPerCPU stops a job without --mem from taking the whole node.
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=svmfs
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmUser=slurm
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
StateSaveLocation=/var/lib/slurm/slurmctld
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
DefMemPerCPU=500
MinJobAge=3600
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$CPUS RealMemory=$(( mem * 9 / 10 )) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

[ -s /etc/munge/munge.key ] || { mungekey --create --keyfile=/etc/munge/munge.key; chown munge:munge /etc/munge/munge.key; chmod 0600 /etc/munge/munge.key; }
if ! alive /run/munge/munged.pid munged; then
    rm -f /run/munge/munged.pid
    runuser -u munge -- /usr/sbin/munged --force
    until_ok 10 test -s /run/munge/munged.pid
    echo "munged $(cat /run/munge/munged.pid)" >> "$PIDS"
fi
until_ok 10 sh -c 'munge -n | unmunge' || { say "munge does not work"; exit 1; }

for daemon in slurmctld slurmd; do
    if alive "/run/$daemon.pid" "$daemon"; then
        [ "$daemon" = slurmctld ] && { scontrol reconfigure >/dev/null 2>&1 || true; }
    else
        rm -f "/run/$daemon.pid"
        "/usr/sbin/$daemon"
        until_ok 30 test -s "/run/$daemon.pid" || { say "$daemon did not start"; tail "/var/log/slurm/$daemon.log"; exit 1; }
        echo "$daemon $(cat "/run/$daemon.pid")" >> "$PIDS"
    fi
    if [ "$daemon" = slurmctld ]; then
        until_ok 30 sh -c 'scontrol ping | grep -q UP' || { say "slurmctld not up"; tail /var/log/slurm/slurmctld.log; exit 1; }
    fi
done
ready() { sinfo -h -n "$host" -o %t | grep -qE '^(idle|mix|alloc)$'; }
until_ok 20 ready || { scontrol update nodename="$host" state=resume || true; until_ok 30 ready; } || { say "node not ready"; sinfo -R; exit 1; }
say "cluster up: node $host, $CPUS CPUs, partition debug"
