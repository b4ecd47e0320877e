#!/usr/bin/python3
"""The report page: for each of the paper's claims, the claim in a sentence, its config, its
figures, the measured numbers with intervals, and a verdict computed by the rule printed beside
it (claims.py). One static HTML file with its figures inside (PNG data URIs), so it can be mailed
or archived as it is.

    /usr/bin/python3 analysis/report/paper_report.py results/paper/quick \\
        --out results/paper/report.html --analyze build/analysis/pmoe-analyze

Reads RESULTS/NAME.h5 for every sweep a claim names (sweeps/configs/paper/NAME.ini); a claim
whose sweeps are missing is listed as not run. --headline reads RESULTS/headline.h5 instead and
reports the claims it answers (the main job). --paper chen reports Chen et al.'s claims instead
(chen_claims.py; scripts/chen-report.sh)."""
import argparse
import os
import sys
import tempfile

from pmoe import atomic, methods, results
from pmoe.cli import run
from pmoe.plots import figures
from pmoe.report import chen_claims
from pmoe.report import claims as claim_rules
from pmoe.report import evidence, reference_verdicts, rules
from pmoe.report.scale import scale_of
from pmoe.report.evidence import Evidence
from pmoe.report.page import render

# The papers a page can be about: title, citation, what the sample-complexity readings mean there.
PAPERS = {
    "chowdhury": dict(
        title="Patch-level MoE: which of the paper's claims hold",
        short="pMoE",
        cite="Chowdhury, Zhang, Wang, Liu, Chen, ICML 2023, §5.1",
        readings=(
            "Sample complexity is read three ways: <b>N(0.9)</b>, the N where the success "
            "probability (test accuracy ≥ 0.95) reaches 0.9 on a logistic fit, the reading of "
            "the theorems, which hold with high probability (claims (b) and (f) decide on it); "
            "<b>N*</b>, where it reaches 0.5 (the median); and <b>N_acc</b>, the N where a "
            "monotone fit of the mean test accuracy reaches 0.95 (the paper's Figure 4 reading, "
            "on which claim (a) decides). Each claim shows the others beside the one it decides "
            "on, with what they would say. Outside the N "
            "grid an estimate is a bound (&gt; N_max, &lt; N_min), never an extrapolated number. "
            "Models train until zero training error under a step cap; estimates whose nearby "
            "trials mostly did not get there are flagged: they measure the training budget as "
            "much as the data.")),
    "chen": dict(
        title="Switch MoE on cluster data: which of the paper's claims hold",
        short="Chen et al.",
        cite="Chen, Deng, Wu, Gu, Li, NeurIPS 2022, §6 and Table 3 (MODEL.md §8)",
        readings=(
            "The published table's four settings are numbered as in the paper: 1 = γ 0.5..3, "
            "σ_p 1; 2 = γ 0.5..3, σ_p 2; 3 = γ 0.5..2, σ_p 1; 4 = γ 0.5..2, σ_p 2. Dispatch "
            "entropy (natural log, training set, last training forward pass) is 0 when every "
            "expert receives one cluster and log K when every expert receives all K evenly. "
            "Models train by the published schedule and stopping rule (the loss-rise rule), not "
            "to zero training error.")),
}

def evaluate(claim_list, results, analyze, workdir):
    """[(claim, [finding or (source, "not run")])] and the run time of each source read."""
    out, seconds = [], {}
    for claim in claim_list:
        cid, text, rule, sources, fn = claim
        findings = []
        for source in sources:
            path = os.path.join(results, source + ".h5")
            if not os.path.exists(path):
                findings.append(rules.Finding("–", source, rules.NOT_RUN,
                                              f"{path} does not exist"))
                continue
            ev = Evidence(path, analyze)  # a damaged file: one error line, exit 2 (pmoe.cli)
            seconds[source] = ev.wall_seconds
            # A rule that raises is the verdict "error", in red with its message, and the
            # script's exit status 1 once the page is written.
            label = ("data model C" if fn.__module__ == chen_claims.__name__
                     else claim_rules.data_label(ev))
            findings.append(rules.run_rule(fn, ev, os.path.join(workdir, cid), label))
            findings[-1].config = ev.config_path
            findings[-1].config_text = ev.config_text
            findings[-1].scale = scale_of(ev)
        out.append((claim, findings))
    return out, seconds


