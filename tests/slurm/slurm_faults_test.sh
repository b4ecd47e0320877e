#!/usr/bin/env bash
# Issue 44 on a real one-node Slurm whose MaxArraySize is 3 (arrays of at most 2 tasks here):
#  A. 5 shards in 3 chunks with --throttle 1: never more than one task of the sweep runs at once,
#     also when the merge job resubmits the two shards whose first attempt failed (one in each of
#     two chunks); a --setup line reading an unset variable runs (before `set -u`); the first
#     merge job, which resubmitted, ends COMPLETED, and the last one merges everything.
#  B. a task exiting 4 (the node lacks the build's instruction set) is not retried: its log and
#     the merge job's say what to do instead.
#  C. `slurm --submit` with files of another build is refused before anything is submitted.
# Usage: slurm_faults_test.sh SOURCE_DIR BUILD_DIR. Exit 77 (skipped, and says why) where Slurm
# cannot run here.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
# shellcheck source=slurm_cluster.sh
source "$src/tests/slurm/slurm_cluster.sh"
export SLURM_EXTRA_CONF="MaxArraySize=3"
begin_slurm_test slurm_faults
cd "$work/project"
tool=$(realpath "$build/sweeps/pmoe-sweep")  # as the scripts name it (/proc/self/exe)

tiny() {
  printf 'name = %s\nseed = 3\ntrials = 2\nN_test = 100\n[model]\nepochs = 5\nm = 8\n' "$1"
  printf '[grid]\nmodel.kind = separate,cnn\nN = 40,60,80\n'
}

# use_wrapper SCRIPT WRAPPER: the array script runs WRAPPER instead of pmoe-sweep for its shard.
use_wrapper() {
  /usr/bin/python3 - "$1" "$tool" "$2" <<'PY'
import sys
path, tool, wrapper = sys.argv[1:]
text = open(path).read()
line = next(l for l in text.splitlines() if l.startswith(tool + " run ") or
            l.startswith("'" + tool + "' run "))
open(path, "w").write(text.replace(line, line.replace(tool, wrapper, 1), 1))
PY
}

# most_running NAME: polls until no job named NAME or NAME-merge is queued (at most 180 s);
# prints the most array tasks named NAME seen running at once.
most_running() {
  local most=0 n waited=0
  while [ -n "$(squeue -h -n "$1,$1-merge" 2>/dev/null)" ]; do
    n=$(squeue -h -r -n "$1" -t RUNNING 2>/dev/null | wc -l)
    [ "$n" -le "$most" ] || most=$n
    [ "$waited" -lt 900 ] || fail "$1 still queued after 180 s: $(squeue -r)"
    sleep 0.2
    waited=$((waited + 1))
  done
  echo "$most"
}

# --- A. one throttle over chunks and retries; --setup before set -u -------------------------
tiny thr > thr.ini
cat > fail-once.sh <<SH
#!/bin/bash
# Shards 2 and 4 (chunks 1 and 2) fail once after starting, as a node failure would.
shard=\$(printf '%s\n' "\$@" | sed -n 's|^\([0-9]*\)/5\$|\1|p')
case \$shard in 2|4) mkdir "$work/once-\$shard" 2>/dev/null && exit 1 ;; esac
exec "$tool" "\$@"
SH
chmod +x fail-once.sh
"$tool" slurm thr.ini --shards 5 --cpus 1 --pilot 0 --time 10 --throttle 1 \
  --setup 'echo "site setup: ${PMOE_SITE_UNSET_VARIABLE}"; sleep 2' | tee "$work/thr.txt"
grep -q "chunks of 2 tasks (the cluster's MaxArraySize is 3)" "$work/thr.txt" ||
  fail "the array was not chunked by the cluster's MaxArraySize"
use_wrapper results/thr.slurm/array.sbatch "$work/project/fail-once.sh"
submit=$(sed -n 's/^  \(jid1=.*\)$/\1/p' "$work/thr.txt")
[ -n "$submit" ] || fail "no submit command printed"
eval "$submit" > "$work/thr-merge.txt"
merge1=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/thr-merge.txt")
most=$(most_running pmoe-thr)
echo "+ A: at most $most task(s) of the sweep ran at once (throttle 1, 3 chunks, 2 retries)"
[ "$most" -le 1 ] || fail "--throttle 1 but $most tasks ran at once"
logs=results/thr.slurm/logs
grep -q "retry 1 of 2: resubmitted shards 2,4" $logs/pmoe-thr-merge-"$merge1".out ||
  fail "the merge job did not resubmit shards 2 and 4: $(cat $logs/pmoe-thr-merge-"$merge1".out)"
