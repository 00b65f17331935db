#!/usr/bin/env python3
"""HEIC and AVIF renditions and the cost of colour management.

Rows: 12 MP HEIC and AVIF (made with heif-enc from the same generated photo)
-> 1170x2532 fit, JPEG q85, by photo-fit beside vipsthumbnail (which reads
HEIF through the same libheif) and heif-convert + vipsthumbnail (libheif's
own decode to PNG, then a resize). PSNR is against the PNG the HEIF files
were made from, resized with Pillow's Lanczos: codec loss and resampling
together, the same codec loss for every tool.

Then the cost of sRGB conversion: photo-fit on a 24 MP JPEG tagged Adobe RGB
(converted on the 1170x2532 result) against the same JPEG untagged. And the
conversions done at decode: a 12 MP CMYK JPEG with and without a CMYK
profile (the `inks-cmyk.icc` fuzz seed), and a 12-bit HDR AVIF (PQ, BT.2020)
against the same picture marked SDR (BT.709), beside vipsthumbnail (which
converts CMYK through the profile too, and does not tone-map HDR).

Run through `make bench NAME=heif`. Environment: RUNS (default 10), WORK.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
spec = importlib.util.spec_from_file_location("bench_fit", os.path.join(ROOT, "Benchmarks", "Scripts", "fit.py"))
bench_fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_fit)
run, median_ms, peak_rss_mb, WORK, RUNS, PHOTO_FIT = (
    bench_fit.run, bench_fit.median_ms, bench_fit.peak_rss_mb, bench_fit.WORK, bench_fit.RUNS, bench_fit.PHOTO_FIT)

from PIL import Image, ImageChops, ImageStat  # noqa: E402

import benchmarks

ADOBE = "/usr/share/color/icc/colord/AdobeRGB1998.icc"


def psnr_against(path, reference_path):
    out = Image.open(path).convert("RGB")
    reference = Image.open(reference_path).convert("RGB").resize(out.size, Image.LANCZOS, reducing_gap=None)
    squares = ImageStat.Stat(ImageChops.difference(out, reference)).sum2
    mse = sum(squares) / (out.size[0] * out.size[1] * 3)
    return float("inf") if mse == 0 else 10 * __import__("math").log10(255 * 255 / mse)


def main():
    images = bench_fit.make_images()
    png = images["12mp.png"]
    heic = os.path.join(WORK, "12mp.heic")
    avif = os.path.join(WORK, "12mp.avif")
    if not os.path.exists(heic):
        run(f"heif-enc -q 85 -o {heic} {png}")
    if not os.path.exists(avif):
        run(f"heif-enc -q 85 -A -o {avif} {png}")
    lines = []
    summary = []
    for label, source in [("12 MP HEIC -> 1170x2532", heic), ("12 MP AVIF -> 1170x2532", avif)]:
        out = lambda tool: os.path.join(WORK, f"heif-out-{tool}.jpg")
        decoded = os.path.join(WORK, "heif-convert.png")
        tools = [
            ("photo-fit", f"{PHOTO_FIT} --width 1170 --height 2532 --quality 85 {source} {out('photo-fit')}", out("photo-fit")),
            ("vipsthumbnail", f"vipsthumbnail {source} -s 1170x2532 -o {out('vips')}[Q=85]", out("vips")),
            ("heif-convert + vipsthumbnail",
             f"sh -c 'heif-convert {source} {decoded} >/dev/null && vipsthumbnail {decoded} -s 1170x2532 -o {out('convert')}[Q=85]'", out("convert")),
        ]
        results = []
        for tool, command, path in tools:
            results.append((tool, median_ms(command), peak_rss_mb(command), Image.open(path).size, psnr_against(path, png)))
        vips_ms = next(ms for tool, ms, *_ in results if tool == "vipsthumbnail")
        for tool, ms, rss, size, quality in results:
            lines.append(f"| {label} | {tool} | {ms:.1f} ms | {ms / vips_ms:.2f}x | {size[0]}x{size[1]} | {quality:.2f} dB | {rss:.0f} MB |")
            if tool == "photo-fit":
                summary.append(f"{label}: {ms / vips_ms:.2f}x vipsthumbnail")

    # Colour management's share of a 24 MP JPEG rendition.
    untagged = images["24mp.jpg"]
    tagged = os.path.join(WORK, "24mp-adobe.jpg")
    if not os.path.exists(tagged):
        run(f"cp {untagged} {tagged} && exiftool -q -overwrite_original '-icc_profile<={ADOBE}' {tagged}")
    fit = lambda source: f"{PHOTO_FIT} --width 1170 --height 2532 --quality 85 {source} {os.path.join(WORK, 'cms-out.jpg')}"
    # One hyperfine call, many runs: the difference is a few ms, below the drift between separate calls.
    report = os.path.join(WORK, "hyperfine-cms.json")
    run(f"hyperfine -N --warmup 3 --runs {RUNS * 4} --export-json {report} \"{fit(untagged)}\" \"{fit(tagged)}\"")
    with open(report) as f:
        plain_ms, tagged_ms = (result["median"] * 1000 for result in json.load(f)["results"])
    share = (tagged_ms - plain_ms) / plain_ms * 100
    summary.append(f"sRGB conversion: {share:.1f}% of a 24 MP JPEG rendition")

    # Conversions at decode: CMYK through its profile, HDR tone mapping.
    deep = os.path.join(WORK, "12mp-16bit.png")
    sources = {
        "12mp-cmyk.jpg": f"convert {png} -colorspace CMYK -quality 90 {{out}}",
        "12mp-cmyk-profile.jpg": f"cp {os.path.join(WORK, '12mp-cmyk.jpg')} {{out}} && exiftool -q -overwrite_original "
        f"'-icc_profile<={os.path.join(ROOT, 'Fuzz', 'seeds', 'icc', 'inks-cmyk.icc')}' {{out}}",
        "12mp-16bit.png": f"convert {png} -depth 16 {{out}}",
        "12mp-sdr-12bit.avif": f"heif-enc -A -b 12 -q 85 --colour_primaries 1 --transfer_characteristic 1 -o {{out}} {deep}",
        "12mp-pq-12bit.avif": f"heif-enc -A -b 12 -q 85 --colour_primaries 9 --transfer_characteristic 16 -o {{out}} {deep}",
    }
    bench_fit.make_files(sources)
    decode_lines = []
    for label, name in [("12 MP CMYK JPEG, untagged", "12mp-cmyk.jpg"), ("12 MP CMYK JPEG, CMYK profile", "12mp-cmyk-profile.jpg"),
                        ("12 MP 12-bit AVIF, SDR (BT.709)", "12mp-sdr-12bit.avif"), ("12 MP 12-bit AVIF, HDR (PQ, BT.2020)", "12mp-pq-12bit.avif")]:
        source = os.path.join(WORK, name)
        ours = median_ms(f"{PHOTO_FIT} --width 1170 --height 2532 --quality 85 {source} {os.path.join(WORK, 'decode-out.jpg')}")
        vips = median_ms(f"vipsthumbnail {source} -s 1170x2532 -o {os.path.join(WORK, 'decode-vips.jpg')}[Q=85]")
        decode_lines.append(f"| {label} | {ours:.1f} ms | {vips:.1f} ms | {ours / vips:.2f}x |")
        summary.append(f"{label}: photo-fit {ours:.0f} ms, vipsthumbnail {vips:.0f} ms")

    cpu = re.sub(r".*: ", "", next(l for l in open("/proc/cpuinfo") if l.startswith("model name"))).strip()
    table = "\n".join([
        "<!-- heif:begin -->",
        "## HEIC and AVIF renditions, and colour management",
        "",
        f"Measured {time.strftime('%Y-%m-%d', time.gmtime())} on {os.cpu_count()} cores ({cpu}) by `Benchmarks/Scripts/heif.py`",
        f"(`make bench NAME=heif`), medians of {RUNS} runs with hyperfine, whole processes, output JPEG quality 85.",
        "The HEIC (x265) and AVIF (libaom) are made with heif-enc -q 85 from a 4000x3000 PNG; every tool decodes them",
        "through Debian's libheif 1.15 (libde265, dav1d). PSNR is against that PNG resized with Pillow's Lanczos.",
        "",
        "| image | tool | median | vs vips | output | PSNR | peak memory |",
        "|---|---|---|---|---|---|---|",
        *lines,
        "",
        "| 24 MP JPEG -> 1170x2532 | median |",
        "|---|---|",
        f"| untagged (sRGB) | {plain_ms:.1f} ms |",
        f"| tagged Adobe RGB, converted to sRGB | {tagged_ms:.1f} ms |",
        f"| cost of the conversion | {tagged_ms - plain_ms:.1f} ms ({share:.1f}%), medians of {RUNS * 4} runs each in one hyperfine call |",
        "",
        "Conversions at decode (-> 1170x2532, JPEG q85). CMYK becomes sRGB at decode size, through its profile when it has one;",
        "HDR is tone-mapped as rows are read. vipsthumbnail also converts CMYK through the profile; it does not tone-map HDR.",
        "",
        "| source | photo-fit | vipsthumbnail | ratio |",
        "|---|---|---|---|",
        *decode_lines,
        "<!-- heif:end -->",
    ])
    benchmarks.write_section("heif", table)
    print(table)
    print("\n".join(summary))


if __name__ == "__main__":
    sys.exit(main())
