"""Which BLAS the PyTorch peer runs, and whether it is fit to be compared against (issue 30).

The peer's speed is its BLAS's speed. Without libopenblas0-pthread, Debian's PyTorch runs the
reference BLAS (SGEMM 1024^3 at ~4 GFLOP/s on a 160 GFLOP/s core); Debian's OpenBLAS 0.3.21
does not recognise newer CPUs and falls back to a generic kernel (15.7 GFLOP/s, 139.5 once told
OPENBLAS_CORETYPE=SkylakeX). Either made the peer look ten times slower than it is. So before a
comparison the peer's process is probed (its loaded BLAS library, torch.__config__, a one-thread
SGEMM 1024^3 rate) and held against this core's FMA peak from pmoe-bench:

- the reference BLAS is refused (PeerBlasError, with what to install);
- an OpenBLAS is also probed with OPENBLAS_CORETYPE set from the CPU's flags (SkylakeX where the
  CPU has AVX-512) whenever that differs from what it runs with, even a core type the user set:
  on a 2-core AMD Zen 5 an environment's OPENBLAS_CORETYPE=Haswell gave 93 GFLOP/s (43 % of the
  218 GFLOP/s FMA peak, a "fair-looking" rate) where SkylakeX gives 183 (84 %). Each is probed
  PROBE_ROUNDS times, alternated, and rated by its best (one probe can read half of the next);
  the CPU's is kept when it is FASTER_BY faster; below MIN_FRACTION of the peak either way,
  refused;
- the rate and its fraction of the peak are printed beside the comparison.

    blas = check_peer_blas(env, fma_peak_gflops)   # env: the peer's environment; may be fixed
    print(blas.describe())"""
import json
import os
import subprocess
import sys
from dataclasses import dataclass

# A fair peer's SGEMM reaches this fraction of the core's FMA peak (OpenBLAS told its CPU: 88 %
# measured on the AVX-512 Xeon; the generic fallback 10 %, the reference BLAS 2.5 %).
MIN_FRACTION = 0.3
# A core type from the CPU's flags replaces the one in use when its SGEMM is this much faster.
FASTER_BY = 1.2
# Probes of each core type, alternated; each rate is the best of them.
PROBE_ROUNDS = 3

# Run in the peer's environment: what BLAS torch loaded and how fast its SGEMM is.
PROBE = r"""
import json, os, time
import torch
torch.set_num_threads(1)
libs = sorted({line.split()[-1] for line in open("/proc/self/maps")
               if "blas" in line.lower() or "mkl" in line.lower() or "lapack" in line.lower()})
a, b = torch.rand(1024, 1024), torch.rand(1024, 1024)
torch.mm(a, b)
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    torch.mm(a, b)
    best = min(best, time.perf_counter() - start)
print(json.dumps({"config": torch.__config__.show(), "libraries": libs,
                  "sgemm_gflops": 2 * 1024 ** 3 / best / 1e9,
                  "coretype": os.environ.get("OPENBLAS_CORETYPE", "")}))
"""


class PeerBlasError(Exception):
    """The peer's BLAS would make the comparison unfair: the message says why and what to do."""


@dataclass
class PeerBlas:
    kind: str            # "OpenBLAS", "reference BLAS", "MKL", "unknown"
    library: str         # the loaded library's path
    sgemm_gflops: float
    fma_peak_gflops: float
    coretype: str = ""   # OPENBLAS_CORETYPE, when set (by the user or by the fix)
    fixed: bool = False  # the coretype was set here
    replaced: str = ""   # the core type the environment gave, when the fix replaced it
    replaced_gflops: float = 0.0

    @property
    def fraction(self):
        return self.sgemm_gflops / self.fma_peak_gflops if self.fma_peak_gflops else float("nan")

    def describe(self):
        core = f", OPENBLAS_CORETYPE={self.coretype}" if self.coretype else ""
        fix = " (set here: the CPU was not recognised)" if self.fixed else ""
        if self.replaced:
            fix = (f" (set here in place of the environment's {self.replaced}, "
                   f"{self.replaced_gflops:.1f} GFLOP/s)")
        return (f"peer BLAS: {self.kind} ({self.library or 'library not found'}{core}{fix}); "
                f"SGEMM 1024^3, one thread: {self.sgemm_gflops:.1f} GFLOP/s = "
                f"{100 * self.fraction:.0f} % of this core's FMA peak "
                f"({self.fma_peak_gflops:.1f} GFLOP/s, pmoe-bench)")


