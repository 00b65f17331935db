#!/usr/bin/env python3
"""Groups ThreadSanitizer's reports (files written through TSAN_OPTIONS=log_path).

Usage: tsan-summary.py REPORT_FILE...

Prints how many reports there were and each distinct SUMMARY line with its
count. TSan on Linux does not see Synchronization.Mutex's locking (a futex
it does not intercept), so a report whose two accesses are both inside a
`Mutex.withLock` body is not evidence of a race; read the rest. Always exits 0:
`make test-tsan` fails on failing or hanging tests, not on this list.
"""
import collections
import re
import sys


def main():
    summaries = collections.Counter()
    reports = 0
    for path in sys.argv[1:]:
        try:
            text = open(path, errors="replace").read()
        except OSError:
            continue
        reports += text.count("WARNING: ThreadSanitizer:")
        for line in re.findall(r"^SUMMARY: ThreadSanitizer: (.*)$", text, flags=re.M):
            # Drop addresses and build ids so equal reports group.
            summaries[re.sub(r"0x[0-9a-f]+|\(BuildId: [0-9a-f]+\)", "", line)[:220]] += 1
    print(f"ThreadSanitizer: {reports} report(s) in {len(sys.argv) - 1} log file(s)")
    for line, count in summaries.most_common():
        print(f"  {count:4d}  {line}")


if __name__ == "__main__":
    main()
