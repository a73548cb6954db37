#!/bin/bash
# guide-links.sh -- the user guide holds together: every link of a
# chapter (doc/guide/*.md) leads to a file that exists and, with #anchor,
# to a heading of it (as the forge makes anchors of headings); every
# chapter is listed in the guide's contents and in README's "Where to go
# next"; and every doc/guide/FILE that README, --help, the man page and
# the other documentation name exists.
. "${srcdir:-.}/tests/test-lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"

"$PYTHON3" - "$srcdir" >"$tmp/report" 2>&1 <<'PY'
import glob, os, re, sys
top = sys.argv[1]
guide = os.path.join(top, "doc", "guide")

def anchors(path):
    """The anchors the forge gives the headings of a Markdown file."""
    lines = open(path).read().split("\n")
    titles = [l.lstrip("#").strip() for l in lines if re.match(r"#{1,6} ", l)]
    titles += [lines[i - 1] for i in range(1, len(lines))
               if re.fullmatch(r"(=+|-+)", lines[i]) and lines[i - 1].strip()
               and not lines[i - 1].startswith("    ")]
    return {re.sub(r"[^a-z0-9 _-]", "", t.lower()).replace(" ", "-") for t in titles}

chapters = sorted(glob.glob(os.path.join(guide, "*.md")))
for path in chapters:
    text = re.sub(r"(?m)^    .*$", "", open(path).read())   # not in code blocks
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(guide, file)) if file else path
        name = os.path.relpath(path, top)
        if not os.path.exists(dest):
            print(f"{name}: link to {target}: no such file")
        elif anchor and anchor not in anchors(dest):
            print(f"{name}: link to {target}: no such heading")

contents = open(os.path.join(guide, "README.md")).read()
readme = open(os.path.join(top, "README")).read()
for path in chapters:
    base = os.path.basename(path)
    if base == "README.md":
        continue
    if f"]({base})" not in contents:
        print(f"doc/guide/README.md does not list {base}")
    if f"doc/guide/{base}" not in readme:
        print(f"README does not list doc/guide/{base}")

named = [os.path.join(top, f) for f in
         ("README", "NEWS", "bench/README", "doc/gmon2cg.1", "doc/internals.md")]
named += glob.glob(os.path.join(top, "src", "*.[ch]"))
for path in named:
    for ref in set(re.findall(r"doc/guide/[\w.-]+\.md", open(path).read())):
        if not os.path.exists(os.path.join(top, ref)):
            print(f"{os.path.relpath(path, top)} names {ref}, which does not exist")
PY
st=$?
[ "$st" -eq 0 ] && [ ! -s "$tmp/report" ]
check "the guide's links, contents and the names of its chapters all lead somewhere"
diag <"$tmp/report"
finish
