"""Does a rerun agree with the reference answers? For each claim and each of its sweeps, the
rule's conditions are decided on both result folders (the same rules as the report pages), and a
condition that HOLDS in one and FAILS in the other is a contradiction: its interval lies above the
effect size in one run and below it in the other, so the two runs' intervals cannot both cover
the truth. A condition OPEN (undecided) or UNTESTABLE in either run agrees with anything: a quick
rerun with few trials is expected to decide less, never the opposite.

    /usr/bin/python3 analysis/report/compare_reference.py QUICK_RESULTS results/reference/paper
    /usr/bin/python3 analysis/report/compare_reference.py QUICK_RESULTS results/reference/chen \\
        --paper chen

Prints one line per claim and sweep (verdicts side by side, conditions compared, contradictions
named) and exits 1 if any condition contradicts, or if a sweep of the rerun has no condition in
common with the reference (nothing would then have been compared)."""
import argparse
import os
import sys
import tempfile

from pmoe.report import chen_claims, evidence, rules
from pmoe.report import claims as claim_rules
from pmoe.report.paper_report import evaluate

CONTRADICTORY = {(rules.HOLDS, rules.FAILS), (rules.FAILS, rules.HOLDS)}


def compare_findings(rerun, reference):
    """(compared, contradictions): how many conditions both findings decided under the same name,
    and (name, rerun outcome, reference outcome, rerun why, reference why) for those that
    contradict."""
    ref = {name: (outcome, why) for name, outcome, why in reference.conditions}
    compared, contradictions = 0, []
    for name, outcome, why in rerun.conditions:
        if name not in ref:
            continue
        compared += 1
        if (outcome, ref[name][0]) in CONTRADICTORY:
            contradictions.append((name, outcome, ref[name][0], why, ref[name][1]))
    return compared, contradictions


def compare(claim_list, rerun_dir, reference_dir, analyze, workdir):
    """[(claim id, sweep, rerun verdict, reference verdict, compared, contradictions)] for every
    sweep present in both folders."""
    rerun, _ = evaluate(claim_list, rerun_dir, analyze, os.path.join(workdir, "rerun"))
    reference, _ = evaluate(claim_list, reference_dir, analyze, os.path.join(workdir, "ref"))
    rows = []
    for (claim, mine), (_, theirs) in zip(rerun, reference):
        for a, b in zip(mine, theirs):
            if rules.NOT_RUN in (a.verdict, b.verdict):
                continue
            compared, contradictions = compare_findings(a, b)
            rows.append((claim[0], a.source, a.verdict, b.verdict, compared, contradictions))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rerun", help="folder of the rerun's result files (NAME.h5 per sweep)")
    ap.add_argument("reference", help="folder of the reference result files")
    ap.add_argument("--paper", choices=["chowdhury", "chen"], default="chowdhury")
    ap.add_argument("--analyze", default="build/analysis/pmoe-analyze")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args()
    for folder in (args.rerun, args.reference):
        if not os.path.isdir(folder):
            ap.error(f"{folder}: not a folder (expected one holding the sweeps' NAME.h5 files)")
    evidence.BOOTSTRAP = args.bootstrap
    claim_list = chen_claims.CLAIMS if args.paper == "chen" else claim_rules.CLAIMS
    with tempfile.TemporaryDirectory() as workdir:
        rows = compare(claim_list, args.rerun, args.reference, args.analyze, workdir)
    failed = 0
    for cid, source, mine, theirs, compared, contradictions in rows:
        state = "agrees" if compared and not contradictions else (
            "nothing compared" if not compared else "CONTRADICTS")
        print(f"({cid}) {source:24s} rerun {mine:14s} reference {theirs:14s} "
              f"{compared} conditions compared: {state}")
        for name, a, b, why_a, why_b in contradictions:
            print(f"    {name}: {a} in the rerun ({why_a}), {b} in the reference ({why_b})")
        failed += state != "agrees"
    if not rows:
        print("no sweep is in both folders", file=sys.stderr)
        return 1
    if failed:
        print(f"error: {failed} sweep(s) do not agree with the reference", file=sys.stderr)
        return 1
    return 0
