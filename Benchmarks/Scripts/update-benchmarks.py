#!/usr/bin/env python3
"""Puts a benchmark's section into BENCHMARKS.md (for the shell scripts;
Python scripts call `benchmarks.write_section`).

Reads the section from standard input; it must start with
`<!-- NAME:begin -->` and end with `<!-- NAME:end -->`. The section between
the same markers in BENCHMARKS.md is replaced, or the new one appended.

Usage: ... | python3 Benchmarks/Scripts/update-benchmarks.py NAME
"""
import sys

import benchmarks


def main() -> int:
    try:
        benchmarks.write_section(sys.argv[1], sys.stdin.read())
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
