"""The HTML page renderer of the report pages: one static file with its figures inside (PNG data
URIs), so that it can be mailed or archived as it is. Knows nothing of any paper: a page is a
title, a meta line, paragraphs, a verdict table and one section per finding (claims.Finding:
data, source, verdict, reason, numbers, figures, budget note, config). The claim pages
(paper_report) and any other page of findings use the same functions.

    document(title, body_parts) -> the page's HTML
    finding_section(finding, run_seconds) -> one finding's HTML (heading, verdict, numbers, figures)
    verdict_span(verdict), esc(text), image_tag(png_path, alt)"""
import base64
import datetime
import html

VERDICT_CLASS = {"supported": "ok", "not supported": "bad", "undecided": "und",
                 "not testable": "na", "not run": "na", "error": "err"}

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
.und { background: #fff4d6; color: #6b4e00; }
.err { background: #c00000; color: #fff; } .rule-error { color: #c00000; font-weight: 600; }
.rule { background: #f7f7fa; border-left: 3px solid #999; padding: 0.4em 0.8em; font-size: 0.92em; }
.budget { background: #fff4d6; border-left: 3px solid #d4a017; padding: 0.3em 0.8em; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; } .cite { background: #f4f4f6; padding: 0.4em 0.8em; }
table.methods td { font-size: 0.9em; } pre { background: #f7f7fa; padding: 0.6em;
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


def document(title, body_parts):
    """A whole page: the head (style, the figure-decoding mark) and the given body parts."""
    return "\n".join([f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
                      f"<title>{esc(title)}</title>"
                      f"<style>{STYLE}</style><script>{SCRIPT}</script></head><body>",
                      *body_parts, "</body></html>\n"])


def finding_section(f, run_seconds=None):
    """One finding: heading with its verdict, the reason, its config, budget note, numbers,
    figures. run_seconds: the trials' summed run time of its source, shown with the config."""
    parts = [f"<h3>{esc(f.data)}: <code>{esc(f.source)}</code> "
             f"{verdict_span(f.verdict)}</h3>" +
             (f"<p class='rule-error'>{esc(f.reason)}</p>" if f.verdict == "error" else
              f"<p>{esc(f.reason)}</p>")]
    if f.scale:
        parts.append(f"<p class='meta'>Scale of this verdict: {esc(f.scale)}.</p>")
    for verdict, source, scale, why, link in f.reference:
        parts.append(f"<p class='meta'>Reference verdict ({esc(source)}, {esc(scale)}): "
                     f"{verdict_span(verdict)} <a href='{esc(link)}'>reference page</a>"
                     + (f". They differ: {esc(why)}." if why else ": the same.") + "</p>")
    if f.config:
        run = run_seconds
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
    return "\n".join(parts)


def render(evaluated, seconds, scale, results, paper, bootstrap, methods=None):
    """A claim page: evaluated is [((id, text, rule, sources, fn), [finding])], seconds the
    trials' run time per source, paper a dict of title, short, cite and readings, methods the
    Methods table (HTML) of each source read, printed at the page's end."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"<h1>{esc(paper['title'])}</h1>"]
    parts.append(f"<p class='meta'>{esc(paper['cite'])}. Scale: "
                 f"<b>{esc(scale)}</b>; results from <code>{esc(results)}</code>; written {now} "
                 f"by <code>analysis/report/paper_report.py</code>. Trials' summed run time: "
                 f"{sum(v for v in seconds.values() if v == v) / 60:.1f} core-minutes.</p>")
    parts.append(
        "<p>Every verdict below is computed from the result files by the rule printed with it; "
        "none is written by hand. Each rule states the effect size it requires. "
        "<b>supported</b>: every condition of the rule is shown to hold; <b>not supported</b>: "
        "one is shown to fail (an effect the other way, or smaller than the rule's effect "
        "size); <b>undecided</b>: the intervals neither show nor exclude it (more trials would "
        "tell); <b>not testable</b>: the data at hand cannot test it (too few trials, an "
        "estimate outside the grid; the reason is given); <b>error</b>: the rule itself "
        "failed, with its message. Intervals are 95 % paired bootstrap intervals over trial indices "
        f"({bootstrap} replicates): trial t of every cell of a sweep sees the same data "
        "set. " + paper["readings"] + "</p>")
    with_refs = any(f.reference for _, findings in evaluated for f in findings)
    parts.append("<h2>Verdicts</h2><table><tr><th>claim</th><th>data</th><th>sweep</th>"
                 "<th>verdict</th><th>scale</th><th>why</th>"
                 + ("<th>reference verdict</th>" if with_refs else "") + "</tr>")
    for (cid, text, _, _, _), findings in evaluated:
        for i, f in enumerate(findings):
            refs = "<br>".join(f"{verdict_span(v)} <a href='{esc(link)}'>{esc(src)}</a>"
                               + (f" ({esc(why)})" if why else "")
                               for v, src, _, why, link in f.reference)
            parts.append("<tr>" + (f"<td rowspan='{len(findings)}'><a href='#claim-{cid}'>({cid})"
                                   f"</a> {esc(text)}</td>" if i == 0 else "") +
                         f"<td>{esc(f.data)}</td><td>{esc(f.source)}</td>"
                         f"<td>{verdict_span(f.verdict)}</td><td>{esc(f.scale)}</td>"
                         f"<td>{esc(f.reason)}</td>" + (f"<td>{refs}</td>" if with_refs else "")
                         + "</tr>")
    parts.append("</table>")
    for (cid, text, rule, _, _), findings in evaluated:
        parts.append(f"<h2 id='claim-{cid}'>({cid}) {esc(text)}</h2>")
        parts.append(f"<p class='rule'><b>Rule.</b> {esc(rule)}</p>")
        for f in findings:
            parts.append(finding_section(f, seconds.get(f.source)))
    if methods:
        parts.append("<h2 id='methods'>Methods</h2><p>Every parameter of each sweep as its "
                     "trials used it, placeholders resolved, and what makes it reproducible.</p>")
        for source, table in sorted(methods.items()):
            parts.append(f"<details><summary>sweep <code>{esc(source)}</code></summary>"
                         f"{table}</details>")
    return document(f"{paper['short']}: the paper's claims ({scale})", parts)