grep -q "JobId=$merge1 .*JobState=COMPLETED" "$SLURM_DIR/log/jobcomp.txt" ||
  fail "the merge job that resubmitted is not COMPLETED: $(grep "JobId=$merge1 " "$SLURM_DIR/log/jobcomp.txt")"
grep -q "site setup: " $logs/pmoe-thr-*_1.out || fail "the --setup line did not run"
for i in 1 2 3 4 5; do
  [ "$(cat $logs/shard-$i.state)" = "exit 0" ] || fail "shard $i: $(cat $logs/shard-$i.state)"
done
[ "$(cat $logs/merge.state)" = merged ] || fail "the last merge job recorded $(cat $logs/merge.state)"
"$tool" status results/thr.h5 > /dev/null || fail "results/thr.h5 is not complete"
"$tool" watch thr.ini --shards 5 > "$work/thr-watch.txt" || fail "watch failed: $(cat "$work/thr-watch.txt")"

# --- B. exit 4: not retried, with advice -----------------------------------------------------
tiny isa > isa.ini
cat > wrong-cpu.sh <<SH
#!/bin/bash
# Shard 2's node lacks the build's instruction set: pmoe-sweep's exit 4.
printf '%s\n' "\$@" | grep -qx 2/2 && { echo "this build was compiled for x and uses y" >&2; exit 4; }
exec "$tool" "\$@"
SH
chmod +x wrong-cpu.sh
"$tool" slurm isa.ini --shards 2 --cpus 1 --pilot 0 --time 10 > "$work/isa.txt"
use_wrapper results/isa.slurm/array.sbatch "$work/project/wrong-cpu.sh"
eval "$(sed -n 's/^  \(jid=.*\)$/\1/p' "$work/isa.txt")" > "$work/isa-merge.txt"
merge=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/isa-merge.txt")
most_running pmoe-isa > /dev/null
logs=results/isa.slurm/logs
[ "$(cat $logs/shard-2.state)" = wrong-cpu ] || fail "shard 2 recorded $(cat $logs/shard-2.state)"
grep -q -- "--constraint" $logs/pmoe-isa-*_2.out || fail "the task's log gives no advice"
grep -q "shard 2: not retried (its task ended: wrong-cpu): .*--constraint" \
  $logs/pmoe-isa-merge-"$merge".out || fail "the merge job retried or said nothing: $(cat $logs/pmoe-isa-merge-"$merge".out)"
[ "$(grep -c ' Name=pmoe-isa JobState' "$SLURM_DIR/log/jobcomp.txt")" = 2 ] ||
  fail "shard 2 was resubmitted: $(grep ' Name=pmoe-isa' "$SLURM_DIR/log/jobcomp.txt")"
if "$tool" watch isa.ini --shards 2 > "$work/isa-watch.txt"; then
  fail "watch exited 0 with shard 2 failed: $(cat "$work/isa-watch.txt")"
fi

# --- C. another build's files: refused before anything is submitted --------------------------
tiny bld > bld.ini
"$tool" run bld.ini --shard 2/2 > /dev/null 2>&1 || fail "the shard run failed"
/usr/bin/python3 -c 'import h5py, sys
with h5py.File(sys.argv[1], "r+") as f: f.attrs["numerics_build"] = "compiler=other; target=other"' \
  results/bld.shards/shard-2-of-2.h5
if "$tool" slurm bld.ini --shards 2 --cpus 1 --pilot 0 --submit > "$work/bld.txt" 2>&1; then
  fail "slurm --submit accepted another build's files: $(cat "$work/bld.txt")"
fi
grep -q "another build" "$work/bld.txt" || fail "the refusal does not name the build: $(cat "$work/bld.txt")"
[ -z "$(squeue -h -n pmoe-bld,pmoe-bld-merge)" ] || fail "jobs were submitted: $(squeue)"
[ ! -e results/bld.slurm/array.sbatch ] || fail "the scripts were written"

echo "slurm faults test passed in $(( $(date +%s) - started )) s (daemons up before that)"
