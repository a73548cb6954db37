#!/usr/bin/env python3
"""check_forge.py -- check gmon2cg --compare's reports for forges.

  check_forge.py github REPORT NAME=KIND...
      REPORT is gmon2cg's stdout with --annotations=github: every line
      from the first "::" on is a workflow command as GitHub documents it
      (::error|::warning|::notice, properties key=value separated by ','
      with '%', CR, LF, ':' and ',' escaped, the message with '%', CR and
      LF escaped); its file exists under the current directory and its
      line, when given, is the function NAME's (the name is on the line or
      a few lines above); NAME=KIND (error, warning, notice) are exactly
      the commands written.
  check_forge.py markdown FILE NAME=VERDICT...
      FILE is rendered by the Markdown library (python3-markdown, its
      tables extension) and its table parsed: its header, and per row the
      function (unescaped) and the verdict cell's start; the rows are
      exactly "(total)" and the NAMEs.  Prints each row's cells, one a
      line, tab-separated, for the caller to check its numbers.
  check_forge.py codequality FILE NAME=SEVERITY...
      FILE is GitLab's Code Quality report: a JSON array of objects with
      the fields GitLab documents (description, check_name, fingerprint,
      severity in info/minor/major/critical/blocker, location.path,
      location.lines.begin a positive integer) and no others, unique
      fingerprints, paths of files under the current directory.  Prints
      "NAME<TAB>FINGERPRINT" per issue.
Exit status 0 when all holds, 1 with what does not on stderr.
"""
import html.parser
import json
import os
import re
import sys

problems = []


def problem(what):
    problems.append(what)


def expected(args):
    return dict(a.split("=", 1) for a in args)


def unescape(s, prop):
    table = {"%25": "%", "%0D": "\r", "%0A": "\n"}
    if prop:
        table.update({"%3A": ":", "%2C": ","})
    return re.sub("%(25|0D|0A|3A|2C)", lambda m: table.get(m.group(0), m.group(0)), s)


def function_at(path, line, name):
    """Whether NAME is on line LINE of PATH or in the few lines above."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return False
    return any(name in lines[i] for i in range(max(0, line - 4), min(line, len(lines))))


def check_github(report, want):
    got = {}
    with open(report, encoding="utf-8") as f:
        commands = [l.rstrip("\n") for l in f if l.startswith("::")]
    if not commands:
        problem("no workflow command")
    for c in commands:
        m = re.fullmatch(r"::(error|warning|notice)( ([^:]*))?::(.*)", c)
        if not m:
            problem("not a workflow command: %r" % c)
            continue
        kind, props, message = m.group(1), m.group(3) or "", m.group(4)
        if re.search(r"%(?!25|0D|0A)", message) or "\r" in message:
            problem("an unescaped %% in the message: %r" % c)
        fields = {}
        for p in props.split(",") if props else []:
            key, eq, value = p.partition("=")
            if not eq or key not in ("file", "line", "endLine", "col", "endColumn", "title"):
                problem("bad property %r in %r" % (p, c))
                continue
            if re.search(r"%(?!25|0D|0A|3A|2C)", value):
                problem("an unescaped %% in property %s: %r" % (key, c))
            fields[key] = unescape(value, True)
        title = fields.get("title", "")
        name = unescape(message, False).split(": ", 1)[0]
        if not title.startswith(name):
            problem("title %r does not name %r" % (title, name))
        got[name] = kind
        if name == "total time":
            continue
        path = fields.get("file")
        if not path or os.path.isabs(path) or not os.path.isfile(path):
            problem("%s: file=%r is not a file of the checkout" % (name, path))
        elif "line" in fields and (not fields["line"].isdigit() or
                                   not function_at(path, int(fields["line"]), name)):
            problem("%s: line=%s of %s is not the function's" % (name, fields.get("line"), path))
    if got != want:
        problem("commands %s, expected %s" % (sorted(got.items()), sorted(want.items())))


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_markdown(path, want):
    import markdown
    with open(path, encoding="utf-8") as f:
        text = f.read()
    page = markdown.markdown(text, extensions=["tables"])
    t = Tables()
    t.feed(page)
    header = ["Verdict", "Function", "Source", "Self time, old", "Self time, new",
              "Change", "Calls, old", "Calls, new", "Change"]
    if not t.rows or t.rows[0] != header:
        problem("table header %r" % (t.rows[:1],))
        return
    names = {}
    for row in t.rows[1:]:
        if len(row) != len(header):
            problem("a row of %d cells: %r" % (len(row), row))
            continue
        names[row[1]] = row[0]
        print("\t".join(row))
    if "(total)" not in names:
        problem("no (total) row")
    names.pop("(total)", None)
    for name, verdict in want.items():
        if not names.get(name, "\0").startswith(verdict):
            problem("%s: verdict %r, expected %r" % (name, names.get(name), verdict))
    if set(names) != set(want):
        problem("rows %s, expected %s" % (sorted(names), sorted(want)))
    if "<h3>gmon2cg --compare: " not in page:
        problem("no verdict heading")


def check_codequality(path, want):
    with open(path, encoding="utf-8") as f:
        issues = json.load(f)
    if not isinstance(issues, list):
        problem("not a JSON array")
        return
    got, fingerprints = {}, set()
    for i in issues:
        if not isinstance(i, dict) or set(i) != {"description", "check_name", "fingerprint",
                                                 "severity", "location"}:
            problem("fields of %r" % (i,))
            continue
        for key in ("description", "check_name", "fingerprint"):
            if not isinstance(i[key], str) or not i[key]:
                problem("%s of %r" % (key, i))
        if i["severity"] not in ("info", "minor", "major", "critical", "blocker"):
            problem("severity of %r" % (i,))
        loc = i["location"]
        if not isinstance(loc, dict) or set(loc) != {"path", "lines"} or \
                set(loc.get("lines", {})) != {"begin"} or \
                not isinstance(loc["lines"]["begin"], int) or loc["lines"]["begin"] < 1:
            problem("location of %r" % (i,))
            continue
        if os.path.isabs(loc["path"]) or not os.path.isfile(loc["path"]):
            problem("path %r is not a file of the checkout" % loc["path"])
        if i["fingerprint"] in fingerprints:
            problem("fingerprint %s twice" % i["fingerprint"])
        fingerprints.add(i["fingerprint"])
        name = i["description"].split(": ", 1)[0]
        got[name] = i["severity"]
        print("%s\t%s" % (name, i["fingerprint"]))
    if got != want:
        problem("issues %s, expected %s" % (sorted(got.items()), sorted(want.items())))


def main():
    what, path, want = sys.argv[1], sys.argv[2], expected(sys.argv[3:])
    {"github": check_github, "markdown": check_markdown,
     "codequality": check_codequality}[what](path, want)
    for p in problems:
        print("%s: %s" % (path, p), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
