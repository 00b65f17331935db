#!/usr/bin/env python3
"""Groups ThreadSanitizer's reports (files written through TSAN_OPTIONS=log_path).

Usage: tsan-summary.py REPORT_FILE...

Prints how many reports there were and each distinct SUMMARY line with its
count, and exits 1 when there was any: `make test-tsan` is a gate. (The
package's shared state is guarded by SystemSupport's `Lock`, which the
TSan build backs with a pthread mutex TSan intercepts; Synchronization's
Mutex, a futex TSan on Linux cannot see, made every guarded value look
racing, so the reports could not gate before.)
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
    logs = sum(1 for path in sys.argv[1:] if "*" not in path)
    print(f"ThreadSanitizer: {reports} report(s) in {logs} log file(s)")
    for line, count in summaries.most_common():
        print(f"  {count:4d}  {line}")
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
