#!/usr/bin/env python3
"""Puts a benchmark's section into BENCHMARKS.md.

Reads the section from standard input; it must start with
`<!-- NAME:begin -->` and end with `<!-- NAME:end -->`. The section between
the same markers in BENCHMARKS.md is replaced, or the new one appended.

Usage: ... | python3 scripts/update-benchmarks.py NAME
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main() -> int:
    name = sys.argv[1]
    section = sys.stdin.read().strip("\n")
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if not (section.startswith(begin) and section.endswith(end)):
        print(f"the section must start with {begin} and end with {end}", file=sys.stderr)
        return 1
    path = os.path.join(ROOT, "BENCHMARKS.md")
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\nEvery figure here comes from a script in `scripts/`; rerun it to refresh its section.\n"
    if begin in text:
        text = re.sub(re.escape(begin) + r".*" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    open(path, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
