#!/usr/bin/env bash
# The README's cluster section, run literally on a real one-node Slurm: its commands submit the
# demo sweep as a 4-task job array with its merge job; one task is cancelled before it starts;
# `pmoe-sweep missing` names it and prints the command that finishes it, which is run as
# printed; the merged file must equal a single-machine run in every recorded field.
# Usage: slurm_sweep_test.sh SOURCE_DIR BUILD_DIR. Needs root and the Slurm packages
# (scripts/install-deps.sh); fails loudly when the daemons cannot start.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
# shellcheck source=slurm_cluster.sh
source "$src/tests/slurm/slurm_cluster.sh"
begin_slurm_test slurm_sweep

# The cluster guide's walk-through (docs/guide/clusters.md): its ```sh blocks, one file each.
awk -v dir="$work" '
  /^## Running on a Slurm cluster/ { inside = 1; next }
  inside && /^## / { inside = 0 }
  inside && /^```sh$/ { n++; file = dir "/readme-" n ".sh"; printf "" > file; block = 1; next }
  inside && block && /^```$/ { block = 0; next }
  inside && block { print > file }
' "$src/docs/guide/clusters.md"
blocks=$(ls "$work"/readme-*.sh 2>/dev/null | wc -l)
[ "$blocks" -eq 4 ] || fail "the cluster guide's walk-through has $blocks sh blocks; this test runs 4"
# readme N: runs block N in the project directory; prints its output; returns its status.
readme() {
  echo "+ README block $1:"; sed 's/^/+   /' "$work/readme-$1.sh"
  (cd "$work/project" && bash -eo pipefail "$work/readme-$1.sh") 2>&1 | tee "$work/out-$1.txt"
  return "${PIPESTATUS[0]}"
}

# job_id 1|2 FILE: the array's (1) or the merge job's (2) id in `slurm --submit`'s output.
job_id() {
  sed -n "s/^submitted job array \([0-9]*\) .*merge job \([0-9]*\) after it\$/\\$1/p" "$2"
}

# compare A B: the two result files hold the same /cells and /trials (timings aside).
compare() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
timing = {"data_ms", "train_ms", "eval_ms", "wall_ms"}
with h5py.File(sys.argv[1]) as a, h5py.File(sys.argv[2]) as b:
    assert a.attrs["shard"] in ("", b""), a.attrs["shard"]
    for group in ("cells", "trials"):
        assert set(a[group]) == set(b[group]), group
        for name in a[group]:
            if name in timing: continue
            x, y = a[group][name][:], b[group][name][:]
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f"/{group}/{name} differs"
    print(f"{sys.argv[1]} = {sys.argv[2]}: {len(a['trials/trial'])} trials, all but timings")
PY
}

cd "$work/project"
ln -s "$src/sweeps" sweeps
ln -s "$build" build
build/sweeps/pmoe-sweep run sweeps/configs/demo.ini --out results/single.h5 > /dev/null 2>&1 ||
  fail "the single-machine run failed"

# A job holding every CPU keeps the array pending, so that one task can be cancelled for sure.
blocker=$(sbatch --parsable -c "$(nproc)" -o /dev/null --wrap "sleep 600")
for _ in $(seq 100); do
  [ "$(squeue -h -j "$blocker" -o %T)" = RUNNING ] && break
  sleep 0.2
done
readme 1 || fail "README block 1 (submit) failed"
array=$(job_id 1 "$work/out-1.txt")
merge=$(job_id 2 "$work/out-1.txt")
[ -n "$array" ] && [ -n "$merge" ] || fail "no job ids in the submit output"
readme 2 || fail "README block 2 (squeue) failed"
scancel "${array}_4"
scancel "$blocker"
wait_for_job "$array" 60
wait_for_job "$merge" 60
# The merge job found shard 4 absent, merged nothing and logged how to finish.
merge_log=$(ls results/demo.slurm/logs/pmoe-demo-merge-"$merge".out)
grep -q "shard 4/4 results/demo.shards/shard-4-of-4.h5: absent" "$merge_log" ||
  fail "the merge job's log does not name the cancelled shard: $(cat "$merge_log")"
[ ! -e results/demo.h5 ] || fail "results/demo.h5 was written from an incomplete set"

if readme 3; then fail "missing exited 0 with shard 4 cancelled"; fi
finish=$(grep '^  jid=$(sbatch --parsable --array=4 ' "$work/out-3.txt" | sed 's/^  //')
[ -n "$finish" ] || fail "missing printed no command resubmitting shard 4"
echo "+ the command missing printed: $finish"
eval "$finish" > "$work/finish.txt"  # not in a pipe: $jid stays set here
cat "$work/finish.txt"
merge2=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/finish.txt")
wait_for_job "$jid" 60
wait_for_job "$merge2" 60
grep -q "JobId=$merge2 .*JobState=COMPLETED" "$SLURM_DIR/log/jobcomp.txt" ||
  fail "the second merge job did not complete: $(cat results/demo.slurm/logs/*"$merge2".out)"
readme 3 || fail "missing still finds something missing"
readme 4 || fail "README block 4 (status, analyze) failed"

compare results/demo.h5 results/single.h5 ||
  fail "the merged file differs from the single-machine run"

# Phase 2, the time limit: a task told USR1 (what --signal=B:USR1@90 sends before the limit)
# saves, is requeued by its script, comes back (after the private config's 10 s cred_expire)
# and finishes its shard from what it saved; the merge equals a single-machine run.
cat > long.ini <<'INI'
name = long
seed = 7
trials = 60
N_test = 300
[model]
epochs = 20
m = 20
[grid]
model.kind = separate,cnn
model.l = 2:4
N = 60,120
INI
build/sweeps/pmoe-sweep run long.ini --out results/long-single.h5 > /dev/null 2>&1 ||
  fail "the single-machine run of long.ini failed"
build/sweeps/pmoe-sweep slurm long.ini --shards 2 --cpus 1 --pilot 0 --submit | tee "$work/long.txt"
array=$(job_id 1 "$work/long.txt")
merge=$(job_id 2 "$work/long.txt")
journal=results/long.shards/shard-1-of-2.h5.journal
for _ in $(seq 400); do
  [ -f "$journal" ] && [ "$(stat -c %s "$journal")" -gt 3000 ] && break
  sleep 0.05
done
[ -f "$journal" ] || fail "shard 1 of long.ini never started writing"
scancel --signal=USR1 --batch "${array}_1"
wait_for_job "$array" 90
wait_for_job "$merge" 60
task_log=$(ls results/long.slurm/logs/pmoe-long-"$array"_1.out)
grep -q "shard 1/2 saved before the time limit; requeueing it" "$task_log" ||
  fail "task 1 was not saved and requeued: $(cat "$task_log")"
grep -Eq "shard 1/2, [1-9][0-9]* already done" "$task_log" ||
  fail "the requeued task did not resume from what it saved: $(cat "$task_log")"
grep -q "JobId=$merge .*JobState=COMPLETED" "$SLURM_DIR/log/jobcomp.txt" ||
  fail "the merge job after the requeue did not complete"
compare results/long.h5 results/long-single.h5 || fail "the requeued sweep differs from one run"

echo "slurm sweep test passed in $(( $(date +%s) - started )) s (daemons up before that)"
