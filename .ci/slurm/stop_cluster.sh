#!/usr/bin/env bash
# Stop the daemons start_cluster.sh started (the PIDs it recorded, newest first); nothing else.
set -uo pipefail
PIDS=${SVMFS_SLURM_PIDS:-/tmp/svmfs-slurm/pids}
[ -s "$PIDS" ] || exit 0
if scontrol ping 2>/dev/null | grep -q UP; then
    jobs=$(squeue -h -o %i 2>/dev/null | xargs)
    [ -n "$jobs" ] && scancel $jobs
fi
tac "$PIDS" | while read -r name pid; do
    [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = "$name" ] || continue  # gone, or the PID was reused
    kill -TERM "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    for f in "/run/$name.pid" /run/munge/munged.pid; do [ "$(cat "$f" 2>/dev/null)" = "$pid" ] && rm -f "$f"; done
    echo "[slurm-testbed] stopped $name ($pid)"
done
rm -f "$PIDS"
