#!/usr/bin/env python3
"""Smart crop: how often the subject stays inside the crop, PhotoDeck's
attention and entropy crops beside libvips' `vips smartcrop --interesting
attention` (the engine sharp uses) and the centre crop, on the labelled set
in Tests/Fixtures/smartcrop (48 generated scenes and 8 real photos with a
hand-drawn box); then what a crop costs, photo-fit beside vipsthumbnail.
Writes the tables to BENCHMARKS.md (between the smartcrop markers).

Usage: python3 Benchmarks/Scripts/smartcrop.py   (make bench NAME=smartcrop)
Environment: RUNS (default 11) repetitions per timing; NO_WRITE=1 prints only.

A crop "holds" the subject when at least 90% of the subject's box lies
inside it; "whole" counts boxes wholly inside. Each photo is filled into a
box of the labelled crop's shape, its longer side 256 (a grid cell, a chat
thumbnail; the crop's own when smaller); libvips crops the upright photo at the labelled size directly
(sharp crops the resized image: the same choice, at the resolution of its
32x32 attention map).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests/Fixtures")
SET = os.path.join(FIXTURES, "smartcrop")
RUNS = int(os.environ.get("RUNS", "11"))
BENCH = os.path.join(ROOT, ".build/release/codec-bench")
FIT = os.path.join(ROOT, ".build/release/photo-fit")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def rows():
    for name, base in (("labels.tsv", SET), ("real.tsv", FIXTURES)):
        with open(os.path.join(SET, name)) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                c = line.rstrip("\n").split("\t")
                yield {"file": os.path.join(base, c[0]), "name": c[0], "real": name == "real.tsv",
                       "size": (int(c[1]), int(c[2])), "crop": (int(c[3]), int(c[4])),
                       "box": tuple(int(v) for v in c[5:9]), "subject": c[9]}


def inside(crop, box):
    x, y, w, h = crop
    x0, y0, x1, y1 = box
    ix = max(0, min(x + w, x1) - max(x, x0))
    iy = max(0, min(y + h, y1) - max(y, y0))
    return ix * iy / max(1, (x1 - x0) * (y1 - y0))


def cell(crop):
    w, h = crop
    scale = min(1, 256 / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


def ours(row, strategy):
    w, h = cell(row["crop"])
    out = run(BENCH, row["file"], "--fill", f"{w}x{h}", "--crop", strategy, "--runs", "1").split("\t")
    return tuple(int(v) for v in out[3:7])


def vips(row, upright_dir):
    source = row["file"]
    if row["real"]:
        upright = os.path.join(upright_dir, os.path.basename(source) + ".v")
        run("vips", "autorot", source, upright)
        source = upright
    out = os.path.join(upright_dir, "crop.v")
    run("vips", "smartcrop", source, out, str(row["crop"][0]), str(row["crop"][1]), "--interesting", "attention")
    x = -int(run("vipsheader", "-f", "xoffset", out))
    y = -int(run("vipsheader", "-f", "yoffset", out))
    return (x, y, row["crop"][0], row["crop"][1])


def centre(row):
    (W, H), (w, h) = row["size"], row["crop"]
    return ((W - w) // 2, (H - h) // 2, w, h)


def hit_table(details):
    data = list(rows())
    engines = ["centre", "attention", "entropy", "vips attention"]
    results = {e: [] for e in engines}
    reference = ["# file\tx\ty\twidth\theight: where `vips smartcrop --interesting attention` (libvips " + run("vips", "--version").strip()
                 + ") crops each labelled photo; SmartCropTests compares with it. Written by Benchmarks/Scripts/smartcrop.py."]
    with tempfile.TemporaryDirectory() as scratch:
        for row in data:
            crops = {"centre": centre(row), "attention": ours(row, "attention"), "entropy": ours(row, "entropy"),
                     "vips attention": vips(row, scratch)}
            for engine, crop in crops.items():
                results[engine].append(inside(crop, row["box"]))
            reference.append("\t".join(map(str, [row["name"], *crops["vips attention"]])))
            if details:
                print(row["name"], row["subject"], " ".join(f"{e}={inside(c, row['box']):.2f}" for e, c in crops.items()), file=sys.stderr)
    with open(os.path.join(SET, "vips-attention.tsv"), "w") as f:
        f.write("\n".join(reference) + "\n")
    lines = ["| crop | generated: holds (of 48) | generated: whole | real photos: holds (of 8) | real: whole | all: holds |",
             "|---|---:|---:|---:|---:|---:|"]
    real = [r["real"] for r in data]
    for engine in engines:
        values = results[engine]
        gen = [v for v, r in zip(values, real) if not r]
        rea = [v for v, r in zip(values, real) if r]
        name = {"centre": "PhotoDeck centre", "attention": "PhotoDeck attention", "entropy": "PhotoDeck entropy",
                "vips attention": "`vips smartcrop --interesting attention`"}[engine]
        lines.append(f"| {name} | {sum(v >= 0.9 for v in gen)} | {sum(v >= 0.999 for v in gen)} | "
                     f"{sum(v >= 0.9 for v in rea)} | {sum(v >= 0.999 for v in rea)} | "
                     f"{sum(v >= 0.9 for v in values)} of {len(values)} |")
    return "\n".join(lines)


def median_ms(command):
    """Median wall time of a whole process (hyperfine, no shell)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        subprocess.run(["hyperfine", "-N", "--warmup", "2", "--runs", str(RUNS), "--export-json", report.name, command],
                       check=True, capture_output=True)
        import json
        with open(report.name) as f:
            return json.load(f)["results"][0]["median"] * 1000