def attach_reference(evaluated, args):
    """Puts the reference page's verdicts of the same claim and data beside each finding, with
    the link from this page and why they differ (pmoe.report.reference_verdicts)."""
    ref_page = args.reference or os.path.join(
        "results", "reference", "paper" if args.paper == "chowdhury" else "chen", "report.html")
    if os.path.abspath(os.path.dirname(ref_page)) == os.path.abspath(args.results):
        return
    refs = reference_verdicts.read(ref_page)
    link = os.path.relpath(os.path.abspath(ref_page),
                           os.path.dirname(os.path.abspath(args.out)))
    for (cid, *_), findings in evaluated:
        for f in findings:
            f.reference = [(r["verdict"], r["source"], r.get("scale", ""),
                            reference_verdicts.why_they_differ(f, r), f"{link}#claim-{cid}")
                           for r in reference_verdicts.beside(f, cid, refs)]


def methods_tables(evaluated, folder):
    """{source: its Methods table (HTML)} of every sweep the page read."""
    sources = {f.source for _, findings in evaluated for f in findings}
    paths = {s: os.path.join(folder, s + ".h5") for s in sources}
    return {s: methods.html(methods.of(results.read(p))) for s, p in paths.items()
            if os.path.exists(p)}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="folder of the sweeps' result files")
    ap.add_argument("--out", required=True)
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--analyze", default="build/analysis/pmoe-analyze")
    ap.add_argument("--bootstrap", type=int, default=1000,
                    help="bootstrap replicates of every interval (default 1000)")
    ap.add_argument("--headline", action="store_true",
                    help="report the claims the main job's headline sweep answers")
    ap.add_argument("--paper", choices=sorted(PAPERS), default="chowdhury",
                    help="whose claims: chowdhury (pMoE, the default) or chen (the switch MoE)")
    ap.add_argument("--reference", default=None,
                    help="the reference page whose verdicts are shown beside this page's "
                         "(default: results/reference/paper/report.html, or chen/ for --paper "
                         "chen; none when RESULTS is the reference's own folder)")
    args = ap.parse_args()
    if args.headline and args.paper != "chowdhury":
        ap.error("--headline reports Chowdhury et al.'s claims: leave out --paper")
    claim_list = (chen_claims.CLAIMS if args.paper == "chen" else
                  claim_rules.HEADLINE if args.headline else claim_rules.CLAIMS)
    if args.bootstrap < 10:
        ap.error(f"--bootstrap {args.bootstrap}: expected at least 10 replicates")
    evidence.BOOTSTRAP = args.bootstrap
    # The page embeds its figures as PNG; their folder is thrown away.
    with tempfile.TemporaryDirectory() as workdir, figures.only_formats("png"):
        evaluated, seconds = evaluate(claim_list, args.results, args.analyze, workdir)
        attach_reference(evaluated, args)
        page = render(evaluated, seconds, args.scale, args.results, PAPERS[args.paper],
                      evidence.BOOTSTRAP, methods_tables(evaluated, args.results))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    atomic.write_text(args.out, page)  # the whole page or the previous one, never half
    reference_verdicts.write(args.out, evaluated)
    errors = 0
    for (cid, _, _, _, _), findings in evaluated:
        for f in findings:
            print(f"({cid}) {f.data:14s} {f.source:24s} {f.verdict:14s} {f.reason}")
            errors += f.verdict == rules.ERROR
    print(f"report: {args.out}")
    if errors:
        print(f"error: {errors} rule(s) raised an exception (shown on the page in red)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
