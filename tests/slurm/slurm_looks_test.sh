#!/usr/bin/env bash
# Issue 41: a precision config's looks spread over a job array, on a real one-node Slurm. The
# chain `pmoe-sweep slurm --submit` starts (each look's pairs over 3 shards, a decide job after
# each look that submits the next) must end in a file equal to a one-machine run. Then again with
# faults: a task of the first look cancelled before it starts (the decide job does not retry a
# cancel and stops), `missing --resubmit` resubmits it; later a decide job cancelled while it
# waits for its look (the chain stops), `missing --resubmit` submits the decide job again. The
# file must still equal the one-machine run. Last, a task that fails once (exit 3) is retried by
# the decide job with more memory and time, and every array keeps the chain's --throttle.
# Usage: slurm_looks_test.sh SOURCE_DIR BUILD_DIR. Needs root and the Slurm packages.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
# shellcheck source=slurm_cluster.sh
source "$src/tests/slurm/slurm_cluster.sh"
begin_slurm_test slurm_looks
cd "$work/project"
sweep=$build/sweeps/pmoe-sweep

# 3 looks (60, 134, 300 trials): the target is within 0.6 of 0.2 at the last (about 4 s on 2 cores).
cat > look.ini <<'INI'
name = look
seed = 27
N_test = 300
[data]
model = pattern
[model]
m = 20
epochs = 0
max_steps = 20000
[grid]
data.n = 8
model.l = 2,4,8
model.kind = separate,cnn
N = 12..192 x2
[precision]
target = ratio_exponent
over = n/l
reading = mean_accuracy
threshold = 0.2
half_width = 0.6
budget = 300
start = 3
looks = 3
bootstrap = 200
INI

# compare A B: the same /cells and /trials (timings aside) and the same looks.
compare() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
timing = {"data_ms", "train_ms", "eval_ms", "wall_ms"}
with h5py.File(sys.argv[1]) as a, h5py.File(sys.argv[2]) as b:
    for group in ("cells", "trials"):
        assert set(a[group]) == set(b[group]), group
        for name in a[group]:
            if name in timing: continue
            x, y = a[group][name][:], b[group][name][:]
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f"/{group}/{name} differs"
    assert a.attrs["precision_looks"] == b.attrs["precision_looks"], "the looks differ"
    print(f"{sys.argv[1]} = {sys.argv[2]}: {len(a['trials/trial'])} trials, all but timings")
PY
}

# wait_idle SECONDS: until the queue is empty (this cluster runs only this test's jobs).
wait_idle() {
  local waited=0
  while [ -n "$(squeue -h 2>/dev/null)" ]; do
    [ "$waited" -lt $(($1 * 5)) ] || fail "jobs still queued after $1 s: $(squeue)"
    sleep 0.2
    waited=$((waited + 1))
  done
}

# state OUT: what the chain's decide job last recorded.
state() { head -n 1 "results/$1.slurm/logs/merge.state" 2>/dev/null || true; }

"$sweep" run look.ini --out results/single.h5 --threads 2 > "$work/single.txt" 2>&1 ||
  fail "the one-machine run failed: $(cat "$work/single.txt")"
looks=$(grep -c '^look ' "$work/single.txt")
[ "$looks" -ge 2 ] || fail "the one-machine run took $looks looks; the test needs 2 or more"

# 1. The clean chain.
"$sweep" slurm look.ini --shards 3 --cpus 1 --pilot 0 --out results/clean.h5 --submit |
  tee "$work/clean.txt"
grep -q "and decide job [0-9]* after it" "$work/clean.txt" || fail "no decide job submitted"
grep -q "largest share of a look (56 trials; 3 looks" "$work/clean.txt" ||
  fail "the per-shard estimate is not that of the looks' shares"
wait_idle 180
[ "$(state clean)" = merged ] || fail "the chain ended with '$(state clean)': $(cat results/clean.slurm/logs/*merge*.out)"
decides=$(ls results/clean.slurm/logs/pmoe-look-merge-*.out | wc -l)
[ "$decides" -eq "$looks" ] || fail "$decides decide jobs for $looks looks"
compare results/clean.h5 results/single.h5 || fail "the chain's file differs from one machine"
"$sweep" missing look.ini --shards 3 --out results/clean.h5 || fail "missing: the chain is not done"

