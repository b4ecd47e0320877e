"""Every claim of the paper declared once as the target(s) that decide it (issue 41): each config
a claim page reads declares the claim in its [claims] section, the quick and the precision copies
of a config declare it word for word alike (so a quick page, a reference page and a precision run
decide on one declaration), and pmoe-sweep accepts every declaration against its grid."""
import os
import subprocess

import pytest

from pmoe.report import chen_claims, claims, declarations

CONFIGS = os.path.join(declarations.SOURCE_ROOT, "sweeps", "configs")
SWEEP = os.environ.get("PMOE_SWEEP", "build/sweeps/pmoe-sweep")


def declared(path):
    with open(path, encoding="utf-8") as f:
        return {d.id: d for d in declarations.parse(f.read(), path)}


# (claim, config) for every config a claim page reads, at both scales, of both papers.
PAGES = [(cid, os.path.join(CONFIGS, paper, scale, source + ".ini"))
         for paper, claim_list in (("paper", claims.CLAIMS), ("chen", chen_claims.CLAIMS))
         for cid, _, _, sources, _ in claim_list for source in sources
         for scale in ("", "quick")
         if os.path.exists(os.path.join(CONFIGS, paper, scale, source + ".ini"))]
PAGES += [("f", os.path.join(CONFIGS, "f_ratio_decade.ini")),
          ("f", os.path.join(CONFIGS, "headline.ini")), ("g", os.path.join(CONFIGS, "headline.ini"))]
# Configs that must declare what another declares: (copy, original).
COPIES = [(os.path.join(os.path.dirname(path), "quick", os.path.basename(path)), path)
          for _, path in PAGES if "quick" not in path] + [
    (os.path.join(CONFIGS, "b_separate_l_precision.ini"),
     os.path.join(CONFIGS, "paper", "b_separate_l.ini")),
    (os.path.join(CONFIGS, "f_ratio_decade_precision.ini"),
     os.path.join(CONFIGS, "f_ratio_decade.ini")),
    (os.path.join(CONFIGS, "f_ratio_decade_n128_precision.ini"),
     os.path.join(CONFIGS, "f_ratio_decade_n128.ini"))]


@pytest.mark.parametrize("claim, path", PAGES, ids=[f"{c}:{os.path.relpath(p, CONFIGS)}"
                                                    for c, p in PAGES])
def test_every_config_a_page_reads_declares_its_claim(claim, path):
    mine = [d for d in declared(path).values() if d.claim == claim]
    assert mine, f"{path} declares no target for claim ({claim})"
    for d in mine:
        assert d.target and d.threshold == d.threshold and d.side in ("above", "below"), d


@pytest.mark.parametrize("copy, original", [c for c in COPIES if os.path.exists(c[0])],
                         ids=[os.path.relpath(c[0], CONFIGS) for c in COPIES
                              if os.path.exists(c[0])])
def test_copies_of_a_config_declare_alike(copy, original):
    mine, theirs = declared(copy), declared(original)
    assert {k: v.text() for k, v in mine.items()} == {k: v.text() for k, v in theirs.items()}


def test_pmoe_sweep_accepts_every_shipped_declaration():
    assert os.path.exists(SWEEP), f"{SWEEP}: build pmoe-sweep first"
    paths = sorted({p for _, p in PAGES} | {c for c, _ in COPIES if os.path.exists(c)})
    for path in paths:
        out = subprocess.run([SWEEP, "plan", path], capture_output=True, text=True)
        assert out.returncode == 0, f"{path}: {out.stderr}"
