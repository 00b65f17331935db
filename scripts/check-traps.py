#!/usr/bin/env python3
"""Fails on Foundation calls that trap instead of throwing when a signal
interrupts them.

On Linux, swift-corelibs-foundation's `FileHandle.availableData`,
`readDataToEndOfFile()` and `readData(ofLength:)` are `try!` around a
`read(2)` that is not retried on EINTR; a process with dispatch signal
sources (Foundation's `Process` installs one for SIGCHLD) does get EINTR,
and the process dies ("'try!' expression unexpectedly raised an error ...
Interrupted system call"). CI's release test run died of it once.
`readToEnd()` and `read(upToCount:)` throw the EINTR instead: a failure
by chance, refused too. Read
with TestSupport's `bytes(readingToEndOf:limit:)` or
`bytes(availableFrom:)`, or SystemSupport's descriptors, instead.

  check-traps.py             list the calls in Sources/, Examples/, Tests/,
                             Benchmarks/ and Fuzz/; exit 1 if any
  check-traps.py --self-test check the reader on samples, exit 1 on a miss
"""
import pathlib
import re
import sys

from swift_source import code_of, findings_in, self_test

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("Sources", "Examples", "Tests", "Benchmarks", "Fuzz")
TRAPS = re.compile(r"(?<!FileSystem)\.\s*(availableData\b|readDataToEndOfFile\s*\(|readData\s*\(\s*ofLength\b|readToEnd\s*\(\s*\)|read\s*\(\s*upToCount\b)")


def traps_in(text):
    """The line of each trapping call in Swift source `text`."""
    code = code_of(text)
    return sorted({code.count("\n", 0, m.start()) + 1 for m in TRAPS.finditer(code)})


def findings():
    return findings_in(ROOT, FOLDERS, traps_in)


SAMPLES = [
    ("let data = pipe.fileHandleForReading.readDataToEndOfFile()", [1]),
    ("let chunk = handle.availableData", [1]),
    ("let all = try handle.readToEnd() ?? Data()", [1]),
    ("func readToEnd() throws {", []),
    ("let text = try FileSystem.readToEnd(path, limit: 10)", []),
    ('let text = try FileSystem.readToEnd("/proc/self/status")', []),
    ("let x = h\n    .readData(ofLength: 4)", [2]),
    ("// handle.availableData traps", []),
    ('let s = "readDataToEndOfFile()"', []),
    ("let bytes = try bytes(availableFrom: handle)", []),
]


def main(argv):
    if "--self-test" in argv:
        return self_test(SAMPLES, traps_in)
    found = list(findings())
    for path, line in found:
        print(f"{path}:{line}: traps on EINTR: read with bytes(readingToEndOf:limit:) or bytes(availableFrom:)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
