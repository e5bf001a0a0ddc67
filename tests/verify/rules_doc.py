#!/usr/bin/env python3
"""rules_doc.py VISA DOC [--write]

docs/verifier.md's rule table is `visa verify --list-rules --json` (src/verify/rules.def) as
Markdown rows, and its "N rules" line their count.  Without --write: exit 1 (and the first
difference) when DOC's table is not what the rules give; with --write: DOC rewritten so."""
import json
import re
import subprocess
import sys


def rows(visa):
    out = subprocess.run([visa, "verify", "--list-rules", "--json"], stdout=subprocess.PIPE, check=True).stdout
    rules = json.loads(out.decode())["rules"]
    return ["| `%s` | %s | %s | %s | %s |" % (r["id"], r["severity"], r["summary"], r["spec"], r["igc"])
            for r in rules]


def render(doc, table):
    lines = doc.split("\n")
    idx = [i for i, l in enumerate(lines) if l.startswith("| `V-")]
    head = [i for i in idx if i - 1 not in idx]
    if len(head) != 1:
        raise SystemExit("rules_doc: expected one table of | `V-...` rows in the doc")
    start = head[0]
    end = start
    while end < len(lines) and lines[end].startswith("| `V-"):
        end += 1
    new = lines[:start] + table + lines[end:]
    text = "\n".join(new)
    return re.sub(r"^\d+ rules:", "%d rules:" % len(table), text, count=1, flags=re.M)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    with open(argv[2]) as f:
        doc = f.read()
    want = render(doc, rows(argv[1]))
    if "--write" in argv[3:]:
        with open(argv[2], "w") as f:
            f.write(want)
        return 0
    if want == doc:
        return 0
    a, b = doc.split("\n"), want.split("\n")
    n = next(i for i in range(min(len(a), len(b)) + 1) if i >= min(len(a), len(b)) or a[i] != b[i])
    print(f"{argv[2]}:{n + 1}: the rule table is not rules.def's (tests/verify/rules_doc.py VISA DOC --write)",
          file=sys.stderr)
    print(f"  doc:   {a[n] if n < len(a) else '(end)'}\n  rules: {b[n] if n < len(b) else '(end)'}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
