#!/usr/bin/env python3
"""What hostile state and answers cost (issue 34), through the release tools:

- a 65,535 x 1,525 PNG (Tests/Fixtures/bombs/wide-65535x1525.png) fitted to
  64 pixels by photo-fit, beside vipsthumbnail and ImageMagick: peak memory
  (GNU time's maximum resident set size) and median time;
- photo-browser's grid of 16 URLs of that PNG from a loopback server;
- photo-album list on a store whose journal has 3 GiB of NUL bytes after
  its last line (a sparse file);
- photo-browser --once on a URL that sends one byte every 20 s, at the
  loader's default 120 s deadline: total time and requests.

The before figures (81d4ce9, the commit before the fixes) are kept in the
text; the table goes to BENCHMARKS.md between the hostile-state markers.

Run through `make bench NAME=hostile`. Environment: RUNS (default 3), WORK.
"""
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUNS = int(os.environ.get("RUNS", "3"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="bench-hostile-")
RELEASE = os.path.join(ROOT, ".build", "release")
WIDE = os.path.join(ROOT, "Tests", "Fixtures", "bombs", "wide-65535x1525.png")
SAMPLES = os.path.join(ROOT, "Examples", "Samples")


def measured(command, env=None):
    """Wall seconds and peak RSS (MB) of one run, and its exit status."""
    report = os.path.join(WORK, "time.txt")
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report] + command, env={**os.environ, **(env or {})},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    lines = [line for line in open(report).read().split("\n") if line.strip().isdigit()]
    return seconds, int(lines[-1]) / 1024 if lines else float("nan"), done.returncode


def median_run(command, env=None, runs=RUNS):
    results = sorted((measured(command, env) for _ in range(runs)), key=lambda r: r[0])
    middle = results[len(results) // 2]
    return middle[0], max(r[1] for r in results), middle[2]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    handler = lambda *a, **k: Quiet(*a, directory=folder, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def trickle_server(interval):
    """Answers every request with a 100,000-byte declared body, one byte every `interval` seconds."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    requests = []

    def answer(connection):
        try:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n")
            while True:
                connection.sendall(b"\xff")
                time.sleep(interval)
        except OSError:
            pass
        finally:
            connection.close()

    def accept():
        while True:
            connection, _ = listener.accept()
            requests.append(time.monotonic())
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1], requests


def main():
    os.makedirs(WORK, exist_ok=True)
    rows = []
    out = os.path.join(WORK, "out.jpg")
    fit = median_run([os.path.join(RELEASE, "photo-fit"), "--width", "64", "--height", "64", WIDE, out])
    rows.append(("photo-fit --width 64 --height 64, 65,535 x 1,525 PNG", fit, "1.79 GB, 4.0 s"))
    vips = median_run(["vipsthumbnail", WIDE, "-s", "64x64", "-o", os.path.join(WORK, "vips.jpg")])
    rows.append(("vipsthumbnail -s 64x64, same PNG", vips, ""))
    magick = median_run(["convert", WIDE, "-resize", "64x64", os.path.join(WORK, "magick.jpg")])
    refused = " (refused: Debian's policy.xml allows 16K pixels a side)" if magick[2] != 0 else ""
    rows.append((f"ImageMagick convert -resize 64x64, same PNG{refused}", magick, ""))

    pictures = os.path.join(WORK, "www")
    os.makedirs(pictures, exist_ok=True)
    for index in range(1, 17):
        shutil.copy(WIDE, os.path.join(pictures, f"w{index}.png"))
    server = serve(pictures)
    urls = [f"http://127.0.0.1:{server.server_address[1]}/w{index}.png" for index in range(1, 17)]
    grid = []
    for _ in range(RUNS):
        cache = tempfile.mkdtemp(dir=WORK)
        grid.append(measured([os.path.join(RELEASE, "photo-browser"), "--display", "ansi", "--once", "--grid"] + urls,
                             env={"COLUMNS": "100", "LINES": "40", "PHOTODECK_IMAGE_CACHE": cache + "/images", "XDG_CACHE_HOME": cache}))
    grid.sort(key=lambda r: r[0])
    rows.append(("photo-browser --grid, 16 URLs of that PNG", (grid[len(grid) // 2][0], max(r[1] for r in grid), grid[0][2]), "3.58 GB, 29.3 s"))
    server.shutdown()

    store = os.path.join(WORK, "store")
    shutil.rmtree(store, ignore_errors=True)
    subprocess.run([os.path.join(RELEASE, "photo-album"), "--store", store, "import", "--album", "Trip", SAMPLES], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = os.path.join(store, "albums.journal")
    os.truncate(journal, os.path.getsize(journal) + (3 << 30))
    album = median_run([os.path.join(RELEASE, "photo-album"), "--store", store, "list"])
    rows.append(("photo-album list, 3 GiB of NUL after the journal's last line", album, "6.3 GB, 38.6 s"))

    port, requests = trickle_server(20)
    cache = tempfile.mkdtemp(dir=WORK)
    slow = measured([os.path.join(RELEASE, "photo-browser"), "--display", "ansi", "--once", f"http://127.0.0.1:{port}/slow.jpg"],
                    env={"COLUMNS": "80", "LINES": "24", "PHOTODECK_IMAGE_CACHE": cache})
    rows.append((f"photo-browser --once, a byte every 20 s ({len(requests)} request{'s' if len(requests) != 1 else ''})", slow, "721 s (12 requests, the issue says)"))

    lines = [
        "<!-- hostile-state:begin -->",
        "## Hostile state and answers (issue 34)",
        "",
        f"`make bench NAME=hostile` (`Benchmarks/Scripts/hostile.py`), release builds, median of {RUNS} (the slow URL once), peak RSS the largest "
        "of the runs. Before: the same commands on 81d4ce9, the commit before the fixes.",
        "",
        "| case | time | peak RSS | before |",
        "|---|---|---|---|",
    ]
    for name, (seconds, megabytes, status), before in rows:
        note = "" if status == 0 else f" (exit {status})"
        lines.append(f"| {name} | {seconds:.2f} s{note} | {megabytes:.0f} MB | {before} |")
    lines.append("<!-- hostile-state:end -->")
    benchmarks.publish("hostile-state", lines)


if __name__ == "__main__":
    main()
