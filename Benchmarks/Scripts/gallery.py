#!/usr/bin/env python3
"""Publishing an album as a web gallery: `photo-album publish` on COUNT
(default 100) 12 MP JPEGs beside vipsthumbnail making the same renditions
(the widths PhotoDeck makes, 240 to 2560, each as WebP at 78 and JPEG at
82), whole processes, medians of ROUNDS (default 3) in alternating order.
vipsthumbnail gets one process per width and format, each over every photo
(libvips's own threads on both cores); photo-album decodes each photo once
and makes its 14 files from it, two photos at a time. Then what a phone
gets: the gallery in headless Chromium (the tests' checker) at 390x844 at
3x, the bytes its first screen transferred, and what the pages weigh.

Run through `make bench NAME=gallery`. Environment: COUNT, ROUNDS, WORK.
"""
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "Tests", "Fixtures", "conformance", "exif-orientation-examples", "Landscape_1.jpg")
COUNT = int(os.environ.get("COUNT", "100"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="bench-gallery-")
ALBUM = os.path.join(ROOT, ".build", "release", "photo-album")
CHECKER = os.path.join(ROOT, "Tests", "PhotoGalleryTests", "Browser", "check_gallery.py")
WIDTHS = [240, 360, 540, 810, 1215, 1822, 2560]


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    photos = os.path.join(WORK, "photos")
    if not os.path.isdir(photos) or len(os.listdir(photos)) != COUNT:
        shutil.rmtree(photos, ignore_errors=True)
        os.makedirs(photos)
        for index in range(COUNT):
            # Each photo its own: the sample turned and tinted differently, with noise, 4000x3000.
            run("convert", SOURCE, "-resize", "4000x3000!", "-modulate", f"100,{80 + index % 40},{90 + index % 20}", "-roll", f"+{index * 37}+{index * 23}",
                "-attenuate", "0.15", "+noise", "Gaussian", "-quality", "90", os.path.join(photos, f"IMG_{index:04}.jpg"))
    store = os.path.join(WORK, "store")
    shutil.rmtree(store, ignore_errors=True)
    run(ALBUM, "--store", store, "import", "--album", "Trip", photos)
    names = sorted(os.listdir(photos))

    def ours():
        out = os.path.join(WORK, "gallery")
        shutil.rmtree(out, ignore_errors=True)
        return timed([ALBUM, "--store", store, "publish", "--album", "Trip", "--out", out, "--base-url", "https://example.com/trip/"])

    def vips():
        out = os.path.join(WORK, "vips")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        start = time.perf_counter()
        for width in WIDTHS:
            for suffix in [f"webp[Q=78,strip]", f"jpg[Q=82,strip,interlace]"]:
                subprocess.run(["vipsthumbnail", "--size", f"{width}x", "-o", os.path.join(out, f"%s-{width}.{suffix}")]
                               + [os.path.join(photos, n) for n in names], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - start

    commands = {"photo-album publish (14 files a photo)": ours, "vipsthumbnail, the same 14 renditions": vips}
    times = {name: [] for name in commands}
    order = list(commands)
    for index in range(ROUNDS):
        for name in order[index % 2:] + order[:index % 2]:
            run("sync")
            times[name].append(commands[name]())
    ours_median = statistics.median(times[order[0]])
    vips_median = statistics.median(times[order[1]])

    # A first publish's gallery (made by the last round) as a phone gets it.
    gallery = os.path.join(WORK, "gallery")
    pages = sum(os.path.getsize(os.path.join(gallery, name)) for name in ["index.html", "gallery.css", "gallery.js"])
    photo_pages = [os.path.join(gallery, "p", n) for n in os.listdir(os.path.join(gallery, "p"))]
    page = statistics.median(os.path.getsize(p) for p in photo_pages)
    shots = os.path.join(WORK, "shots")
    report = json.loads(subprocess.run(["/usr/bin/python3", CHECKER, gallery, shots], check=True, capture_output=True, text=True).stdout.splitlines()[-1])
    misfits = sum(1 for tile in report["phone"]["fit"] if not fits(tile))

    # The phone budget: an album of 14 of these photos.
    small_store = os.path.join(WORK, "store-14")
    shutil.rmtree(small_store, ignore_errors=True)
    run(ALBUM, "--store", small_store, "import", "--album", "Fourteen", *[os.path.join(photos, n) for n in names[:14]])
    small = os.path.join(WORK, "gallery-14")
    shutil.rmtree(small, ignore_errors=True)
    run(ALBUM, "--store", small_store, "publish", "--album", "Fourteen", "--out", small, "--base-url", "https://example.com/fourteen/")
    fourteen = json.loads(subprocess.run(["/usr/bin/python3", CHECKER, small, shots + "-14"], check=True, capture_output=True, text=True).stdout.splitlines()[-1])
    small_misfits = sum(1 for tile in fourteen["phone"]["fit"] if not fits(tile))

    cpu = run("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    lines = [
        "<!-- gallery:begin -->",
        "## Publishing an album as a web gallery (`make bench NAME=gallery`)",
        "",
        f"Measured {time.strftime('%Y-%m-%d')} on {cpu} ({os.cpu_count()} cores), release build, by `Benchmarks/Scripts/gallery.py`:",
        f"{COUNT} JPEGs of 4000x3000, each made into {len(WIDTHS)} widths (240 to 2560) of WebP (quality 78) and JPEG (82),",
        f"whole processes, median of {ROUNDS} round{'s' if ROUNDS != 1 else ''}. photo-album also writes the pages, placeholders and link-card tags.",
        "",
        "| command | median wall | vs vipsthumbnail |",
        "|---|---:|---:|",
        f"| photo-album publish | {ours_median:.1f} s | {ours_median / vips_median:.2f}x |",
        f"| vipsthumbnail, {2 * len(WIDTHS)} processes over all photos | {vips_median:.1f} s | 1.00x |",
        "",
        "What a phone gets (headless Chromium at 390x844 at 3x, the tests' checker, no cache):",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| 14 photos: first screen transferred (budget 1.5 MB) | {fourteen['phone']['firstScreenBytes'] / 1e6:.2f} MB in {fourteen['phone']['firstScreenRequests']} requests |",
        f"| 14 photos: tiles under their size on screen or over 2.5x it | {small_misfits} of {len(fourteen['phone']['fit'])} |",
        f"| {COUNT} photos: first screen transferred | {report['phone']['firstScreenBytes'] / 1e6:.2f} MB in {report['phone']['firstScreenRequests']} requests |",
        f"| {COUNT} photos: desktop (1440x900) first screen | {report['desktop']['firstScreenBytes'] / 1e6:.2f} MB |",
        f"| {COUNT} photos: tiles under their size on screen or over 2.5x it | {misfits} of {len(report['phone']['fit'])} |",
        f"| index page, style and script (no pictures) | {pages / 1000:.1f} KB |",
        f"| a photo's page (median) | {page / 1000:.1f} KB |",
        "<!-- gallery:end -->",
    ]
    benchmarks.publish("gallery", lines)


def fits(tile):
    import re
    match = re.search(r"-(\d+)-[0-9a-f]+\.(webp|jpg)$", tile["src"])
    chosen, needed = int(match.group(1)), tile["css"] * tile["dpr"]
    return chosen >= min(needed, max(tile["candidates"])) - 1 and chosen <= max(2.5 * needed, min(tile["candidates"]))


if __name__ == "__main__":
    main()
