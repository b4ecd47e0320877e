#!/usr/bin/python3
"""Every Catch2 test name is one ctest test: catch_discover_tests splits a name at ';' (a CMake
list) and passes a name that starts with '-' to the test binary as an option, so such a test
silently becomes two broken ones. Exit 1 naming each offending TEST_CASE."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
NAME = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')
bad = []
for folder, _, files in os.walk(os.path.join(ROOT, "tests")):
    for f in files:
        if not f.endswith(".cpp"):
            continue
        path = os.path.join(folder, f)
        with open(path, encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                for name in NAME.findall(line):
                    if ";" in name or name.startswith(("-", " ")):
                        bad.append(f"{os.path.relpath(path, ROOT)}:{number}: \"{name}\"")
for b in bad:
    print(f"test name ctest cannot run as one test (no ';', no leading '-' or space): {b}")
sys.exit(1 if bad else 0)
