#!/usr/bin/env python3
"""Fails when a public symbol of a library product has no doc comment.

Reads the symbol graphs from `swift package dump-symbol-graph
--minimum-access-level public` (run first, or pass their folder). Symbols
that implement a documented protocol requirement (they carry `sourceOrigin`,
whose documentation DocC inherits), compiler-synthesized ones and property
wrapper projections (`$name`) are exempt.

Usage: python3 scripts/check-docs.py [SYMBOLGRAPH_DIR]
"""
import glob
import json
import os
import subprocess
import sys

# The library products' modules, read from the manifest (one list for every script).
MODULES = subprocess.run(
    [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "module-map.py"), "--libraries"], check=True, capture_output=True, text=True
).stdout.split()


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else None
    if folder is None:
        candidates = glob.glob(".build/*/symbolgraph")
        if not candidates:
            print("no symbol graphs found; run: swift package dump-symbol-graph --minimum-access-level public")
            return 2
        folder = candidates[0]
    missing = []
    checked = 0
    for module in MODULES:
        for path in glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(os.path.join(folder, f"{module}@*.symbols.json")):
            graph = json.load(open(path))
            for symbol in graph.get("symbols", []):
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                identifier = symbol["identifier"]["precise"]
                if "::SYNTHESIZED::" in identifier or "sourceOrigin" in symbol:
                    continue
                # A property wrapper's projection ($reporter) shares the wrapped property's documentation.
                if symbol["pathComponents"][-1].startswith("$"):
                    continue
                checked += 1
                if not symbol.get("docComment", {}).get("lines"):
                    location = symbol.get("location", {})
                    file = location.get("uri", "?").split("/Sources/")[-1]
                    line = location.get("position", {}).get("line", 0) + 1
                    missing.append(f"Sources/{file}:{line}: {'.'.join(symbol['pathComponents'])}")
    for entry in sorted(set(missing)):
        print(f"undocumented public symbol: {entry}")
    print(f"{checked} public symbols checked, {len(set(missing))} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
