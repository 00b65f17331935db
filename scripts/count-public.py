#!/usr/bin/env python3
"""Counts each library module's public API, two ways.

- `public` declarations: lines of its sources that declare something with
  the `public` (or `open`) modifier, what a reader of the source sees.
- symbols: the public symbols of its symbol graph (`swift package
  dump-symbol-graph --minimum-access-level public`), members, enum cases
  and protocol witnesses included, compiler-synthesized ones excluded.

Usage: python3 scripts/count-public.py [SYMBOLGRAPH_DIR]
"""
import glob
import json
import os
import re
import subprocess
import sys

# The library products' modules, read from the manifest (one list for every script).
MODULES = subprocess.run(
    [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-map.py"), "--libraries"], check=True, capture_output=True, text=True
).stdout.split()
DECLARATION = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*(public|open)\s")


def declarations(module: str) -> int:
    count = 0
    for path in glob.glob(f"Sources/{module}/**/*.swift", recursive=True):
        with open(path) as source:
            count += sum(1 for line in source if DECLARATION.match(line) and "public import" not in line)
    return count


def symbols(folder: str, module: str) -> int:
    count = 0
    for path in glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(os.path.join(folder, f"{module}@*.symbols.json")):
        for symbol in json.load(open(path)).get("symbols", []):
            if symbol.get("accessLevel") in ("public", "open") and "::SYNTHESIZED::" not in symbol["identifier"]["precise"]:
                count += 1
    return count


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else next(iter(glob.glob(".build/*/symbolgraph")), None)
    print("| module | `public` declarations | public symbols |")
    print("|---|---:|---:|")
    for module in MODULES:
        if not os.path.isdir(f"Sources/{module}"):
            continue
        graph = symbols(folder, module) if folder else "-"
        print(f"| {module} | {declarations(module)} | {graph} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
