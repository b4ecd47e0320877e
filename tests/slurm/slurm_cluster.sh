#!/usr/bin/env bash
# A real one-node Slurm (22.05, Debian) on 127.0.0.1 with a private config, munge socket, state
# and ports, run by the test that sources this file: start_slurm starts munged, slurmctld and
# slurmd and records their pids; stop_slurm stops exactly those pids. Nothing system-wide is
# started or changed. See ../shared/notes/slurm-local.md for what was measured to work.

# fail MESSAGE: says it loudly, with the daemons' logs, and exits 1.
fail() {
  echo "SLURM TEST FAILED: $*" >&2
  for log in "$SLURM_DIR"/log/*.log; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
  done
  exit 1
}

# skip REASON: where Slurm cannot run here (no packages, not root, no munge key, daemons that do
# not start): says so and exits 77, which ctest counts as skipped (SKIP_RETURN_CODE), not passed.
skip() {
  echo "SLURM TEST SKIPPED: $*"
  for log in "${SLURM_DIR:-/nonexistent}"/log/*.log; do
    [ -f "$log" ] && { echo "--- $log"; tail -n 5 "$log"; }
  done
  exit 77
}

# start_slurm DIR: everything under DIR; exports SLURM_CONF for the client commands.
# SLURM_EXTRA_CONF, when set, is appended to slurm.conf (a test's MaxArraySize=3, say).
start_slurm() {
  SLURM_DIR=$1
  mkdir -p "$SLURM_DIR"/{etc,state,spool,log,run,munge}
  for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$tool" >/dev/null ||
      skip "$tool not found: install slurmctld slurmd slurm-client munge (scripts/install-deps.sh)"
  done
  [ "$(id -u)" -eq 0 ] || skip "the daemons must be started as root (this is uid $(id -u))"
  local host cpus mem port
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)
  port=$((20000 + ($$ % 5000) * 2))  # private ports, away from a system Slurm's 6817/6818

  chown munge:munge "$SLURM_DIR/munge"
  chmod 0755 "$SLURM_DIR/munge"  # munged wants its socket directory open to all
  local key=/etc/munge/munge.key
  [ -f "$key" ] || skip "$key is missing (installing munge creates it)"
  su -s /bin/sh munge -c "munged --socket=$SLURM_DIR/munge/munge.socket --key-file=$key \
      --pid-file=$SLURM_DIR/munge/munged.pid --log-file=$SLURM_DIR/munge/munged.log \
      --seed-file=$SLURM_DIR/munge/munged.seed" ||
    skip "munged did not start: $(cat "$SLURM_DIR/munge/munged.log" 2>/dev/null)"
  MUNGED_PID=$(cat "$SLURM_DIR/munge/munged.pid")

  cat > "$SLURM_DIR/etc/slurm.conf" <<CONF
ClusterName=pmoetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_DIR/munge/munge.socket,cred_expire=10
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/run/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/run/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,sched_interval=2
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_DIR/log/jobcomp.txt
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=2
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
${SLURM_EXTRA_CONF:-}
CONF
  export SLURM_CONF=$SLURM_DIR/etc/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >> "$SLURM_DIR/log/slurmctld.out" 2>&1 &
  SLURMCTLD_PID=$!
  slurmd -D -f "$SLURM_CONF" -N "$host" >> "$SLURM_DIR/log/slurmd.out" 2>&1 &
  SLURMD_PID=$!
  for _ in $(seq 100); do
    if sinfo -h -N -o '%t' 2>/dev/null | grep -q '^idle'; then
      echo "slurm: up (slurmctld $SLURMCTLD_PID, slurmd $SLURMD_PID, munged $MUNGED_PID)"
      return 0
    fi
    kill -0 "$SLURMCTLD_PID" 2>/dev/null || skip "slurmctld exited at start"
    kill -0 "$SLURMD_PID" 2>/dev/null || skip "slurmd exited at start"
    sleep 0.2
  done
  skip "the node did not become idle in 20 s: $(sinfo -N 2>&1)"
}

# begin_slurm_test NAME: the preamble every Slurm test shares: a fresh world-readable work folder
# $build/tests/tmp/NAME.PID with a project/ inside (Slurm's jobs run as root but read it), the
# daemons started under $work/slurm and stopped on exit. Needs $build; sets work, SLURM_DIR and
# started (the seconds the test itself took are counted from here).
begin_slurm_test() {
  work=$build/tests/tmp/$1.$$
  rm -rf "$work"
  mkdir -p "$work/project"
  chmod 0755 "$work" "$work/project"
  SLURM_DIR=$work/slurm
  trap stop_slurm EXIT
  start_slurm "$work/slurm"
  started=$(date +%s)
}

# stop_slurm: TERM to the pids start_slurm recorded, then waits for them (KILL after 10 s).
stop_slurm() {
  local pid
  for pid in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# wait_for_job ID SECONDS: until squeue no longer lists the job (all its array tasks).
wait_for_job() {
  local id=$1 limit=$2 waited=0
  while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
    [ "$waited" -lt $((limit * 5)) ] || fail "job $id still queued after $limit s: $(squeue)"
    sleep 0.2
    waited=$((waited + 1))
  done
}
