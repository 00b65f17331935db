#!/usr/bin/env python3
"""Renditions: photo-fit beside vipsthumbnail, ImageMagick, Pillow and a
djpeg -scale | cjpeg lower bound, in one run on the same generated images;
then the JPEG rows against libjpeg-turbo's floor.

For each row it reports the median wall time (hyperfine), the ratio to
vipsthumbnail, the output's PSNR against a reference made by a full decode +
EXIF transpose + Lanczos3 to the same size (Pillow, no draft), and peak
memory (GNU time's maximum resident set size). The table goes to
BENCHMARKS.md between the fit markers.

The floor table times the same work in process, without a process's
start (28 ms of the Swift runtime and its libraries): codec-bench's
rendition plus a quality-85 JPEG encode, against tjbench's decode at the
DCT scale the rendition decodes at plus tjbench's encode of the output size
(4:2:0, quality 85). Each of ROUNDS rounds times all three back to back;
the ratio is the median of the rounds' ratios, so that the machine's
drift between rounds cancels.

Run through `make bench NAME=fit` (installs the tools and builds -c release).
Environment: RUNS (default 10), ROUNDS (default 9), WORK (a folder to keep
generated images in).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import benchmarks

from PIL import Image, ImageChops, ImageOps, ImageStat

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "Tests", "Fixtures", "conformance", "exif-orientation-examples", "Landscape_1.jpg")
RUNS = int(os.environ.get("RUNS", "10"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="bench-fit-")
ROUNDS = int(os.environ.get("ROUNDS", "9"))
PHOTO_FIT = os.path.join(ROOT, ".build", "release", "photo-fit")
CODEC_BENCH = os.path.join(ROOT, ".build", "release", "codec-bench")

PILLOW = r'''
import sys
from PIL import Image, ImageOps
src, out, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
im = Image.open(src)
im.draft("RGB", (w, h))
im = ImageOps.exif_transpose(im)
im.thumbnail((w, h), Image.LANCZOS)
im.convert("RGB").save(out, quality=85)
'''


def run(command, **kwargs):
    return subprocess.run(command, shell=True, check=True, capture_output=True, text=True, **kwargs)


def make_files(commands):
    """Runs each command (`{out}` is its file in WORK) whose file is missing, in order; returns the names made."""
    made = []
    for name, command in commands.items():
        path = os.path.join(WORK, name)
        if not os.path.exists(path):
            run(command.format(out=path))
            made.append(name)
    return made


def make_images():
    """Real photo content, upscaled, with sensor-like noise."""
    images = {
        "24mp.jpg": f"convert '{SOURCE}' -resize '6000x4000!' -attenuate 0.4 +noise Gaussian -quality 90 -sampling-factor 2x2 {{out}}",
        "12mp-o6.jpg": f"convert '{SOURCE}' -resize '4000x3000!' -attenuate 0.4 +noise Gaussian -quality 90 -sampling-factor 2x2 {{out}}",
        "12mp.png": f"convert '{SOURCE}' -resize '4000x3000!' -attenuate 0.2 +noise Gaussian {{out}}",
        "12mp.webp": f"convert '{SOURCE}' -resize '4000x3000!' -attenuate 0.2 +noise Gaussian -quality 85 {{out}}",
    }
    made = make_files(images)
    if "12mp-o6.jpg" in made:
        # Stored sideways, as a phone held upright writes it.
        run(f"exiftool -q -overwrite_original -n -Orientation=6 {os.path.join(WORK, '12mp-o6.jpg')}")
    return {name: os.path.join(WORK, name) for name in images}


def median_ms(command):
    report = os.path.join(WORK, "hyperfine.json")
    run(f"hyperfine -N --warmup 2 --runs {RUNS} --export-json {report} \"{command}\"")
    with open(report) as f:
        return json.load(f)["results"][0]["median"] * 1000


def peak_rss_mb(command):
    result = subprocess.run(f"/usr/bin/time -f '%M' {command}", shell=True, capture_output=True, text=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def psnr(path, source):
    out = Image.open(path).convert("RGB")
    reference = ImageOps.exif_transpose(Image.open(source)).convert("RGB").resize(out.size, Image.LANCZOS, reducing_gap=None)
    squares = ImageStat.Stat(ImageChops.difference(out, reference)).sum2
    mse = sum(squares) / (out.size[0] * out.size[1] * 3)
    return float("inf") if mse == 0 else 10 * __import__("math").log10(255 * 255 / mse)


def decode_scale(stored, target, headroom=2):
    """The DCT scale a rendition decodes at: the smallest of 1/8, 1/4, 1/2
    and 1 that leaves `headroom` times the target (RenditionOptions'
    shrinkOnLoadHeadroom, 2 by default; JPEGCodec.scaling)."""
    for eighths in (1, 2, 4, 8):
        width, height = -(-stored[0] * eighths // 8), -(-stored[1] * eighths // 8)
        if width >= target[0] * headroom and height >= target[1] * headroom:
            return eighths
    return 8


def tjbench_ms(arguments, pixels):
    """Milliseconds per image from tjbench's quiet table (its throughput
    column is megapixels a second of `pixels`)."""
    out = run(f"tjbench {arguments} -benchtime 1 -warmup 0.5 -quiet -nowrite").stdout
    rows = [line.split() for line in out.splitlines() if line.strip() and not line.startswith(("Pixel", "Format", "-"))]
    numbers = [float(field) for field in rows[-1] if re.fullmatch(r"[0-9.]+", field)]
    return pixels / 1e6 / numbers[-1] * 1000 if "-componly" not in arguments else pixels / 1e6 / numbers[-2] * 1000


def floor_rows(images):
    """The JPEG rows in process against tjbench's decode + encode."""
    rows = [("24 MP JPEG -> 1170x2532", images["24mp.jpg"], (1170, 2532)), ("12 MP JPEG, orientation 6 -> 1170x2532", images["12mp-o6.jpg"], (1170, 2532))]
    lines = []
    for label, source, box in rows:
        image = Image.open(source)
        stored = image.size
        upright = ImageOps.exif_transpose(image).size
        scale = min(box[0] / upright[0], box[1] / upright[1], 1)
        output = (round(upright[0] * scale), round(upright[1] * scale))
        stored_target = output if upright == stored else (output[1], output[0])
        eighths = decode_scale(stored, stored_target)
        ppm = os.path.join(WORK, f"floor-{output[0]}x{output[1]}.ppm")
        ImageOps.exif_transpose(Image.open(source)).resize(output, Image.LANCZOS).save(ppm)
        ours, decodes, encodes, ratios = [], [], [], []
        for _ in range(ROUNDS):
            ms = float(run(f"{CODEC_BENCH} {source} --render {box[0]}x{box[1]} --encode 85 --runs 5").stdout.split()[0])
            decode = tjbench_ms(f"{source} -scale {eighths}/8", stored[0] * stored[1])
            encode = tjbench_ms(f"{ppm} 85 -subsamp 420 -componly", output[0] * output[1])
            ours.append(ms)
            decodes.append(decode)
            encodes.append(encode)
            ratios.append(ms / (decode + encode))
        median = lambda values: sorted(values)[len(values) // 2]
        decoded = (-(-stored[0] * eighths // 8), -(-stored[1] * eighths // 8))
        lines.append(
            f"| {label} | {eighths}/8 ({decoded[0]}x{decoded[1]}) | {median(decodes):.1f} ms | {median(encodes):.1f} ms "
            f"| {median(ours):.1f} ms | {median(ratios):.2f}x |")
    return lines


def main():
    images = make_images()
    pillow_script = os.path.join(WORK, "pillow_thumbnail.py")
    with open(pillow_script, "w") as f:
        f.write(PILLOW)
    rows = [
        ("24 MP JPEG -> 1170x2532", images["24mp.jpg"], 1170, 2532, "1/4"),
        ("12 MP JPEG, orientation 6 -> 1170x2532", images["12mp-o6.jpg"], 1170, 2532, "1/2"),
        ("12 MP PNG -> 1920x1080", images["12mp.png"], 1920, 1080, None),
        ("12 MP WebP -> 1920x1080", images["12mp.webp"], 1920, 1080, None),
    ]
    lines = []
    summary = []
    for label, source, width, height, djpeg_scale in rows:
        out = lambda tool: os.path.join(WORK, f"out-{tool}.jpg")
        tools = [
            ("photo-fit", f"{PHOTO_FIT} --width {width} --height {height} --quality 85 {source} {out('photo-fit')}", out("photo-fit")),
            ("vipsthumbnail", f"vipsthumbnail {source} -s {width}x{height} -o {out('vips')}[Q=85]", out("vips")),
            ("ImageMagick", f"convert {source} -auto-orient -thumbnail {width}x{height} -quality 85 {out('magick')}", out("magick")),
            ("Pillow", f"/usr/bin/python3 {pillow_script} {source} {out('pillow')} {width} {height}", out("pillow")),
        ]
        if djpeg_scale:
            tools.append(("djpeg -scale + cjpeg", f"sh -c 'djpeg -scale {djpeg_scale} {source} | cjpeg -quality 85 > {out('djpeg')}'", out("djpeg")))
        results = []
        for tool, command, path in tools:
            ms = median_ms(command)
            rss = peak_rss_mb(command)
            size = Image.open(path).size
            quality = psnr(path, source) if tool != "djpeg -scale + cjpeg" else None
            results.append((tool, ms, rss, size, quality))
        vips_ms = next(ms for tool, ms, *_ in results if tool == "vipsthumbnail")
        for tool, ms, rss, size, quality in results:
            q = "n/a (not resized, not rotated)" if quality is None else f"{quality:.2f} dB"
            lines.append(f"| {label} | {tool} | {ms:.1f} ms | {ms / vips_ms:.2f}x | {size[0]}x{size[1]} | {q} | {rss:.0f} MB |")
            if tool == "photo-fit":
                summary.append(f"{label}: {ms / vips_ms:.2f}x vipsthumbnail")
    floor = floor_rows(images)
    cpu = re.sub(r".*: ", "", next(l for l in open("/proc/cpuinfo") if l.startswith("model name"))).strip()
    table = "\n".join([
        "<!-- fit:begin -->",
        "## Renditions (photo-fit)",
        "",
        f"Measured {time.strftime('%Y-%m-%d', time.gmtime())} on {os.cpu_count()} cores ({cpu}) by `Benchmarks/Scripts/fit.py`",
        f"(`make bench NAME=fit`), medians of {RUNS} runs with hyperfine, whole processes, output JPEG quality 85.",
        "Ratio is against vipsthumbnail (below 1 is faster). PSNR compares each output with a full decode +",
        "EXIF transpose + Lanczos3 to the same size (Pillow, no draft); peak memory is GNU time's maximum RSS.",
        "The djpeg + cjpeg row (a pipe) is a lower bound: libjpeg-turbo's scaled decode alone, not resized to the box",
        "and not rotated.",
        "",
        "| image | tool | median | vs vips | output | PSNR | peak memory |",
        "|---|---|---|---|---|---|---|",
        *lines,
        "",
        "### The JPEG floor",
        "",
        f"The same JPEG rows in process (no process start), {ROUNDS} rounds: codec-bench's rendition plus a quality-85",
        "encode (median of 5 per round) against tjbench's decode at the DCT scale the rendition decodes at (it keeps",
        "twice the target for Lanczos3, as vipsthumbnail does) plus tjbench's encode of the output (4:2:0, quality 85).",
        "The ratio is the median of the rounds' ratios.",
        "",
        "| image | decoded at | tjbench decode | tjbench encode | PhotoDeck rendition + encode | ratio to the floor |",
        "|---|---|---|---|---|---|",
        *floor,
        "<!-- fit:end -->",
    ])
    benchmarks.write_section("fit", table)
    print(table)
    print("\n".join(summary))


if __name__ == "__main__":
    sys.exit(main())
