#!/usr/bin/env python3
"""Memory and threads while paging fast through big photos (issue 26's budget).

A folder of PAGES (default 1,000) 24 MP JPEGs (hard links of bench-viewer's
ten generated 6000x4000 q90 photos, so each page is a photo of its own to
the viewer) is paged with `--cache-mb 64`:

- window: photo-browser in a 1920x1080 window under Xvfb, Right pressed
  PAGES - 1 times at 10 a second (`xdotool key --delay 100`), then the
  script waits for the last page's frame;
- scripted: photo-browser's scripted mode (`next` PAGES - 1 times in a
  1920x1080 viewport at scale 1), as fast as it decodes.

Measured: the peak RSS (`/usr/bin/time -v`, and /proc's VmRSS every 10 ms
for the curve printed to stderr) against the budget (the cache + 64 MB),
and the most image threads at work at once (photo-browser's own count,
`ImageWorkers.imageThreadPeak`) against cores + 2. Each run is made RUNS
times (default 3): the table gives the median peak and the range.
CACHE_MB, DELAY_MS and WINDOW_ONLY change the run. Run through `make bench NAME=viewer` (release build).
"""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BROWSER = os.path.join(ROOT, ".build", "release", "photo-browser")
PAGES = int(os.environ.get("PAGES", "1000"))
CACHE_MB = int(os.environ.get("CACHE_MB", "64"))
DELAY_MS = int(os.environ.get("DELAY_MS", "100"))
RUNS = max(1, int(os.environ.get("RUNS", "3")))

# bench-viewer makes the photos and starts Xvfb: one copy of each.
_spec = importlib.util.spec_from_file_location("bench_viewer", os.path.join(os.path.dirname(__file__), "viewer.py"))
viewer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(viewer)


def make_folder():
    viewer.make_photos()
    sources = sorted(os.path.join(viewer.PHOTOS, name) for name in os.listdir(viewer.PHOTOS) if name.endswith(".jpg"))
    folder = os.path.join(viewer.WORK, f"paging-{PAGES}")
    os.makedirs(folder, exist_ok=True)
    for index in range(PAGES):
        path = os.path.join(folder, f"IMG_{index:05d}.jpg")
        if not os.path.exists(path):
            os.link(sources[index % len(sources)], path)
    return folder


