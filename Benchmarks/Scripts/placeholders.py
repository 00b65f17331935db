#!/usr/bin/env python3
"""Placeholder hashes: PhotoDeck's ThumbHash and BlurHash beside what a
Python developer reaches for (thumbhash-python; blurhash-python, which wraps
Wolt's C encoder), on the same photos, in one run. Writes the table to
BENCHMARKS.md (between the placeholders markers) and prints it.

Usage: python3 Benchmarks/Scripts/placeholders.py   (make bench NAME=placeholders)
Environment: RUNS (default 21) repetitions per measurement.

The Python packages come from PyPI into .build/bench-venv (pip), the only
benchmark whose peers are not Debian packages: Debian ships no BlurHash or
ThumbHash tool.
"""
import os
import statistics
import subprocess
import sys
import tempfile

import benchmarks

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RUNS = int(os.environ.get("RUNS", "21"))
SOURCE = os.path.join(ROOT, "Tests/Fixtures/conformance/exif-orientation-examples/Landscape_1.jpg")
VENV = os.path.join(ROOT, ".build/bench-venv")


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def venv_python():
    python = os.path.join(VENV, "bin/python")
    if not os.path.exists(python):
        run("/usr/bin/python3", "-m", "venv", VENV)
    run(python, "-m", "pip", "install", "--quiet", "blurhash-python==1.2.2", "thumbhash-python==1.0.1", "Pillow")
    return python


PEER = r'''
import sys, time, statistics
from PIL import Image
import blurhash, thumbhash
from thumbhash.encode import rgba_to_thumbhash
path, runs = sys.argv[1], int(sys.argv[2])
def median(body):
    body()
    times = []
    for _ in range(runs):
        t = time.perf_counter(); body(); times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)
def small():
    image = Image.open(path)
    image.draft("RGB", (image.width // 8, image.height // 8))
    image = image.convert("RGB")
    image.thumbnail((100, 100))
    return image
out = {}
out["thumb_bytes"] = median(lambda: thumbhash.image_to_thumbhash(path))
out["blur_bytes"] = median(lambda: blurhash.encode(small(), 4, 3))
pixels = small()
rgba = list(pixels.convert("RGBA").tobytes())
out["thumb_encode"] = median(lambda: rgba_to_thumbhash(pixels.width, pixels.height, rgba))
# blurhash.encode closes the image it is given: a fresh copy per call, made beforehand.
copies = iter([pixels.copy() for _ in range(runs + 1)])
out["blur_encode"] = median(lambda: blurhash.encode(next(copies), 4, 3))
hash_text = thumbhash.image_to_thumbhash(path)
out["thumb_draw"] = median(lambda: thumbhash.thumbhash_to_image(hash_text, 32))
blur_text = blurhash.encode(pixels.copy(), 4, 3)
out["blur_draw"] = median(lambda: blurhash.decode(blur_text, 32, 24))
print(" ".join("%s=%.3f" % item for item in out.items()))
'''


def main() -> int:
    work = os.environ.get("WORK") or tempfile.mkdtemp()
    run("swift", "build", "-c", "release", "--product", "codec-bench", cwd=ROOT)
    bench = os.path.join(ROOT, ".build/release/codec-bench")
    python = venv_python()
    rows = []
    for label, size in (("12 MP", "4000x3000"), ("24 MP", "6000x4000")):
        photo = os.path.join(work, f"{label.replace(' ', '')}.jpg")
        if not os.path.exists(photo):
            run("convert", SOURCE, "-resize", f"{size}!", "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "90", "-sampling-factor", "2x2", photo)
        ours = run(bench, photo, "--placeholders", "--runs", str(RUNS)).split("\t")
        ours_ms = dict(zip(("thumb_bytes", "blur_bytes", "thumb_encode", "blur_encode", "thumb_draw", "blur_draw"), map(float, ours[:6])))
        peer_line = run(python, "-c", PEER, photo, str(RUNS))
        peer = dict((key, float(value)) for key, value in (item.split("=") for item in peer_line.split()))
        floor = statistics.median(
            [float(t) for t in [run("/usr/bin/python3", "-c", f"import subprocess,time;t=time.perf_counter();subprocess.run(['djpeg','-scale','1/8','-outfile','/dev/null','{photo}']);print((time.perf_counter()-t)*1000)") for _ in range(RUNS)]]
        )
        rows.append((label, ours_ms, peer, floor, ours[6].strip(), ours[7].strip()))

    lines = [
        "<!-- placeholders:begin -->",
        "## Placeholder hashes",
        "",
        f"`make bench NAME=placeholders` ({RUNS} runs each, medians, release build, one run; "
        "peers: thumbhash-python 1.0.1 (pure Python, on Pillow) and blurhash-python 1.2.2 (Wolt's C encoder through cffi, "
        "on Pillow's 1/8 draft fitted into 100x100, as its README advises)). "
        "From the bytes: decode at 1/8, fit into 100x100, encode. From the 1/8 decode: PhotoDeck fits and encodes; the peers encode the same fitted pixels. "
        "djpeg -scale 1/8 (a process, its start included) is the decode floor.",
        "",
        "| photo | step | PhotoDeck | peer | PhotoDeck / peer |",
        "|---|---|---:|---:|---:|",
    ]
    for label, ours_ms, peer, floor, thumb, blur in rows:
        def row(step, key, peer_name):
            lines.append(f"| {label} JPEG | {step} | {ours_ms[key]:.2f} ms | {peer_name}: {peer[key]:.2f} ms | {ours_ms[key] / peer[key]:.3f}x |")
        row("ThumbHash from the bytes", "thumb_bytes", "thumbhash-python")
        row("BlurHash 4x3 from the bytes", "blur_bytes", "Pillow draft + blurhash-python")
        row("ThumbHash from the 1/8 decode", "thumb_encode", "thumbhash-python")
        row("BlurHash from the 1/8 decode", "blur_encode", "blurhash-python")
        row("draw the ThumbHash (32 px)", "thumb_draw", "thumbhash-python")
        row("draw the BlurHash (32x24)", "blur_draw", "blurhash-python")
        lines.append(f"| {label} JPEG | decode floor: djpeg -scale 1/8 | | {floor:.2f} ms | |")
    lines += [
        "",
        "Encoding (byte for byte) and drawing (pixel for pixel) equal the reference implementations on the 60 images of "
        "`Tests/Fixtures/placeholders` (the placeholder tests); the peers' hashes of these photos differ from PhotoDeck's "
        "only through their own resizing to 100x100.",
        "<!-- placeholders:end -->",
    ]
    benchmarks.publish("placeholders", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