def in_process_ms(path, box, strategy):
    return float(run(BENCH, path, "--fill", box, "--crop", strategy, "--runs", str(RUNS)).split("\t")[0])


def time_table(work):
    big = os.path.join(work, "24mp.jpg")
    source = os.path.join(FIXTURES, "conformance/exif-orientation-examples/Landscape_1.jpg")
    run("convert", source, "-resize", "6000x4000!", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "90", "-sampling-factor", "2x2", big)
    scene = os.path.join(SET, "generated/scene05-face.jpg")
    lines = ["| input -> fill box | PhotoDeck centre | PhotoDeck attention | attention / centre | PhotoDeck entropy |"
             " vipsthumbnail centre | vipsthumbnail attention | vips attention / centre | photo-fit attention / vipsthumbnail attention |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, path, (w, h) in (("24 MP JPEG -> 256x256", big, (256, 256)), ("24 MP JPEG -> 1170x2532", big, (1170, 2532)),
                                 ("480x320 scene -> 256x256", scene, (256, 256))):
        out = os.path.join(work, "out.jpg")
        ours = {s: median_ms(f"{FIT} --width {w} --height {h} --crop {s} {path} {out}") for s in ("centre", "attention", "entropy")}
        theirs = {s: median_ms(f"vipsthumbnail {path} -s {w}x{h} --smartcrop {s} -o {out}[Q=85]") for s in ("centre", "attention")}
        lines.append(f"| {label} | {ours['centre']:.1f} ms | {ours['attention']:.1f} ms | {ours['attention'] / ours['centre']:.2f}x | "
                     f"{ours['entropy']:.1f} ms | {theirs['centre']:.1f} ms | {theirs['attention']:.1f} ms | "
                     f"{theirs['attention'] / theirs['centre']:.2f}x | {ours['attention'] / theirs['attention']:.2f}x |")
    inproc = ["| in process (codec-bench), 24 MP JPEG -> 1170x2532 | centre | attention | entropy |", "|---|---:|---:|---:|"]
    values = {s: in_process_ms(big, "1170x2532", s) for s in ("centre", "attention", "entropy")}
    inproc.append(f"| median of {RUNS} | {values['centre']:.1f} ms | {values['attention']:.1f} ms ({values['attention'] / values['centre']:.2f}x) | "
                  f"{values['entropy']:.1f} ms ({values['entropy'] / values['centre']:.2f}x) |")
    return "\n".join(lines), "\n".join(inproc)


def main():
    details = "--details" in sys.argv
    hits = hit_table(details)
    print(hits)
    with tempfile.TemporaryDirectory() as work:
        times, inproc = time_table(work)
    print(times)
    print(inproc)
    cpu = run("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    section = f"""<!-- smartcrop:begin -->
## Smart crop (`make bench NAME=smartcrop`)

Measured {time.strftime('%Y-%m-%d')} on {cpu} ({os.cpu_count()} cores), release build,
libvips {run("vips", "--version").strip()}. `Benchmarks/Scripts/smartcrop.py`.

**How often the subject stays in the crop**, on the labelled set in
`Tests/Fixtures/smartcrop` (48 generated scenes whose subject a centre crop
misses, and 8 real photos from the conformance fixtures with a hand-drawn
box, two of them stored turned). "Holds": at least 90% of the subject's box
inside the crop; "whole": all of it. Each photo is filled into a box of the
labelled crop's shape, its longer side 256; libvips crops the upright photo
at the labelled size.

{hits}

**What it costs**: whole processes (`photo-fit --crop S` and
`vipsthumbnail --smartcrop S`), medians of {RUNS} runs by hyperfine, then the
rendition alone in process.

{times}

{inproc}
<!-- smartcrop:end -->"""
    if os.environ.get("NO_WRITE") != "1":
        benchmarks.write_section("smartcrop", section)


if __name__ == "__main__":
    main()
