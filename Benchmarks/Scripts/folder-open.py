#!/usr/bin/env python3
"""How long a folder takes to open in photo-browser, and what its index costs.

Folders of 1, 2,000, 10,000 and 50,000 hard links of one small JPEG
(page cache warm, as the issue measured), each shown with
`photo-browser --display ansi --once FOLDER` (the first screen, then exit):
the median wall time of RUNS runs (default 15) and the peak RSS
(`/usr/bin/time -v`). The index's cost per photo is the peak RSS over the
one-photo folder's, divided by the photos. `--sort date` (every header
read, then the first photo of that order) is timed beside it.

Run through `make bench NAME=viewer` (release build).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BROWSER = os.path.join(ROOT, ".build", "release", "photo-browser")
WORK = os.environ.get("WORK", os.path.join(ROOT, ".build", "bench-folder-open"))
RUNS = int(os.environ.get("RUNS", "15"))
SIZES = (1, 2000, 10000, 50000)
ENV = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm-256color")


def make_folder(count):
    os.makedirs(WORK, exist_ok=True)
    folder = os.path.join(WORK, f"folder-{count}")
    source = os.path.join(WORK, "one.jpg")
    if not os.path.exists(source):
        subprocess.run(["convert", "-seed", "7", "-size", "640x480", "plasma:", "-quality", "85", source], check=True)
    os.makedirs(folder, exist_ok=True)
    present = len(os.listdir(folder))
    for index in range(present, count):
        os.link(source, os.path.join(folder, f"IMG_{index:05d}.jpg"))
    return folder


def once(folder, extra=()):
    timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
    start = time.monotonic()
    subprocess.run(["/usr/bin/time", "-v", "-o", timing, BROWSER, "--display", "ansi", "--once", *extra, folder],
                   env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    elapsed = (time.monotonic() - start) * 1000
    with open(timing) as report:
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read()).group(1))
    os.unlink(timing)
    return elapsed, rss


def middle(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def measure(folder, extra=()):
    once(folder, extra)  # warm the page cache
    runs = [once(folder, extra) for _ in range(RUNS)]
    return middle([r[0] for r in runs]), middle([r[1] for r in runs])


def main():
    folders = {count: make_folder(count) for count in SIZES}
    results = {count: measure(folders[count]) for count in SIZES}
    by_date = {count: measure(folders[count], ("--sort", "date")) for count in (2000, 10000)}
    one_time, one_rss = results[1]
    table = [
        "<!-- folder-open:begin -->",
        "## Viewer: opening a big folder (photo-browser --display ansi --once)",
        "",
        f"Hard links of one 640x480 JPEG (page cache warm), 100x40 cells; median of {RUNS} runs each, after one warm-up;"
        " `Benchmarks/Scripts/folder-open.py`, release build, 2 cores. Time is the whole process (start, listing, first screen, exit).",
        "",
        "| photos | first screen | × one photo | peak RSS | index per photo |",
        "|---|---|---|---|---|",
    ]
    for count in SIZES:
        elapsed, rss = results[count]
        per_photo = "" if count == 1 else f"{max(0, rss - one_rss) * 1024 / (count - 1):.0f} B"
        table.append(f"| {count:,} | {elapsed:.0f} ms | {elapsed / one_time:.2f}x | {rss / 1024:.1f} MB | {per_photo} |")
    table += [
        "",
        "| photos | `--sort date` (every header read, then the first screen) |",
        "|---|---|",
    ]
    for count, (elapsed, _) in by_date.items():
        table.append(f"| {count:,} | {elapsed:.0f} ms |")
    table += [
        "",
        "Goals (issue 26): a 10,000-photo folder's first screen within 1.2x a one-photo folder's; the folder's index at most 1 KB per photo."
        " Before `FolderPhotos` every file was probed before the first screen: 2,000 photos took 0.75 s against 53 ms for one, 10,000 took 5.4x.",
        "<!-- folder-open:end -->",
    ]
    section = "\n".join(table)
    print(section)
    benchmarks.write_section("folder-open", section)


if __name__ == "__main__":
    main()
