#!/usr/bin/env python3
"""Key press to frame presented in photo-browser's window, under Xvfb.

Ten generated 24 MP JPEGs (6000x4000, quality 90) shown in a 1920x1080
window. Two runs, each pressing Right nine times:

- prefetched: the default cache (96 MB); after each frame the script waits
  1.5 s so the neighbours' prefetch can finish, as a person looking at a
  photo would;
- on demand: a 1 MB cache, which holds no 1620x1080 rendition, so every
  turn decodes (the prefetches are wasted work).

photo-browser measures from the key event it receives to the frame it has
presented (`--stats`); peak memory is the process's maximum RSS
(`/usr/bin/time -v`). Run through `make bench NAME=viewer`; RUNS (default 1)
repeats each run and pools the samples.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BROWSER = os.environ.get("BROWSER", os.path.join(ROOT, ".build", "release", "photo-browser"))
WORK = os.environ.get("WORK", os.path.join(ROOT, ".build", "bench-viewer"))
RUNS = int(os.environ.get("RUNS", "1"))
PHOTOS = os.path.join(WORK, "photos")


def make_photos():
    os.makedirs(PHOTOS, exist_ok=True)
    for index in range(10):
        path = os.path.join(PHOTOS, f"photo-{index:02d}.jpg")
        if os.path.exists(path):
            continue
        # A seeded plasma (smooth, photo-like) scaled up to 24 MP.
        subprocess.run(["convert", "-seed", str(index + 1), "-size", "1500x1000", "plasma:", "-resize", "6000x4000!", "-quality", "90", path], check=True)


def start_xvfb():
    process = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    number = process.stdout.readline().decode().strip()
    return process, f":{number}"


def frames(trace):
    with open(trace) as handle:
        return [line for line in handle if line.startswith("frame ")]


def wait_for(condition, what, timeout=120):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


def run(display, cache_mb, settle):
    trace = tempfile.NamedTemporaryFile(suffix=".trace", delete=False).name
    stats = tempfile.NamedTemporaryFile(suffix=".out", delete=False).name
    timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
    env = dict(os.environ, DISPLAY=display, PHOTODECK_VIEWER_TRACE="1")
    with open(trace, "w") as err, open(stats, "w") as out:
        process = subprocess.Popen(["/usr/bin/time", "-v", "-o", timing, BROWSER, "--display", "window", "--window", "1920x1080", "--stats", "--cache-mb", str(cache_mb), PHOTOS],
                                   stdout=out, stderr=err, env=env)
    wait_for(lambda: any(line.startswith("frame 1/10") for line in frames(trace)), "the first frame")
    window = subprocess.run(["xdotool", "search", "--sync", "--class", "photo-browser"], env=env, capture_output=True, text=True).stdout.split()[0]
    for page in range(2, 11):
        time.sleep(settle)
        seen = len(frames(trace))
        subprocess.run(["xdotool", "key", "--window", window, "Right"], env=env, check=True)
        wait_for(lambda: any(line.startswith(f"frame {page}/10") for line in frames(trace)[seen:]), f"page {page}")
    subprocess.run(["xdotool", "key", "--window", window, "q"], env=env, stderr=subprocess.DEVNULL)
    process.wait(timeout=60)
    text = open(stats).read()
    rss = peak_rss(timing)
    for path in (trace, stats, timing):
        os.unlink(path)
    return text, rss


def peak_rss(timing):
    """The peak RSS in MB from a `/usr/bin/time -v` report."""
    with open(timing) as report:
        return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read()).group(1)) / 1024


def parse(text):
    first = float(re.search(r"first frame: ([\d.]+) ms", text).group(1))
    decodes = int(re.search(r"renditions: (\d+) decoded", text).group(1))
    output = re.search(r"output: (.*)", text)
    drawing = re.search(r"drawing: upload median ([\d.]+) ms, present median ([\d.]+) ms", text)
    upload, present = (float(drawing.group(1)), float(drawing.group(2))) if drawing else (float("nan"), float("nan"))
    return first, decodes, output.group(1) if output else "unknown", upload, present


def djpeg_reference():
    """The machine's speed at the moment: djpeg's 1/2-scale decode of one photo (median of 5)."""
    times = []
    for _ in range(5):
        start = time.monotonic()
        subprocess.run(["djpeg", "-scale", "1/2", "-outfile", os.devnull, os.path.join(PHOTOS, "photo-00.jpg")], check=True)
        times.append((time.monotonic() - start) * 1000)
    return middle(times)


def middle(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main():
    for tool in ("Xvfb", "xdotool", "convert", "djpeg"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is needed (make bench NAME=viewer installs it)")
    make_photos()
    reference_before = djpeg_reference()
    server, display = start_xvfb()
    rows = []
    output = "unknown"
    try:
        # What a window costs before any photo: one tiny sample shown once.
        timing = tempfile.NamedTemporaryFile(suffix=".time", delete=False).name
        tiny = os.path.join(ROOT, "Examples", "Samples", "rounded-alpha.png")
        subprocess.run(["/usr/bin/time", "-v", "-o", timing, BROWSER, "--display", "window", "--once", "--window", "1920x1080", tiny],
                       env=dict(os.environ, DISPLAY=display), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        baseline = peak_rss(timing)
        os.unlink(timing)
        for name, cache_mb, settle in (("prefetched (96 MB cache)", 96, 1.5), ("on demand (1 MB cache)", 1, 0.2)):
            samples, firsts, decodes, peaks, uploads, presents = [], [], [], [], [], []
            for _ in range(RUNS):
                text, rss = run(display, cache_mb, settle)
                first, decoded, output, upload, present = parse(text)
                uploads.append(upload)
                presents.append(present)
                firsts.append(first)
                decodes.append(decoded)
                peaks.append(rss)
                line = re.search(r"input to frame \(ms\):(.*)", text).group(1)
                samples += [float(value) for value in line.split()]
            samples.sort()
            def pick(p):
                return samples[min(len(samples) - 1, max(0, -(-len(samples) * p // 100) - 1))]
            rows.append((name, len(samples), samples[len(samples) // 2] if samples else 0, pick(95), samples[-1], middle(firsts), max(decodes), max(peaks), middle(uploads), middle(presents)))
    finally:
        server.kill()
    reference_after = djpeg_reference()
    table = [
        "<!-- viewer:begin -->",
        "## Viewer: key press to frame (photo-browser window, Xvfb)",
        "",
        f"10 generated 24 MP JPEGs (6000x4000, q90) in a 1920x1080 window (each page a 1620x1080 rendition), Right pressed 9 times per run, {RUNS} run(s) each (first frame: the median run); `Benchmarks/Scripts/viewer.py`, release build, Xvfb, 2 cores. The window drew with: {output}.",
        "",
        "| run | turns | median | p95 | max | first frame | decodes | peak RSS | upload | present |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, count, median, p95, maximum, first, decoded, peak, upload, present in rows:
        table.append(
            f"| {name} | {count} | {median:.1f} ms | {p95:.1f} ms | {maximum:.1f} ms | {first:.0f} ms | {decoded} | {peak:.0f} MB | {upload:.1f} ms | {present:.1f} ms |")
    table += [
        "",
        "Goals: p95 under 16 ms when prefetched, first frame under 150 ms, peak memory under the cache budget + 64 MB (160 MB).",
        "",
        f"The machine's speed in this run, for scale: `djpeg -scale 1/2` of one of the photos took {reference_before:.0f} ms before the runs and {reference_after:.0f} ms after"
        " (a whole process; the first frame's decode is the same work plus the resize). On this shared machine it has measured from 80 to 120 ms.",
        "",
        "*Upload* and *present* are medians over every frame of a run (the median run), from `--stats`: upload is the page's texture (refilled in place,"
        " RGB to XRGB) and its copy into the frame, present is `SDL_RenderPresent` (SDL's software renderer into the X server's shared memory; SDL's"
        " default, a window framebuffer drawn through OpenGL, which Mesa runs on the CPU as llvmpipe under Xvfb, took 10-20 ms per present and 110 MB"
        " more memory). A prefetched turn is those two plus the controller's cache hit (about 0.1 ms) and sharing the cores with the next pages'"
        " prefetch, which runs on ImageWorkers' background threads (nice 10)."
        " The first frame is one 24 MP decode at 1/2 DCT scale (`RenditionOptions.interactive`) with the resize running beside it, while SDL"
        " opens the window and presents a black frame, then the first upload and present.",
        f"A window showing one tiny PNG peaks at {baseline:.0f} MB here (the Swift runtime, the codec libraries, SDL and X11); the photos add the rest:"
        " the cache (at most 96 MB; about 26 MB of it used by five 1620x1080 renditions) and the concurrent 3000x2000 DCT-scaled decodes (the shown page's and up to two prefetches) with their resampling buffers.",
        "<!-- viewer:end -->",
    ]
    section = "\n".join(table)
    print(section)
    benchmarks.write_section("viewer", section)


if __name__ == "__main__":
    main()
