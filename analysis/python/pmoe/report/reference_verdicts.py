"""The reference verdicts beside a quick page's: a page written from the shipped reference files
(results/reference/) also writes its verdicts as JSON (REPORT-verdicts.json); a page written from
other files reads them and shows, per claim, the reference's verdict with its scale and a link,
and why the two differ when they do (the scale, the reading, a precision target). A reader of the
main job's page thus never leaves with a verdict the reference contradicts unexplained."""
import json
import os

from pmoe import atomic


def path_for(report_path):
    """results/reference/paper/report.html -> results/reference/paper/report-verdicts.json"""
    stem, _ = os.path.splitext(report_path)
    return stem + "-verdicts.json"


def write(report_path, evaluated):
    """Writes every finding's claim, source, verdict, reason and scale beside the page."""
    rows = [{"claim": cid, "source": f.source, "data": f.data, "verdict": f.verdict,
             "reason": f.reason, "scale": getattr(f, "scale", "")}
            for (cid, *_), findings in evaluated for f in findings]
    path = path_for(report_path)
    atomic.write_text(path, json.dumps({"report": os.path.basename(report_path),
                                        "verdicts": rows}, indent=1) + "\n")
    return path


def read(reference_report):
    """[{claim, source, data, verdict, reason, scale}] of a reference page, [] when it has none."""
    path = path_for(reference_report)
    try:
        with open(path) as f:
            return json.load(f)["verdicts"]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def why_they_differ(finding, ref):
    """A sentence on why this page's verdict and the reference's differ; "" when they agree."""
    if finding.verdict == ref["verdict"]:
        return ""
    reasons = []
    if getattr(finding, "scale", "") != ref.get("scale", ""):
        reasons.append(f"scale: this page {getattr(finding, 'scale', '') or 'unknown'}; the "
                       f"reference {ref.get('scale') or 'unknown'}")
    if finding.source != ref["source"]:
        reasons.append(f"a different sweep ({ref['source']}, its own axis range)")
    if "precision target" in ref.get("reason", "") + ref.get("scale", ""):
        reasons.append("the reference ran until decided (a precision target)")
    return "; ".join(reasons) or "the same scale: a different seed's Monte Carlo error"


def beside(finding, cid, refs):
    """The reference verdicts of the same claim and data set as this finding."""
    return [r for r in refs if r["claim"] == cid and r.get("data") == finding.data]
