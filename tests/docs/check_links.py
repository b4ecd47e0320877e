#!/usr/bin/env python3
"""Every relative link in README.md and docs/ resolves: the file exists and, for `file.md#anchor`,
the anchor is one of the target's headings (GitHub's slugs). So does every mention of a `.md`
file in prose ("the INI format of DESIGN.md"): a path from the page or the repository's root, or a
bare name that some file of the repository has (MODEL.md is docs/MODEL.md). Usage:
check_links.py ROOT. Exits 1 listing every broken link, 0 when all resolve."""
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
# A .md file named in prose or inline code (not a link's target: those are links); a name in
# capitals with no lower case but "md" is a placeholder only when it says so (NAME.md).
MENTION = re.compile(r"(?<![\w/.-])((?:\.\./|\./)*[\w.-]*(?:/[\w.-]+)*\.md)(?![\w/])")
PLACEHOLDERS = {"NAME.md", "FILE.md", "PAGE.md"}


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            elif not fence and line.startswith("#"):
                found.add(slug(line.lstrip("#")))
    return found


def prose_lines(path):
    """(line number, line) of a page outside its fenced code blocks."""
    fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fence = not fence
            elif not fence:
                yield number, line


def links(path):
    for number, line in prose_lines(path):
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, m.group(1) or m.group(2)


def mentions(path):
    """(line number, name) of every .md file a page names outside links and code blocks."""
    for number, line in prose_lines(path):
        prose = LINK.sub(" ", line.replace("`", " "))
        for m in MENTION.finditer(prose):
            if m.group(1).split("/")[-1] not in PLACEHOLDERS:
                yield number, m.group(1)


def repository_names(root):
    """The base names of every file of the repository (not its build folders)."""
    names = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        names.update(files)
    return names


def broken_mentions(root, pages):
    names = repository_names(root)
    out = []
    for page in pages:
        for number, name in mentions(page):
            here = os.path.normpath(os.path.join(os.path.dirname(page), name))
            if os.path.exists(here) or os.path.exists(os.path.join(root, name)):
                continue
            if "/" not in name and name in names:
                continue
            out.append(f"{os.path.relpath(page, root)}:{number}: {name}: mentioned, but the "
                       "repository has no such file")
    return out


def broken(root):
    pages = [os.path.join(root, "README.md")]
    for folder, _, files in os.walk(os.path.join(root, "docs")):
        pages += [os.path.join(folder, f) for f in files if f.endswith(".md")]
    out = []
    for page in sorted(pages):
        for number, target in links(page):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
            where = f"{os.path.relpath(page, root)}:{number}: {target}"
            if not os.path.exists(dest):
                out.append(f"{where}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                out.append(f"{where}: no heading with anchor #{anchor}")
    return out + broken_mentions(root, sorted(pages))


if __name__ == "__main__":
    problems = broken(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in problems:
        print(p)
    print(f"check_links: {len(problems)} broken link(s)" if problems else "check_links: every link resolves")
    sys.exit(1 if problems else 0)