def probe(env):
    """The peer process's BLAS facts (runs PyTorch in a child with the peer's environment)."""
    # One thread: OpenBLAS's own pool ignores torch.set_num_threads, and a two-thread SGEMM read
    # as one thread's showed 150 % of the FMA peak on a 2-core Zen 5.
    one = dict(env, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(["/usr/bin/python3", "-c", PROBE], env=one, capture_output=True,
                          text=True)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise PeerBlasError("the peer's Python cannot run PyTorch (" +
                            (said[-1] if said else f"exit {done.returncode}") +
                            "): apt-get install python3-torch libopenblas0-pthread")
    return json.loads(done.stdout.strip().splitlines()[-1])


def classify(info):
    """(kind, library path) from the loaded libraries and torch's build configuration."""
    libs = info.get("libraries", [])
    for lib in libs:
        if "openblas" in lib.lower():
            return "OpenBLAS", lib
    for lib in libs:
        if "mkl" in lib.lower():
            return "MKL", lib
    for lib in libs:
        name = os.path.basename(lib).lower()
        if name.startswith("libblas") or "/blas/" in lib.lower():
            return "reference BLAS", lib
    config = info.get("config", "").lower()
    if "blas_info=open" in config and not libs:
        return "OpenBLAS", ""
    return "unknown", libs[0] if libs else ""


def coretype_for(flags):
    """The OPENBLAS_CORETYPE of a CPU with these /proc/cpuinfo flags (None: no better guess)."""
    if "avx512f" in flags:
        return "SkylakeX"
    if "avx2" in flags and "fma" in flags:
        return "Haswell"
    return None


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def check_peer_blas(env, fma_peak_gflops, flags=None, rounds=None):
    """The peer's BLAS, refused or fixed as the module says; env is updated in place when
    OPENBLAS_CORETYPE fixes a misdetected OpenBLAS."""
    rounds = PROBE_ROUNDS if rounds is None else rounds
    info = probe(env)
    kind, library = classify(info)
    if kind == "reference BLAS":
        blas = PeerBlas(kind, library, info["sgemm_gflops"], fma_peak_gflops)
        raise PeerBlasError(
            f"the peer runs the reference BLAS ({library}): SGEMM {blas.sgemm_gflops:.1f} "
            f"GFLOP/s, {100 * blas.fraction:.0f} % of the FMA peak; a comparison would flatter "
            "pmoe-sim ten times over. Install libopenblas0-pthread (and run the peer with "
            "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread)")
    core = coretype_for(cpu_flags() if flags is None else flags) if kind == "OpenBLAS" else None
    rival = core if core and core != env.get("OPENBLAS_CORETYPE") else None
    rival_env = dict(env, OPENBLAS_CORETYPE=rival) if rival else None
    # Each rate is the best of `rounds` probes, the two core types alternated: on a shared
    # machine one SGEMM probe can read half of another a few seconds later (2-core Zen 5:
    # SkylakeX 171, 162, 69 GFLOP/s; Haswell 96, 53, 52), and a single pair once kept the
    # environment's slower kernels.
    rate, rival_rate = info["sgemm_gflops"], 0.0
    for r in range(rounds):
        if r > 0:
            rate = max(rate, probe(env)["sgemm_gflops"])
        if rival:
            rival_rate = max(rival_rate, probe(rival_env)["sgemm_gflops"])
    blas = PeerBlas(kind, library, rate, fma_peak_gflops, info.get("coretype", ""))
    if rival:
        if rival_rate >= FASTER_BY * rate and rival_rate / fma_peak_gflops >= MIN_FRACTION:
            given = env.get("OPENBLAS_CORETYPE")
            env["OPENBLAS_CORETYPE"] = rival
            return PeerBlas(kind, library, rival_rate, fma_peak_gflops, rival, fixed=True,
                            replaced=given or "", replaced_gflops=rate if given else 0.0)
        if blas.fraction < MIN_FRACTION:
            blas.coretype = f"{rival} tried: {rival_rate:.1f} GFLOP/s"
    if blas.fraction >= MIN_FRACTION:
        return blas
    raise PeerBlasError(
        f"the peer's {kind} ({library or 'library not found'}) reaches "
        f"{blas.sgemm_gflops:.1f} GFLOP/s on SGEMM 1024^3, {100 * blas.fraction:.0f} % of the FMA "
        f"peak (a fair BLAS reaches {100 * MIN_FRACTION:.0f} % or more)"
        + (f"; OPENBLAS_CORETYPE={blas.coretype}" if blas.coretype else "")
        + ": set OPENBLAS_CORETYPE to this CPU's core type, or pass --any-blas to compare anyway")


def checked_env_or_exit(env, fma_peak_gflops, allow_any):
    """For the comparison scripts: the checked (possibly fixed) environment and the line to
    print; a refused BLAS ends the script with one line and exit 2 unless allow_any."""
    try:
        blas = check_peer_blas(env, fma_peak_gflops)
        return env, blas.describe()
    except PeerBlasError as e:
        if allow_any:
            return env, f"peer BLAS NOT checked fair (--any-blas): {e}"
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
