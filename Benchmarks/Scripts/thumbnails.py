#!/usr/bin/env python3
"""Thumbnails: PhotoDeck's Thumbnailer beside vipsthumbnail, and the grid's first screen.

- Cold throughput: 240 files (24 generated 12 MP JPEGs, 4000x3000 q90, each
  hard-linked 10 times: ten paths, ten thumbnails) made into an empty cache
  at the `normal` size (128 px) by `thumbnail-bench` (PhotoDeck's
  Thumbnailer writing the freedesktop cache), and by `vipsthumbnail -s 128`
  writing PNGs, as two processes side by side (2 cores) and as one. Median
  of RUNS runs (default 3), page cache warm.
- Warm: the same files again into the now full cache: how many thumbnails
  were made again (goal 0) and how long reading them took.
- The grid's first screen with a warm cache: `photo-browser --grid --once`
  on a 10,000-photo folder (hard links of one 640x480 JPEG), in kitty's
  protocol at 100x40 cells of 10x20 pixels and in ANSI blocks; median of 10.

Run through `make bench NAME=thumbnails` (release build).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RELEASE = os.path.join(ROOT, ".build", "release")
WORK = os.environ.get("WORK", os.path.join(ROOT, ".build", "bench-thumbnails"))
RUNS = int(os.environ.get("RUNS", "3"))


def middle(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def make_photos():
    originals = os.path.join(WORK, "originals")
    files = os.path.join(WORK, "files")
    os.makedirs(originals, exist_ok=True)
    os.makedirs(files, exist_ok=True)
    for index in range(24):
        path = os.path.join(originals, f"photo-{index:02d}.jpg")
        if not os.path.exists(path):
            subprocess.run(["convert", "-seed", str(index + 1), "-size", "1000x750", "plasma:", "-resize", "4000x3000!", "-quality", "90", path], check=True)
        for copy in range(10):
            link = os.path.join(files, f"photo-{index:02d}-{copy}.jpg")
            if not os.path.exists(link):
                os.link(path, link)
    return sorted(os.path.join(files, name) for name in os.listdir(files))


def timed(command, **kwargs):
    start = time.monotonic()
    result = subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)
    return time.monotonic() - start, result.stdout


def photodeck(folder, cache):
    seconds, output = timed([os.path.join(RELEASE, "thumbnail-bench"), folder, "--cache", cache, "--size", "normal"])
    return seconds, json.loads(output)


def vips(paths, out, processes):
    os.makedirs(out, exist_ok=True)
    chunks = [paths[index::processes] for index in range(processes)]
    start = time.monotonic()
    running = [subprocess.Popen(["vipsthumbnail", "-s", "128", "-o", os.path.join(out, "%s.png"), *chunk], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for chunk in chunks]
    for process in running:
        if process.wait() != 0:
            raise SystemExit("vipsthumbnail failed")
    return time.monotonic() - start


def grid_first_screen(folder, cache_home, display):
    env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm-256color", XDG_CACHE_HOME=cache_home)
    command = [os.path.join(RELEASE, "photo-browser"), "--display", display, "--once", "--grid", "--stats", folder]
    first = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout  # fills the cache
    times, lines = [], []
    for _ in range(10):
        start = time.monotonic()
        output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
        times.append((time.monotonic() - start) * 1000)
        lines.append(next(line for line in output.splitlines() if line.startswith("thumbnails:")))
    made = next(line for line in first.splitlines() if line.startswith("thumbnails:"))
    return middle(times), made, lines[-1]


def big_folder():
    folder = os.path.join(WORK, "folder-10000")
    source = os.path.join(WORK, "one.jpg")
    if not os.path.exists(source):
        subprocess.run(["convert", "-seed", "7", "-size", "640x480", "plasma:", "-quality", "85", source], check=True)
    os.makedirs(folder, exist_ok=True)
    for index in range(len(os.listdir(folder)), 10000):
        os.link(source, os.path.join(folder, f"IMG_{index:05d}.jpg"))
    return folder


def main():
    for tool in ("vipsthumbnail", "convert"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is needed (make bench NAME=thumbnails installs it)")
    paths = make_photos()
    folder = os.path.dirname(paths[0])
    cold, warm, vips2, vips1, reports, warm_reports = [], [], [], [], [], []
    for _ in range(RUNS):
        cache = tempfile.mkdtemp(dir=WORK, prefix="cache-")
        seconds, report = photodeck(folder, cache)
        cold.append(seconds)
        reports.append(report)
        seconds, report = photodeck(folder, cache)
        warm.append(seconds)
        warm_reports.append(report)
        shutil.rmtree(cache)
        out = tempfile.mkdtemp(dir=WORK, prefix="vips-")
        vips2.append(vips(paths, out, 2))
        shutil.rmtree(out)
        out = tempfile.mkdtemp(dir=WORK, prefix="vips-")
        vips1.append(vips(paths, out, 1))
        shutil.rmtree(out)
    count = len(paths)
    best_vips = min(middle(vips2), middle(vips1))
    grid_home = tempfile.mkdtemp(dir=WORK, prefix="grid-")
    big = big_folder()
    kitty = grid_first_screen(big, grid_home, "kitty")
    ansi = grid_first_screen(big, grid_home, "ansi")
    shutil.rmtree(grid_home)
    table = [
        "<!-- thumbnails:begin -->",
        "## Thumbnails: the freedesktop cache and the grid",
        "",
        f"{count} files (24 generated 4000x3000 q90 JPEGs, each hard-linked 10 times: ten paths, ten thumbnails), `normal` size (128 px), page cache warm;"
        f" median of {RUNS} runs; `Benchmarks/Scripts/thumbnails.py`, release build, 2 cores.",
        "",
        "| tool | time | thumbnails/s | × vipsthumbnail (best) |",
        "|---|---|---|---|",
        f"| PhotoDeck `Thumbnailer`, empty cache (PNG + text chunks written, 0600) | {middle(cold):.2f} s | {count / middle(cold):.0f} | {best_vips / middle(cold):.2f}x |",
        f"| vipsthumbnail -s 128 → PNG, 2 processes | {middle(vips2):.2f} s | {count / middle(vips2):.0f} | |",
        f"| vipsthumbnail -s 128 → PNG, 1 process | {middle(vips1):.2f} s | {count / middle(vips1):.0f} | |",
        f"| PhotoDeck `Thumbnailer`, the cache it filled | {middle(warm):.2f} s | {count / middle(warm):.0f} | |",
        "",
        f"Where the thumbnails came from: empty cache {json.dumps({k: reports[-1][k] for k in ('cache', 'embedded', 'decoded', 'failed', 'store_errors')})};"
        f" full cache {json.dumps({k: warm_reports[-1][k] for k in ('cache', 'embedded', 'decoded', 'failed', 'store_errors')})} (goal: 0 made again).",
        "",
        "The grid's first screen, warm cache, 10,000-photo folder (`photo-browser --grid --once`, 100x40 cells; the whole process):",
        "",
        "| output | first screen | first run (filled the cache) | warm run |",
        "|---|---|---|---|",
        f"| kitty (1000x780 px: 20 cells of 195 px, `large` thumbnails) | {kitty[0]:.0f} ms | {kitty[1]} | {kitty[2]} |",
        f"| ANSI blocks (100x78 px: 20 cells of 19 px, `normal` thumbnails) | {ansi[0]:.0f} ms | {ansi[1]} | {ansi[2]} |",
        "",
        "Goals (issue 26): warm first grid screen of a 10,000-photo folder ≤ 300 ms; cold throughput ≥ vipsthumbnail's on 2 cores; 0 thumbnails made again.",
        "<!-- thumbnails:end -->",
    ]
    section = "\n".join(table)
    print(section)
    benchmarks.write_section("thumbnails", section)


if __name__ == "__main__":
    main()
