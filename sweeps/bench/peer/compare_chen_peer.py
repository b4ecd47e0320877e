#!/usr/bin/python3
"""Chen et al.'s experiment: pmoe-bench's C-switch and C-single cells against the PyTorch peer
(../shared/peer/chen_peer.py, OpenBLAS) in one run on this machine, one thread each, plus the
peer's SGEMM roofline. Prints per cell: our seconds (training + evaluation, median), the peer's
(its seconds_train + seconds_eval, median), the ratio against its target (switch 8x, single 3x),
GFLOP/s on the nominal FLOPs, their fraction of this core's FMA peak (pmoe-bench measures it) and
of single-thread SGEMM 1024^3, and the ceiling: the ratio a program doing the nominal products at
the FMA peak would reach against the peer's time. The peer is only run, never imported.

    /usr/bin/python3 sweeps/bench/peer/compare_chen_peer.py [--repeats 1] [--json]

Set-up (once): apt-get install python3-torch python3-numpy libopenblas0-pthread
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# The package (analysis/python) holds the peer's BLAS check shared by both comparison scripts.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "analysis", "python"))
from pmoe.peer.blas import checked_env_or_exit  # noqa: E402

OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
# cell -> (peer arguments, target ratio)
CELLS = {
    "C-switch": (["--model", "moe", "--activation", "cubic", "--epochs", "501"], 8),
    "C-single": (["--model", "single", "--activation", "cubic", "--epochs", "801"], 3),
}


def run(cmd, env=None):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer-dir", default=os.path.join(os.path.dirname(root), "shared", "peer"))
    ap.add_argument("--bench", default=os.path.join(root, "build", "sweeps", "bench", "pmoe-bench"))
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--cells", default=",".join(CELLS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--any-blas", action="store_true",
                    help="compare even when the peer's BLAS is the reference BLAS or far below "
                         "the FMA peak (the check's finding is printed)")
    args = ap.parse_args()
    cells = args.cells.split(",")
    env = dict(os.environ, LD_LIBRARY_PATH=OPENBLAS, OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1")
    bench = json.loads(run([args.bench, "--cells", ",".join(cells), "--repeats",
                            str(args.repeats), "--sweep", "none", "--json"]))
    ours, fma_peak = bench["cells"], bench["fma_peak_gflops"]
    # A peer on the reference BLAS or a misdetected OpenBLAS is refused (or fixed) first.
    env, blas_line = checked_env_or_exit(env, fma_peak, args.any_blas)
    print(blas_line, file=sys.stderr, flush=True)
    peer = {}
    for cell in cells:
        times = []
        for r in range(args.repeats):
            out = run(["/usr/bin/python3", os.path.join(args.peer_dir, "chen_peer.py"),
                       "--setting", "1", "--no-early-stop", "--threads", "1", "--seed", str(r)]
                      + CELLS[cell][0], env=env)
            rec = json.loads(out.strip().splitlines()[-1])
            times.append(rec["seconds_train"] + rec["seconds_eval"])
        peer[cell] = statistics.median(times)
    sgemm = json.loads(run(["/usr/bin/python3", os.path.join(args.peer_dir, "sgemm_bench.py"),
                            "1"], env=env))
    roof = max(sgemm["numpy_1024"]["gflops_best"], sgemm["torch_mm_1024"]["gflops_best"])
    rows = []
    for cell in cells:
        o = ours[cell]
        ratio = peer[cell] / o["median_trial_s"]
        # The best ratio a program doing the cell's nominal products at this core's FMA peak
        # could reach against this peer time: a target above it cannot be met on this machine.
        ceiling = peer[cell] / (o["gflop"] / fma_peak)
        rows.append(dict(cell=cell, ours_s=o["median_trial_s"], peer_s=peer[cell], ratio=ratio,
                         target=CELLS[cell][1], met=ratio >= CELLS[cell][1], gflops=o["gflops"],
                         fma_peak_fraction=o["fraction_of_fma_peak"], ceiling=ceiling,
                         roofline_fraction=o["gflops"] / roof, test_acc=o["test_acc"]))
    if args.json:
        print(json.dumps(dict(cells=rows, sgemm_1024_gflops=roof, fma_peak_gflops=fma_peak,
                              peer_blas=blas_line), indent=1))
        return
    print(blas_line)
    print(f"FMA peak of this core (pmoe-bench): {fma_peak:.1f} GFLOP/s; SGEMM 1024^3, one thread "
          f"(best of numpy, torch.mm with OpenBLAS): {roof:.1f} GFLOP/s")
    print(f"{'cell':9} {'ours s':>8} {'peer s':>8} {'ratio':>7} {'target':>7} {'ceiling':>8} "
          f"{'GFLOP/s':>8} {'of peak':>8} {'of SGEMM':>9}")
    for r in rows:
        verdict = "met" if r["met"] else (
            "MISSED (above the ceiling)" if r["target"] > r["ceiling"] else "MISSED")
        print(f"{r['cell']:9} {r['ours_s']:8.2f} {r['peer_s']:8.2f} {r['ratio']:6.1f}x "
              f"{r['target']:6d}x {r['ceiling']:7.1f}x {r['gflops']:8.2f} "
              f"{100 * r['fma_peak_fraction']:7.1f}% {100 * r['roofline_fraction']:8.1f}%  {verdict}")
    print("ceiling: the peer's time over the time of the cell's nominal FLOPs at the FMA peak, the "
          "best ratio any program doing these products could reach here")


if __name__ == "__main__":
    main()
