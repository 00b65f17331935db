#!/usr/bin/env python3
"""AVIF encoding: photo-fit (libheif + libaom through PhotoDeck) beside
`vips heifsave --compression av1` (libvips, the engine sharp uses), on the
same 1920x1280 photo, at equal SSIM.

vips writes the photo at Q 50, effort 4 (its default: libaom speed 5). For
PhotoDeck at speed 5, the lowest quality whose SSIM reaches vips's is found;
then both are timed as whole processes (each decodes the PNG source too),
in interleaved rounds: the machine's speed drifts during a run, and a
per-round ratio cancels the drift. Both files are decoded with heif-convert and compared with
the source by ffmpeg's ssim filter (all planes). Writes the section between
the avif markers of BENCHMARKS.md.
"""
import os
import statistics
import re
import subprocess
import sys
import tempfile

import benchmarks

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RUNS = int(os.environ.get("RUNS", "15"))
SOURCE = os.path.join(ROOT, "Tests/Fixtures/conformance/exif-orientation-examples/Landscape_1.jpg")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True)


def ssim(work, reference, avif):
    decoded = os.path.join(work, "decoded.png")
    run("heif-convert", avif, decoded)
    out = run("ffmpeg", "-hide_banner", "-i", reference, "-i", decoded, "-lavfi", "ssim", "-f", "null", "-").stderr
    return float(re.search(r"All:([0-9.]+)", out).group(1))


def main() -> int:
    work = tempfile.mkdtemp()
    source = os.path.join(work, "photo.png")
    run("convert", SOURCE, "-resize", "1920x1280!", source)
    run("swift", "build", "-c", "release", "--product", "photo-fit")
    fit = os.path.join(ROOT, ".build/release/photo-fit")
    vips_file = os.path.join(work, "vips.avif")
    vips_command = f"vips heifsave {source} {vips_file} --compression av1 -Q 50 --effort 4"
    run("sh", "-c", vips_command)
    vips_ssim = ssim(work, source, vips_file)
    ours_file = os.path.join(work, "ours.avif")
    chosen = None
    for quality in range(30, 91, 2):
        run(fit, "--quality", str(quality), "--speed", "5", source, ours_file)
        if ssim(work, source, ours_file) >= vips_ssim:
            chosen = quality
            break
    if chosen is None:
        print("no quality reached vips's SSIM", file=sys.stderr)
        return 1
    ours_command = [fit, "--quality", str(chosen), "--speed", "5", source, ours_file]
    vips_command = vips_command.split()
    run(*ours_command)
    ours_ssim = ssim(work, source, ours_file)
    ours_size, vips_size = os.path.getsize(ours_file), os.path.getsize(vips_file)
    env = dict(os.environ, PHOTO_FIT_QUIET="1")
    benchmarks.interleaved({"ours": ours_command, "vips": vips_command}, 1, env)  # warm-up
    times = benchmarks.interleaved({"ours": ours_command, "vips": vips_command}, RUNS, env)
    ours_ms, vips_ms = (statistics.median(wall for wall, _ in times[name]) * 1000 for name in ("ours", "vips"))
    ours_cpu, vips_cpu = (statistics.median(cpu for _, cpu in times[name]) * 1000 for name in ("ours", "vips"))
    ratios = sorted(ours[0] / vips[0] for ours, vips in zip(times["ours"], times["vips"]))
    quartiles = statistics.quantiles(ratios, n=4)
    lines = [
        "<!-- avif:begin -->",
        "## AVIF encoding",
        "",
        f"`make bench NAME=avif` (release build): a 1920x1280 photo (PNG) to AVIF with libheif 1.15 "
        "and libaom 3.6 on both sides. vips at its defaults (Q 50, effort 4 = libaom speed 5); PhotoDeck at speed 5 and the lowest quality "
        "whose SSIM (ffmpeg's ssim filter, all planes, both files decoded by heif-convert) reaches vips's.",
        "",
        f"Times are whole processes (each decodes the PNG too) in {RUNS} interleaved rounds, each round running both in turn, the order "
        "alternating; medians. This machine's speed drifts by 30% and more within minutes, so the ratio is the median of the "
        "rounds' own ratios, with the middle half of them beside it; CPU is user + system time.",
        "",
        "| | PhotoDeck (photo-fit) | vips heifsave | PhotoDeck / vips |",
        "|---|---:|---:|---:|",
        f"| quality | {chosen} | Q 50 | |",
        f"| SSIM | {ours_ssim:.5f} | {vips_ssim:.5f} | |",
        f"| size | {ours_size:,} bytes | {vips_size:,} bytes | {ours_size / vips_size:.3f}x |",
        f"| time | {ours_ms:.0f} ms | {vips_ms:.0f} ms | {statistics.median(ratios):.3f}x (middle half {quartiles[0]:.3f}-{quartiles[2]:.3f}x) |",
        f"| CPU | {ours_cpu:.0f} ms | {vips_cpu:.0f} ms | {ours_cpu / vips_cpu:.3f}x |",
        "<!-- avif:end -->",
    ]
    benchmarks.publish("avif", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
