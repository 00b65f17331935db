#!/usr/bin/env python3
"""What keeping an HDR gain map costs photo-fit: `photo-fit --width 1080
--height 1080` of a 12 MP Ultra HDR JPEG (a 1000x750 grey map, as
libultrahdr's default quarter-size map) against the same photo without
its map, whole processes, in interleaved rounds (benchmarks.interleaved);
the goal is at most 1.15x. Beside it, the 24 MP JPEG fit (6000x4000 q90
into 1170x2532 q85) against `djpeg -scale 2/8 | cjpeg -quality 85`, with
each side's fixed process cost (the same tools on an 8x8 JPEG) to show
how much of the gap is process start. The section goes to BENCHMARKS.md.

Run through `make bench NAME=gainmap`. Environment: ROUNDS (default 15),
WORK (a folder to keep the generated images in).
"""
import os
import statistics
import subprocess
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "Tests", "Fixtures", "conformance", "exif-orientation-examples", "Landscape_1.jpg")
ROUNDS = int(os.environ.get("ROUNDS", "15"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="bench-gainmap-")
BIN = os.path.join(ROOT, ".build", "release")


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def main():
    plain = os.path.join(WORK, "12mp.jpg")
    grey = os.path.join(WORK, "map.jpg")
    hdr = os.path.join(WORK, "12mp-ultrahdr.jpg")
    if not os.path.exists(hdr):
        run("convert", SOURCE, "-resize", "4000x3000!", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "90", "-sampling-factor", "2x2", plain)
        run("convert", plain, "-colorspace", "Gray", "-resize", "1000x750!", "-quality", "85", grey)
        run(os.path.join(BIN, "codec-bench"), plain, "--ultra-hdr", grey, "--out", hdr)
    out = os.path.join(WORK, "out.jpg")
    fit = os.path.join(BIN, "photo-fit")
    commands = {
        "without a map": [fit, "--width", "1080", "--height", "1080", plain, out],
        "Ultra HDR, map kept": [fit, "--width", "1080", "--height", "1080", hdr, out],
        "Ultra HDR, --drop-gain-map": [fit, "--drop-gain-map", "--width", "1080", "--height", "1080", hdr, out],
    }
    big = os.path.join(WORK, "24mp.jpg")
    tiny = os.path.join(WORK, "tiny.jpg")
    if not os.path.exists(big):
        run("convert", SOURCE, "-resize", "6000x4000!", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "90", "-sampling-factor", "2x2", big)
        run("convert", "-size", "8x8", "xc:gray", tiny)
    pipe = "djpeg -scale 2/8 '{}' | cjpeg -quality 85 > '{}'"
    commands.update({
        "24 MP: photo-fit": [fit, "--width", "1170", "--height", "2532", "--quality", "85", big, out],
        "24 MP: djpeg -scale 2/8, piped to cjpeg": ["sh", "-c", pipe.format(big, out + ".pipe.jpg")],
        "8x8: photo-fit": [fit, tiny, out],
        "8x8: djpeg, piped to cjpeg": ["sh", "-c", pipe.format(tiny, out + ".pipe.jpg")],
    })
    times = benchmarks.interleaved(commands, ROUNDS)
    medians = {name: statistics.median(w for w, _ in samples) for name, samples in times.items()}
    whole = medians["24 MP: photo-fit"] / medians["24 MP: djpeg -scale 2/8, piped to cjpeg"]
    work = (medians["24 MP: photo-fit"] - medians["8x8: photo-fit"]) / (medians["24 MP: djpeg -scale 2/8, piped to cjpeg"] - medians["8x8: djpeg, piped to cjpeg"])
    base = statistics.median(wall for wall, _ in times["without a map"])
    summary = run(fit, "--width", "1080", "--height", "1080", hdr, out).strip()
    cpu = run("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    lines = [
        "<!-- gainmap:begin -->",
        "## HDR gain maps (`make bench NAME=gainmap`)",
        "",
        f"Measured {time.strftime('%Y-%m-%d')} on {cpu} ({os.cpu_count()} cores), release build, by",
        "`Benchmarks/Scripts/gainmap.py`: `photo-fit --width 1080 --height 1080` of a 12 MP JPEG, whole processes,",
        f"medians of {ROUNDS} interleaved rounds. The Ultra HDR file is the same photo with a 1000x750 grey map;",
        f"photo-fit says: `{summary.split(': ', 1)[-1]}`. Goal: keeping the map costs at most 1.15x.",
        "",
        "| input | median wall | median CPU | vs without a map |",
        "|---|---:|---:|---:|",
    ]
    for name, samples in times.items():
        if name.startswith(("24 MP", "8x8")):
            continue
        wall = statistics.median(w for w, _ in samples)
        cpu_time = statistics.median(c for _, c in samples)
        lines.append(f"| {name} | {wall * 1000:.1f} ms | {cpu_time * 1000:.1f} ms | {wall / base:.2f}x |")
    lines += [
        "",
        "The 24 MP JPEG fit against libjpeg-turbo's floor (goal 1.1x), the same rounds; the 8x8 rows are each side's fixed",
        "cost of a process (photo-fit loads the Swift runtime and every codec library it links):",
        "",
        "| command | median wall | median CPU |",
        "|---|---:|---:|",
    ]
    for name, samples in times.items():
        if name.startswith(("24 MP", "8x8")):
            lines.append(f"| {name} | {medians[name] * 1000:.1f} ms | {statistics.median(c for _, c in samples) * 1000:.1f} ms |")
    lines += ["", f"Whole processes: {whole:.2f}x. Without each side's fixed cost (the work alone): {work:.2f}x.", "<!-- gainmap:end -->"]
    benchmarks.publish("gainmap", lines)


if __name__ == "__main__":
    main()
