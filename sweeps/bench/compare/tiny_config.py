#!/usr/bin/python3
"""A tiny form of a shipped sweep config, for comparing two builds' /trials in seconds: 1 trial
(adaptive: budget 8), N_test = 100, max_steps 300, epochs at most 2, the first two values of
the N axis (N itself at most 200, unless the config sweeps router_N, which runs up to N).

    /usr/bin/python3 sweeps/bench/compare/tiny_config.py CONFIG.ini TINY.ini
"""
import re, sys

def first_two(value):
    v = value.split("#")[0].strip()
    m = re.match(r"^(\d+)\.\.(\d+)\s*x\s*([\d.]+)$", v)
    if m:
        a, f = int(m.group(1)), float(m.group(3))
        return f"{a},{int(round(a * f))}"
    m = re.match(r"^(\d+):(\d+)$", v)
    if m:
        a = int(m.group(1))
        return f"{a},{a + 1}"
    parts = [p.strip() for p in v.split(",")]
    return ",".join(parts[:2])

src, dst = sys.argv[1], sys.argv[2]
# router_N runs up to N: a config sweeping it keeps its N
keep_n = "router_N" in open(src).read()
out, section = [], ""
for line in open(src):
    s = line.strip()
    if s.startswith("["):
        section = s
        out.append(line)
        continue
    m = re.match(r"^(\s*)([A-Za-z_.]+)(\s*)=(\s*)(.*)$", line.rstrip("\n"))
    if not m:
        out.append(line)
        continue
    key, value = m.group(2), m.group(5)
    num = value.split("#")[0].strip()
    if key == "trials" and section == "":
        line = "trials = 1\n"
    elif key == "N_test":
        line = "N_test = 100\n"
    elif key == "max_steps":
        line = "max_steps = 300\n"
    elif key == "epochs" and num.isdigit() and int(num) > 0:
        line = f"epochs = {min(int(num), 2)}\n"
    elif key == "budget" and section == "[adaptive]":
        line = "budget = 8\n"
    elif key == "N" and section in ("", "[grid]") or (key == "N" and section.startswith("[grid")):
        if re.match(r"^\d+$", num):
            line = line if keep_n else f"N = {min(int(num), 200)}\n"
        else:
            line = f"N = {first_two(value)}\n"
    out.append(line)
open(dst, "w").write("".join(out))
