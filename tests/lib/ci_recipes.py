#!/usr/bin/env python3
"""ci_recipes.py DOC... -- the shell lines of the user guide's GitHub
Actions and GitLab CI recipes, as a pull or merge request's job runs them.

Prints "FORGE<TAB>LINE" per line to run, in order: GitHub's `run:` steps
(a step whose `if:` asks for the main branch left out, one guarded by
hashFiles() run when the file is there), the cache's restore as a copy of
$MAIN/prog.cg.gz into baseline/, the artifact's upload as a check that
its paths exist; GitLab's `script:` lines, then a check that its
artifacts' paths and reports exist.  Last "reports<TAB>JUNIT<TAB>CODEQUALITY",
GitLab's report files.
"""
import sys

import yaml


def block(text, title):
    """The first code block after TITLE in TEXT, as YAML (compare.sh
    checks the recipes' structure with it)."""
    lines, started = [], False
    for line in text[text.index("### " + title):].splitlines()[1:]:
        if line.startswith("    ") or (started and not line):
            started = True
            lines.append(line[4:])
        elif started:
            break
    return yaml.safe_load("\n".join(lines))


def main():
    text = "\n".join(open(f, encoding="utf-8").read() for f in sys.argv[1:])
    for step in block(text, "In GitHub Actions"):
        cond = step.get("if", "")
        if "refs/heads/main" in cond:
            continue
        if "uses" in step:
            if step["uses"].startswith("actions/cache/restore"):
                print("github\tmkdir -p baseline && cp \"$MAIN/prog.cg.gz\" baseline/")
            elif step["uses"].startswith("actions/upload-artifact"):
                print("github\tls %s >/dev/null" % " ".join(step["with"]["path"].split()))
            continue
        run = step["run"]
        if cond.startswith("hashFiles("):
            run = "if [ -f %s ]; then %s; fi" % (cond.split("'")[1], run)
        print("github\t" + run)
    job = block(text, "In GitLab CI")["perf"]
    for line in job["script"]:
        print("gitlab\t" + line)
    reports = job["artifacts"]["reports"]
    print("gitlab\tls %s %s >/dev/null" % (" ".join(job["artifacts"]["paths"]),
                                           " ".join(reports.values())))
    print("reports\t%s\t%s" % (reports.get("junit", ""), reports.get("codequality", "")))


if __name__ == "__main__":
    main()