class Sampler:
    """Reads the browser's RSS every 10 ms until stopped."""

    def __init__(self, timing_pid):
        self.timing_pid = timing_pid
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def browser_pid(self):
        """The child of /usr/bin/time: the process whose parent it is."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.timing_pid:
                return int(entry)
        return None

    def run(self):
        pid = None
        self.rss = []
        while not self.stopped.is_set():
            pid = pid or self.browser_pid()
            if pid:
                try:
                    with open(f"/proc/{pid}/status") as handle:
                        rss = re.search(r"VmRSS:\s+(\d+) kB", handle.read())
                    if rss:
                        self.rss.append(int(rss.group(1)) // 1024)
                except OSError:
                    pass
            time.sleep(0.01)

    def stop(self):
        self.stopped.set()
        self.thread.join()


def window_run(folder, display):
    trace = tempfile.NamedTemporaryFile(suffix=".trace", delete=False).name
    stats = tempfile.NamedTemporaryFile(suffix=".out", delete=False).name
    timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
    env = dict(os.environ, DISPLAY=display, PHOTODECK_VIEWER_TRACE="1")
    with open(trace, "w") as err, open(stats, "w") as out:
        process = subprocess.Popen(
            ["/usr/bin/time", "-v", "-o", timing, BROWSER, "--display", "window", "--window", "1920x1080", "--stats", "--cache-mb", str(CACHE_MB), folder],
            stdout=out, stderr=err, env=env)
    sampler = Sampler(process.pid)
    viewer.wait_for(lambda: any(line.startswith(f"frame 1/{PAGES}") for line in viewer.frames(trace)), "the first frame")
    window = subprocess.run(["xdotool", "search", "--sync", "--class", "photo-browser"], env=env, capture_output=True, text=True).stdout.split()[0]
    start = time.monotonic()
    subprocess.run(["xdotool", "key", "--window", window, "--delay", str(DELAY_MS)] + ["Right"] * (PAGES - 1), env=env, check=True)
    pressed = time.monotonic() - start
    viewer.wait_for(lambda: any(line.startswith(f"frame {PAGES}/{PAGES}") for line in viewer.frames(trace)), "the last page", timeout=600)
    caught_up = time.monotonic() - start
    drawn = len(viewer.frames(trace))
    subprocess.run(["xdotool", "key", "--window", window, "q"], env=env, stderr=subprocess.DEVNULL)
    process.wait(timeout=60)
    sampler.stop()
    print("window RSS over time (MB):", sampler.rss[:: max(1, len(sampler.rss) // 20)], file=sys.stderr)
    text = open(stats).read()
    peak = viewer.peak_rss(timing)
    for path in (trace, stats, timing):
        os.unlink(path)
    decodes = int(re.search(r"renditions: (\d+) decoded", text).group(1))
    return {"name": "window, Right at 10/s", "peak": peak, "at_work": at_work(text),
            "detail": f"{drawn} frames drawn, {decodes} decoded; keys took {pressed:.1f} s, last page drawn at {caught_up:.1f} s"}


def at_work(text):
    """The most image threads at work at once, as photo-browser counted them."""
    found = re.search(r"image threads: at most (\d+) at work", text)
    return int(found.group(1)) if found else -1


def scripted_run(folder):
    timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
    start = time.monotonic()
    process = subprocess.Popen(
        ["/usr/bin/time", "-v", "-o", timing, BROWSER, "--viewport", "1920x1080", "--scale", "1", "--cache-mb", str(CACHE_MB), folder, "--"]
        + ["next"] * (PAGES - 1), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    sampler = Sampler(process.pid)
    output, _ = process.communicate(timeout=3600)
    sampler.stop()
    elapsed = time.monotonic() - start
    peak = viewer.peak_rss(timing)
    os.unlink(timing)
    cache = re.search(r"cache: (\d+) decodes", output)
    return {"name": "scripted, as fast as it decodes", "peak": peak, "at_work": at_work(output),
            "detail": f"{cache.group(1) if cache else '?'} decoded in {elapsed:.1f} s ({PAGES / elapsed:.1f} pages/s)"}


def median_of(runs):
    """The run with the median peak, its peak shown with the range of all runs; threads: the most seen."""
    ordered = sorted(runs, key=lambda run: run["peak"])
    row = dict(ordered[len(ordered) // 2])
    row["at_work"] = max(run["at_work"] for run in runs)
    row["range"] = f"{ordered[0]['peak']:.0f}-{ordered[-1]['peak']:.0f} MB over {len(runs)} runs" if len(runs) > 1 else "1 run"
    return row


def main():
    for tool in ("Xvfb", "xdotool", "convert"):
        if not subprocess.run(["which", tool], capture_output=True).returncode == 0:
            raise SystemExit(f"{tool} is needed (make bench NAME=viewer installs it)")
    folder = make_folder()
    cores = os.cpu_count()
    rows = [] if os.environ.get("WINDOW_ONLY") else [median_of([scripted_run(folder) for _ in range(RUNS)])]
    server, display = viewer.start_xvfb()
    try:
        rows.insert(0, median_of([window_run(folder, display) for _ in range(RUNS)]))
    finally:
        server.kill()
    budget = CACHE_MB + 64
    table = [
        "<!-- paging:begin -->",
        "## Viewer: memory and threads while paging fast",
        "",
        f"{PAGES} 24 MP JPEGs (hard links of the viewer benchmark's 10 generated 6000x4000 q90 photos), `--cache-mb {CACHE_MB}`, 1920x1080,"
        f" `Benchmarks/Scripts/paging.py`, release build, {cores} cores. Image threads at work: the most pool threads running a job and helper"
        " threads at once, as the process counts them (`ImageWorkers.imageThreadPeak`, printed by `--stats`)."
        " photo-browser calls `ImageMemory.returnLargeBuffersToSystem()` at start.",
        "",
        "| run | peak RSS (median) | range | budget (cache + 64 MB) | image threads at work | cores + 2 | what happened (median run) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        verdict = "within" if row["peak"] <= budget else "over"
        table.append(
            f"| {row['name']} | {row['peak']:.0f} MB ({verdict}) | {row['range']} | {budget} MB | {row['at_work']} | {cores + 2} | {row['detail']} |")
    table += ["", "<!-- paging:end -->"]
    section = "\n".join(table)
    print(section)
    benchmarks.write_section("paging", section)


if __name__ == "__main__":
    main()
