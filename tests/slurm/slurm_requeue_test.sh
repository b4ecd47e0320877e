#!/usr/bin/env bash
# Issue 28 on a real one-node Slurm: the array's LAST task reaches its time limit (Slurm's USR1,
# sent here by scancel --signal=USR1 --batch, as --signal=B:USR1@90 does before the limit) while
# another task is cancelled. The last task must requeue only itself: the cancelled task stays
# cancelled (its script never runs again), the finished task is not rerun, the merge job does
# not retry the cancelled shard, and after `missing`'s command finishes it the merge equals a
# single-process run. (The bug: `scontrol requeue $SLURM_JOB_ID` in the last task named the
# whole array, which resurrected cancelled tasks and reran finished ones.)
# Usage: slurm_requeue_test.sh SOURCE_DIR BUILD_DIR. Exit 77 (skipped, and says why) where Slurm
# cannot run here.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
# shellcheck source=slurm_cluster.sh
source "$src/tests/slurm/slurm_cluster.sh"
begin_slurm_test slurm_requeue
cd "$work/project"
tool=$build/sweeps/pmoe-sweep

# Sized so that a shard takes seconds, not a fraction of one: the signals must find it running.
cat > req.ini <<'INI'
name = req
seed = 11
trials = 24
N_test = 1000
[model]
epochs = 40
early_stop = false
m = 20
[grid]
model.kind = separate,cnn
model.l = 2:4
N = 300,600
INI
"$tool" run req.ini --out results/single.h5 > /dev/null 2>&1 || fail "the single-process run failed"

# starts FILE: how many times a task's log says pmoe-sweep started its shard.
starts() { grep -c "trials in shard" "$1" 2>/dev/null || true; }

"$tool" slurm req.ini --shards 3 --cpus 1 --pilot 0 --submit | tee "$work/submit.txt"
array=$(sed -n 's/^submitted job array \([0-9]*\) .*merge job \([0-9]*\) after it$/\1/p' "$work/submit.txt")
merge=$(sed -n 's/^submitted job array \([0-9]*\) .*merge job \([0-9]*\) after it$/\2/p' "$work/submit.txt")
[ -n "$array" ] && [ -n "$merge" ] || fail "no job ids in the submit output"
logs=results/req.slurm/logs
journal() { echo "results/req.shards/shard-$1-of-3.h5.journal"; }

# Task 2 is cancelled once it has written rows; then the last task (3) gets the time-limit
# signal once it has written rows.
wait_rows() {
  for _ in $(seq 600); do
    [ -f "$(journal "$1")" ] && [ "$(stat -c %s "$(journal "$1")")" -gt 3000 ] && return 0
    sleep 0.05
  done
  fail "shard $1 never wrote rows: $(squeue -r 2>&1)"
}
wait_rows 2
scancel "${array}_2"
wait_rows 3
[ "$(squeue -h -j "${array}_3" -o %T)" = RUNNING ] || fail "task 3 is not running: $(squeue -r)"
scancel --signal=USR1 --batch "${array}_3"
wait_for_job "$array" 120
wait_for_job "$merge" 60

log1=$(ls $logs/pmoe-req-"$array"_1.out)
log2=$(ls $logs/pmoe-req-"$array"_2.out)
log3=$(ls $logs/pmoe-req-"$array"_3.out)
echo "+ task starts: 1: $(starts "$log1"), 2: $(starts "$log2"), 3: $(starts "$log3")"
grep -q "shard 3/3 saved before the time limit; requeueing it" "$log3" ||
  fail "the last task was not saved and requeued: $(cat "$log3")"
[ "$(starts "$log3")" = 2 ] || fail "the last task started $(starts "$log3") times (expected 2)"
grep -Eq "trials in shard 3/3, [1-9][0-9]* already done" "$log3" ||
  fail "the requeued last task did not resume from what it saved: $(cat "$log3")"
[ "$(starts "$log1")" = 1 ] || fail "finished task 1 was rerun: $(cat "$log1")"
[ "$(starts "$log2")" = 1 ] || fail "cancelled task 2 was resurrected: $(cat "$log2")"
[ "$(cat $logs/shard-2.state)" = cancelled ] || fail "task 2 did not record its cancel"
"$tool" status "results/req.shards/shard-2-of-3.h5" > /dev/null 2>&1 &&
  fail "the cancelled shard 2 is complete: it ran again"
# The merge job found shard 2 incomplete, did not retry it (cancelled) and merged nothing.
merge_log=$(ls $logs/pmoe-req-merge-"$merge".out)
grep -q "shard 2: not retried (its task ended: cancelled)" "$merge_log" ||
  fail "the merge job's log does not say shard 2 was not retried: $(cat "$merge_log")"
[ ! -e results/req.h5 ] || fail "results/req.h5 was written from an incomplete set"

# Finishing: the command `missing` prints, run as printed.
"$tool" missing req.ini --shards 3 > "$work/missing.txt" && fail "missing exited 0"
finish=$(grep '^  jid=$(sbatch --parsable --array=2 ' "$work/missing.txt" | sed 's/^  //')
[ -n "$finish" ] || fail "missing printed no command for shard 2: $(cat "$work/missing.txt")"
eval "$finish" > "$work/finish.txt"
merge2=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/finish.txt")
wait_for_job "$jid" 120
wait_for_job "$merge2" 60
grep -q "JobId=$merge2 .*JobState=COMPLETED" "$SLURM_DIR/log/jobcomp.txt" ||
  fail "the second merge job did not complete: $(cat $logs/*"$merge2".out)"
/usr/bin/python3 - results/req.h5 results/single.h5 <<'PY' || fail "the merged file differs from one run"
import sys, h5py, numpy as np
timing = {"data_ms", "train_ms", "eval_ms", "wall_ms"}
with h5py.File(sys.argv[1]) as a, h5py.File(sys.argv[2]) as b:
    for group in ("cells", "trials"):
        assert set(a[group]) == set(b[group]), group
        for name in a[group]:
            if name in timing: continue
            x, y = a[group][name][:], b[group][name][:]
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f"/{group}/{name} differs"
    print(f"merged = single: {len(a['trials/trial'])} trials, all but timings")
PY
echo "slurm requeue test passed in $(( $(date +%s) - started )) s (daemons up before that)"
