#!/usr/bin/python3
"""Runs pmoe-bench and the PyTorch peer's benchmark (../shared/peer/bench_peer.py, OpenBLAS) on
this machine in one go, plus the peer's SGEMM roofline, and prints per cell: our seconds, the
peer's, the ratio against its target, achieved GFLOP/s and the fraction of single-thread
SGEMM 1024^3. The peer is only run, never imported: none of its code is part of this project.

    /usr/bin/python3 sweeps/bench/peer/compare_peer.py [--peer-dir ../shared/peer] [--repeats 3]

Set-up (once): apt-get install python3-torch python3-numpy libopenblas0-pthread
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# The package (analysis/python) holds the peer's BLAS check shared by both comparison scripts.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "analysis", "python"))
from pmoe.peer.blas import checked_env_or_exit  # noqa: E402

CELLS = ["S-sep", "S-joint", "S-cnn", "I-sep", "I-cnn"]
TARGET = {"S-sep": 30, "S-joint": 30, "S-cnn": 10, "I-sep": 3, "I-cnn": 3}  # times faster
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"


def run_json(cmd, env=None, out_file=None):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    return json.load(open(out_file)) if out_file else json.loads(done.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer-dir", default=os.path.join(os.path.dirname(root), "shared", "peer"))
    ap.add_argument("--bench", default=os.path.join(root, "build", "sweeps", "bench", "pmoe-bench"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sweep",
                    default=os.path.join(root, "sweeps", "bench", "configs", "phase_l.ini"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--any-blas", action="store_true",
                    help="compare even when the peer's BLAS is the reference BLAS or far below "
                         "the FMA peak (the check's finding is printed)")
    args = ap.parse_args()

    peer_env = dict(os.environ, LD_LIBRARY_PATH=OPENBLAS)
    ours = run_json([args.bench, "--json", "--repeats", str(args.repeats), "--sweep", args.sweep])
    # A peer on the reference BLAS or a misdetected OpenBLAS is refused (or fixed) first.
    peer_env, blas_line = checked_env_or_exit(peer_env, ours["fma_peak_gflops"], args.any_blas)
    print(blas_line, file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "peer.json")
        peer = run_json(["/usr/bin/python3", os.path.join(args.peer_dir, "bench_peer.py"),
                         "--label", "openblas", "--out", out, "--skip-early",
                         "--repeats", str(args.repeats), "--cells", ",".join(CELLS)],
                        env=peer_env, out_file=out)
    sgemm = run_json(["/usr/bin/python3", os.path.join(args.peer_dir, "sgemm_bench.py"), "1"],
                     env=peer_env)
    roof = max(sgemm["numpy_1024"]["gflops_best"], sgemm["torch_mm_1024"]["gflops_best"])

    rows = []
    for cell in CELLS:
        o, p = ours["cells"][cell], peer["cells"][cell]
        ratio = p["median_trial_s"] / o["median_trial_s"]
        rows.append(dict(cell=cell, ours_s=o["median_trial_s"], peer_s=p["median_trial_s"],
                         ratio=ratio, target=TARGET[cell], met=ratio >= TARGET[cell],
                         gflops=o["gflops"], roofline_fraction=o["gflops"] / roof,
                         data_fraction=o["data_s"] / o["median_trial_s"],
                         peer_data_s=p["median_data_s"]))
    sweeps = ours["sweeps"]
    scaling = sweeps[1]["trials_per_s"] / sweeps[0]["trials_per_s"] if len(sweeps) == 2 else None
    if args.json:
        print(json.dumps(dict(cells=rows, sgemm_1024_gflops=roof, sweeps=sweeps,
                              thread_scaling=scaling, blas=peer.get("blas_libraries"),
                              peer_blas=blas_line), indent=1))
        return
    print(blas_line)
    print(f"SGEMM 1024^3, one thread (best of numpy, torch.mm with OpenBLAS): {roof:.1f} GFLOP/s")
    print(f"{'cell':8} {'ours s':>9} {'peer s':>9} {'ratio':>7} {'target':>7} {'GFLOP/s':>8} "
          f"{'roofline':>9} {'data/trial':>10}")
    for r in rows:
        print(f"{r['cell']:8} {r['ours_s']:9.4f} {r['peer_s']:9.4f} {r['ratio']:6.1f}x "
              f"{r['target']:6d}x {r['gflops']:8.2f} {100 * r['roofline_fraction']:8.1f}% "
              f"{100 * r['data_fraction']:9.1f}%  {'met' if r['met'] else 'MISSED'}")
    for s in sweeps:
        print(f"sweep {os.path.basename(args.sweep)}, {s['threads']} thread(s): "
              f"{s['trials_per_s']:.2f} trials/s")
    if scaling:
        print(f"2 threads / 1 thread: {scaling:.2f}x (target 1.8x)")


if __name__ == "__main__":
    main()