# 2. Faults. A job holding every CPU keeps the first array pending: its task 3 is cancelled.
blocker=$(sbatch --parsable -c "$(nproc)" -o /dev/null --wrap "sleep 600")
for _ in $(seq 100); do
  [ "$(squeue -h -j "$blocker" -o %T)" = RUNNING ] && break
  sleep 0.2
done
"$sweep" slurm look.ini --shards 3 --cpus 1 --pilot 0 --out results/kill.h5 --submit |
  tee "$work/kill.txt"
array=$(sed -n 's/^submitted job array \([0-9]*\) .*/\1/p' "$work/kill.txt")
scancel "${array}_3"
scancel "$blocker"
wait_idle 120
[ "$(state kill)" = shards-missing ] || fail "the first decide job recorded '$(state kill)'"
[ ! -e results/kill.h5 ] || fail "a look was merged without shard 3"
if "$sweep" missing look.ini --shards 3 --out results/kill.h5 > "$work/missing1.txt"; then
  fail "missing exited 0 with shard 3 cancelled"
fi
cat "$work/missing1.txt"
grep -q "^shard 3/3 .*: 0 of [1-9][0-9]* trials of the current look" "$work/missing1.txt" ||
  fail "missing does not name shard 3's lacking trials"
"$sweep" missing look.ini --shards 3 --out results/kill.h5 --resubmit || true
# A decide job waiting for its look's array is cancelled: the chain stops there.
cancelled=""
for _ in $(seq 600); do
  pending=$(squeue -h -t PD -n pmoe-look-merge -o %i | head -n 1)
  if [ -n "$pending" ] && [ -e results/kill.h5 ]; then  # past the first look
    scancel "$pending" && cancelled=$pending && break
  fi
  sleep 0.1
done
[ -n "$cancelled" ] || fail "no decide job of a later look was seen waiting"
echo "+ cancelled the decide job $cancelled"
wait_idle 120
[ "$(state kill)" != merged ] || fail "the chain ended although its decide job was cancelled"
"$sweep" watch look.ini --shards 3 --out results/kill.h5 || true
if "$sweep" missing look.ini --shards 3 --out results/kill.h5; then
  fail "missing exited 0 with the chain stopped"
fi
"$sweep" missing look.ini --shards 3 --out results/kill.h5 --resubmit || true
wait_idle 180
[ "$(state kill)" = merged ] || fail "the resumed chain ended with '$(state kill)'"
compare results/kill.h5 results/single.h5 || fail "the killed chain's file differs from one machine"
"$sweep" missing look.ini --shards 3 --out results/kill.h5 || fail "missing: the chain is not done"

# 3. Retry and throttle inside the chain: task 2 of the first look fails (exit 3: its threads
# cannot start under a 30 MB address-space limit, once); the decide job resubmits it with more
# memory and time and a decide job after it; every array of the chain keeps --throttle 2.
marker=$work/failed-once
"$sweep" slurm look.ini --shards 3 --cpus 1 --pilot 0 --out results/retry.h5 --throttle 2 \
  --setup 'if [ "${SLURM_ARRAY_TASK_ID:-}" = 2 ] && mkdir '"$marker"' 2>/dev/null; then ulimit -v 30000; fi' \
  --submit > "$work/retry.txt"
wait_idle 180
[ -d "$marker" ] || fail "task 2 never ran under the limit"
[ "$(state retry)" = merged ] || fail "the chain with a failed task ended with '$(state retry)'"
decide_logs=$(cat results/retry.slurm/logs/pmoe-look-merge-*.out)
grep -q "^retry 1 of 2: " <<< "$decide_logs" || fail "no retry in the decide jobs' logs: $decide_logs"
grep -q -- "--array=2%2 .*--mem=[0-9]*M --time=" <<< "$decide_logs" ||
  fail "the retry was not shard 2 alone, throttled, with more memory and time: $decide_logs"
grep -q -- "--array=1-3%2 " <<< "$decide_logs" || fail "a later look's array lost the throttle"
compare results/retry.h5 results/single.h5 || fail "the retried chain's file differs from one machine"
echo "slurm looks test: passed in $(($(date +%s) - started)) s"
