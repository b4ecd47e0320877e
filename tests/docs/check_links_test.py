#!/usr/bin/env python3
"""The link checker finds what it must: a missing file and a missing anchor, a .md file named in
prose that the repository does not have, and passes good links and mentions."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_links  # noqa: E402

with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "docs"))
    with open(os.path.join(root, "docs", "a.md"), "w") as f:
        f.write("# A page\n\n## The `run` command: details\n")
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("[ok](docs/a.md) [ok](docs/a.md#the-run-command-details) [web](https://x.org)\n"
                "[gone](docs/b.md) [bad](docs/a.md#nowhere)\n```\n[in code](nothing.md)\n```\n"
                "The format of DESIGN.md, as `a.md` and docs/a.md say; see NAME.md.\n")
    problems = check_links.broken(root)
    assert len(problems) == 3, problems
    assert "docs/b.md: no such file" in problems[0], problems
    assert "#nowhere" in problems[1], problems
    assert "README.md:6: DESIGN.md: mentioned" in problems[2], problems
print("check_links_test: ok")
