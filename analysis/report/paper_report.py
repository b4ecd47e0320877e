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
import base64
import datetime
import html
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "plots"))
sys.path.insert(0, HERE)
import chen_claims  # noqa: E402
import claims as claim_rules  # noqa: E402
import evidence  # noqa: E402
from evidence import Evidence  # noqa: E402

# The papers a page can be about: title, citation, what the sample-complexity readings mean there.
PAPERS = {
    "chowdhury": dict(
        title="Patch-level MoE: which of the paper's claims hold",
        short="pMoE",
        cite="Chowdhury, Zhang, Wang, Liu, Chen, ICML 2023, §5.1",
        readings=(
            "Sample complexity is read two ways: <b>N*</b>, the N where the success probability "
            "(test accuracy ≥ 0.95) reaches 0.5 on a logistic fit, and <b>N_acc</b>, the N where "
            "the mean test accuracy reaches 0.95 (the paper's Figure 4 reading). Outside the N "
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

VERDICT_CLASS = {"supported": "ok", "not supported": "bad", "not testable": "na", "not run": "na"}

STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #1d1d1f; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { margin-top: 2.2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0; } td, th { padding: 3px 10px; text-align: left;
       border-bottom: 1px solid #e5e5e5; vertical-align: top; }
th { background: #f4f4f6; } .meta { color: #555; font-size: 0.9em; }
.verdict { font-weight: 600; padding: 1px 8px; border-radius: 4px; white-space: nowrap; }
.ok { background: #d8f3dc; color: #1b4332; } .bad { background: #ffd6d6; color: #7a1010; }
.na { background: #ececec; color: #444; }
.rule { background: #f7f7fa; border-left: 3px solid #999; padding: 0.4em 0.8em; font-size: 0.92em; }
.budget { background: #fff4d6; border-left: 3px solid #d4a017; padding: 0.3em 0.8em; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; } pre { background: #f7f7fa; padding: 0.6em;
       overflow-x: auto; font-size: 0.85em; }
"""

# Marks, once the page has loaded, how many of its figures the browser decoded: the rendering
# test reads it (data-figures="decoded/total").
SCRIPT = """
window.addEventListener("load", function () {
  var images = document.images, decoded = 0;
  for (var i = 0; i < images.length; i++)
    if (images[i].complete && images[i].naturalWidth > 0) decoded++;
  document.body.setAttribute("data-figures", decoded + "/" + images.length);
});
"""


def esc(text):
    return html.escape(str(text))


def image_tag(path, alt):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{esc(alt)}">'


def verdict_span(verdict):
    return f'<span class="verdict {VERDICT_CLASS.get(verdict, "na")}">{esc(verdict)}</span>'


def evaluate(claim_list, results, analyze, workdir):
    """[(claim, [finding or (source, "not run")])] and the run time of each source read."""
    out, seconds = [], {}
    for claim in claim_list:
        cid, text, rule, sources, fn = claim
        findings = []
        for source in sources:
            path = os.path.join(results, source + ".h5")
            if not os.path.exists(path):
                findings.append(claim_rules.Finding("–", source, "not run",
                                                    f"{path} does not exist"))
                continue
            ev = Evidence(path, analyze)
            seconds[source] = ev.wall_seconds
            try:
                findings.append(fn(ev, os.path.join(workdir, cid)))
            except Exception as e:  # a rule that cannot read its file says so on the page
                findings.append(claim_rules.Finding(claim_rules.data_label(ev), source,
                                                    "not testable", f"the rule failed: {e!r}"))
            findings[-1].config = ev.config_path
            findings[-1].config_text = ev.config_text
        out.append((claim, findings))
    return out, seconds


def render(evaluated, seconds, scale, results, paper=PAPERS["chowdhury"]):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
             f"<title>{esc(paper['short'])}: the paper's claims ({esc(scale)})</title>"
             f"<style>{STYLE}</style><script>{SCRIPT}</script></head><body>"]
    parts.append(f"<h1>{esc(paper['title'])}</h1>")
    parts.append(f"<p class='meta'>{esc(paper['cite'])}. Scale: "
                 f"<b>{esc(scale)}</b>; results from <code>{esc(results)}</code>; written {now} "
                 f"by <code>analysis/report/paper_report.py</code>. Trials' summed run time: "
                 f"{sum(v for v in seconds.values() if v == v) / 60:.1f} core-minutes.</p>")
    parts.append(
        "<p>Every verdict below is computed from the result files by the rule printed with it; "
        "none is written by hand. <b>supported</b>: the rule's conditions hold; <b>not "
        "supported</b>: they fail; <b>not testable</b>: the data at hand cannot decide (the "
        "reason is given). Intervals are 95 % paired bootstrap intervals over trial indices "
        f"({evidence.BOOTSTRAP} replicates): trial t of every cell of a sweep sees the same data "
        "set. " + paper["readings"] + "</p>")
    parts.append("<h2>Verdicts</h2><table><tr><th>claim</th><th>data</th><th>sweep</th>"
                 "<th>verdict</th><th>why</th></tr>")
    for (cid, text, _, _, _), findings in evaluated:
        for i, f in enumerate(findings):
            parts.append("<tr>" + (f"<td rowspan='{len(findings)}'><a href='#claim-{cid}'>({cid})"
                                   f"</a> {esc(text)}</td>" if i == 0 else "") +
                         f"<td>{esc(f.data)}</td><td>{esc(f.source)}</td>"
                         f"<td>{verdict_span(f.verdict)}</td><td>{esc(f.reason)}</td></tr>")
    parts.append("</table>")
    for (cid, text, rule, _, _), findings in evaluated:
        parts.append(f"<h2 id='claim-{cid}'>({cid}) {esc(text)}</h2>")
        parts.append(f"<p class='rule'><b>Rule.</b> {esc(rule)}</p>")
        for f in findings:
            parts.append(f"<h3>{esc(f.data)}: <code>{esc(f.source)}</code> "
                         f"{verdict_span(f.verdict)}</h3><p>{esc(f.reason)}</p>")
            if f.config:
                run = seconds.get(f.source)
                parts.append(f"<details><summary>config <code>{esc(f.config)}</code>"
                             + (f", trials' run time {run:.0f} core-seconds" if run == run and
                                run is not None else "") +
                             f"</summary><pre>{esc(f.config_text)}</pre></details>")
            if f.budget_note:
                parts.append(f"<p class='budget'>{esc(f.budget_note)}</p>")
            if f.numbers:
                parts.append("<table><tr><th>quantity</th><th>measured [95 % interval]</th></tr>" +
                             "".join(f"<tr><td>{esc(q)}</td><td>{esc(v)}</td></tr>"
                                     for q, v in f.numbers) + "</table>")
            for caption, path in f.figures:
                parts.append(f"<figure>{image_tag(path, caption)}"
                             f"<figcaption>{esc(caption)}</figcaption></figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


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
    args = ap.parse_args()
    if args.headline and args.paper != "chowdhury":
        ap.error("--headline reports Chowdhury et al.'s claims: leave out --paper")
    claim_list = (chen_claims.CLAIMS if args.paper == "chen" else
                  claim_rules.HEADLINE if args.headline else claim_rules.CLAIMS)
    if args.bootstrap < 10:
        ap.error(f"--bootstrap {args.bootstrap}: expected at least 10 replicates")
    evidence.BOOTSTRAP = args.bootstrap
    with tempfile.TemporaryDirectory() as workdir:
        evaluated, seconds = evaluate(claim_list, args.results, args.analyze, workdir)
        page = render(evaluated, seconds, args.scale, args.results, PAPERS[args.paper])
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(page)
    os.replace(tmp, args.out)
    for (cid, _, _, _, _), findings in evaluated:
        for f in findings:
            print(f"({cid}) {f.data:14s} {f.source:24s} {f.verdict:14s} {f.reason}")
    print(f"report: {args.out}")


if __name__ == "__main__":
    main()
