"""The peer scripts' BLAS check (pmoe.peer.blas) on faked peers, without PyTorch: the probe of
the peer's process is replaced by what a reference BLAS, a misdetected OpenBLAS and a fair one
report (libraries loaded, torch.__config__, SGEMM rate)."""
import os
import subprocess
import sys

import pytest

from pmoe.peer import blas

PEAK = 160.0  # GFLOP/s, this core's FMA peak as pmoe-bench would measure it
REFERENCE = {"libraries": ["/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0"],
             "config": "PyTorch built with:\n  - BLAS_INFO=generic", "sgemm_gflops": 4.1}
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"


def openblas(gflops):
    return {"libraries": [OPENBLAS], "config": "BLAS_INFO=open", "sgemm_gflops": gflops}


def fake_probe(monkeypatch, answers):
    """probe(env) answers by OPENBLAS_CORETYPE: answers[None] without, answers[core] with; a
    list answers its entries in turn (a machine whose speed moves between probes)."""
    seen = []

    def probe(env):
        core = env.get("OPENBLAS_CORETYPE")
        seen.append(core)
        answer = answers[core]
        if isinstance(answer, list):
            answer = answer[sum(1 for c in seen if c == core) - 1]
        return dict(answer, coretype=core or "")
    monkeypatch.setattr(blas, "probe", probe)
    return seen


def alternated(first, second, rounds=blas.PROBE_ROUNDS):
    return [first, second] * rounds


def test_a_reference_blas_is_refused(monkeypatch):
    fake_probe(monkeypatch, {None: REFERENCE})
    with pytest.raises(blas.PeerBlasError, match="reference BLAS .*libblas.so.3.11.0.*4.1 GFLOP/s, "
                                                 "3 % of the FMA peak.*libopenblas0-pthread"):
        blas.check_peer_blas({}, PEAK, flags={"avx512f", "avx2", "fma"})


def test_a_misdetected_openblas_is_fixed_by_its_coretype(monkeypatch):
    seen = fake_probe(monkeypatch, {None: openblas(15.7), "SkylakeX": openblas(139.5)})
    env = {}
    found = blas.check_peer_blas(env, PEAK, flags={"avx512f", "avx2", "fma"})
    assert seen == alternated(None, "SkylakeX")
    assert env["OPENBLAS_CORETYPE"] == "SkylakeX"  # the peer then runs with it
    assert found.fixed and found.sgemm_gflops == 139.5
    line = found.describe()
    assert "OpenBLAS" in line and "139.5 GFLOP/s = 87 % of this core's FMA peak" in line
    assert "OPENBLAS_CORETYPE=SkylakeX (set here" in line


def test_an_openblas_the_coretype_does_not_fix_is_refused(monkeypatch):
    fake_probe(monkeypatch, {None: openblas(15.7), "Haswell": openblas(20.0)})
    env = {}
    with pytest.raises(blas.PeerBlasError, match="15.7 GFLOP/s.*10 % of the FMA peak.*Haswell "
                                                 "tried: 20.0"):
        blas.check_peer_blas(env, PEAK, flags={"avx2", "fma"})
    assert "OPENBLAS_CORETYPE" not in env


def test_a_fair_openblas_passes_untouched(monkeypatch):
    # The CPU's own core type is probed too, and kept out: it is no faster.
    seen = fake_probe(monkeypatch, {None: openblas(140.0), "SkylakeX": openblas(141.0)})
    env = {}
    found = blas.check_peer_blas(env, PEAK, flags={"avx512f"})
    assert seen == alternated(None, "SkylakeX") and env == {} and not found.fixed
    assert found.kind == "OpenBLAS" and abs(found.fraction - 0.875) < 1e-9


def test_the_kind_comes_from_the_loaded_library():
    assert blas.classify(REFERENCE)[0] == "reference BLAS"
    assert blas.classify(openblas(1))[0] == "OpenBLAS"
    assert blas.classify({"libraries": ["/opt/intel/libmkl_rt.so"]})[0] == "MKL"
    assert blas.coretype_for({"avx512f"}) == "SkylakeX" and blas.coretype_for({"sse2"}) is None


def test_the_scripts_refuse_in_one_line_and_exit_2(tmp_path, monkeypatch):
    """checked_env_or_exit as the comparison scripts call it, in a child with a faked probe."""
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from pmoe.peer import blas\n"
            "blas.probe = lambda env: %r\n"
            "blas.checked_env_or_exit({}, 160.0, False)\n"
            "print('compared')\n") % (os.path.join(os.path.dirname(__file__), "..", "..",
                                                  "analysis", "python"), REFERENCE)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 2 and "compared" not in r.stdout
    assert r.stderr.startswith("error: the peer runs the reference BLAS")
    assert len(r.stderr.strip().splitlines()) == 1


def test_both_comparison_scripts_run_the_check():
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    for script in ("compare_peer.py", "compare_chen_peer.py"):
        text = open(os.path.join(root, "sweeps", "bench", "peer", script)).read()
        assert "checked_env_or_exit(" in text and "--any-blas" in text, script


def test_a_slower_coretype_from_the_environment_is_replaced(monkeypatch):
    # Measured on a 2-core AMD Zen 5 (FMA peak 218 GFLOP/s): the environment's Haswell kernels
    # ran SGEMM at 93 GFLOP/s, fair-looking (43 %), where SkylakeX (AVX-512) runs 183.
    seen = fake_probe(monkeypatch, {"Haswell": openblas(93.2), "SkylakeX": openblas(183.4)})
    env = {"OPENBLAS_CORETYPE": "Haswell"}
    found = blas.check_peer_blas(env, 218.1, flags={"avx512f", "avx2", "fma"})
    assert seen == alternated("Haswell", "SkylakeX")
    assert env["OPENBLAS_CORETYPE"] == "SkylakeX"
    assert found.sgemm_gflops == 183.4
    assert "in place of the environment's Haswell, 93.2 GFLOP/s" in found.describe()


def test_a_coretype_no_faster_keeps_what_runs(monkeypatch):
    fake_probe(monkeypatch, {None: openblas(139.5), "SkylakeX": openblas(140.0)})
    env = {}
    found = blas.check_peer_blas(env, PEAK, flags={"avx512f", "avx2", "fma"})
    assert "OPENBLAS_CORETYPE" not in env and not found.fixed


def test_each_core_type_is_rated_by_its_best_probe(monkeypatch):
    # Measured in a row on a 2-core AMD Zen 5 (FMA peak 218 GFLOP/s): the first pair alone would
    # have kept the environment's Haswell (90.6 against 68.5).
    seen = fake_probe(monkeypatch, {"Haswell": [openblas(90.6), openblas(52.7), openblas(51.7)],
                                    "SkylakeX": [openblas(68.5), openblas(170.8),
                                                 openblas(161.5)]})
    env = {"OPENBLAS_CORETYPE": "Haswell"}
    found = blas.check_peer_blas(env, 218.1, flags={"avx512f", "avx2", "fma"})
    assert seen == alternated("Haswell", "SkylakeX")
    assert env["OPENBLAS_CORETYPE"] == "SkylakeX" and found.sgemm_gflops == 170.8
    assert "in place of the environment's Haswell, 90.6 GFLOP/s" in found.describe()


def test_a_slow_first_probe_does_not_refuse_a_fair_blas(monkeypatch):
    fake_probe(monkeypatch, {None: [openblas(30.0), openblas(140.0), openblas(120.0)]})
    found = blas.check_peer_blas({}, PEAK, flags={"sse2"})  # no core type to try
    assert found.sgemm_gflops == 140.0 and not found.fixed
