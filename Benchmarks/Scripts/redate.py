#!/usr/bin/env python3
"""Re-dating a folder of photos in place: `photo-meta set DIR/*.jpg --shift -1h`
against one `exiftool -overwrite_original -AllDates-=1:00 DIR` process, on
COUNT (default 1,000) 12 MP JPEGs of 2.4 MB each, whole processes, medians
of ROUNDS (default 3) rounds in alternating order. Each run starts from the
same files (hard links to a master copy, which both tools leave alone: each
writes a new file and renames it over the old one) after a `sync`.

exiftool does not flush what it writes; photo-meta flushes every file before
it replaces the old one (`DurableFileBatch`: a flush per batch of 64 files,
and each folder's once). So beside the plain comparison the section shows
exiftool followed by `sync` (the same promise), both sides' CPU time, and
the floor of any rewrite of whole files: `cp` of the same files, then `sync`.

Run through `make bench NAME=redate`. Environment: COUNT, ROUNDS, WORK (a
folder to keep the generated photos in).
"""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "Tests", "Fixtures", "conformance", "exif-orientation-examples", "Landscape_1.jpg")
COUNT = int(os.environ.get("COUNT", "1000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
WORK = os.environ.get("WORK") or tempfile.mkdtemp(prefix="bench-redate-")
META = os.path.join(ROOT, ".build", "release", "photo-meta")


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def timed(command, shell=False):
    """Wall and CPU seconds of one process (and its children)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"failed ({status}): {command}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    photo = os.path.join(WORK, "photo.jpg")
    master = os.path.join(WORK, "master")
    if not os.path.exists(photo):
        run("convert", SOURCE, "-resize", "4000x3000!", "-attenuate", "0.2", "+noise", "Gaussian", "-quality", "90", "-sampling-factor", "2x2", photo)
        run("exiftool", "-q", "-overwrite_original", "-AllDates=2024:05:06 07:08:09", "-OffsetTimeOriginal=+02:00", "-Make=Canon", "-Model=EOS R5",
            "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", photo)
    if not os.path.isdir(master) or len(os.listdir(master)) != COUNT:
        shutil.rmtree(master, ignore_errors=True)
        os.makedirs(master)
        for index in range(COUNT):
            shutil.copyfile(photo, os.path.join(master, f"IMG_{index:05}.jpg"))
    folder = os.path.join(WORK, "run")
    names = sorted(os.listdir(master))

    def fresh():
        shutil.rmtree(folder, ignore_errors=True)
        run("cp", "-al", master, folder)
        run("sync")

    commands = {
        "photo-meta set --shift -1h (flushed)": lambda: timed([META, "set"] + [os.path.join(folder, n) for n in names] + ["--shift", "-1h"]),
        "exiftool -AllDates-=1:00 (not flushed)": lambda: timed(["exiftool", "-q", "-overwrite_original", "-AllDates-=1:00", folder]),
        "exiftool -AllDates-=1:00, then sync": lambda: timed(f"exiftool -q -overwrite_original '-AllDates-=1:00' '{folder}' && sync", shell=True),
        "floor: cp of the same files, then sync": lambda: timed(f"cp -r '{master}' '{folder}.copy' && sync && rm -rf '{folder}.copy'", shell=True),
    }
    times = {name: [] for name in commands}
    order = list(commands)
    for index in range(ROUNDS):
        for name in order[index % len(order):] + order[:index % len(order)]:
            fresh()
            times[name].append(commands[name]())
            said = run("exiftool", "-s3", "-DateTimeOriginal", os.path.join(folder, names[-1])).strip()
            if not name.startswith("floor") and said != "2024:05:06 06:08:09":
                raise RuntimeError(f"{name} left {said!r}")
    shutil.rmtree(folder, ignore_errors=True)
    ours = statistics.median(w for w, _ in times[order[0]])
    cpu = run("sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    size = os.path.getsize(photo) / 1e6
    lines = [
        "<!-- redate:begin -->",
        "## Re-dating photos in place (`make bench NAME=redate`)",
        "",
        f"Measured {time.strftime('%Y-%m-%d')} on {cpu} ({os.cpu_count()} cores), release build, by `Benchmarks/Scripts/redate.py`:",
        f"{COUNT} JPEGs of 4000x3000 ({size:.1f} MB each) moved an hour back, whole processes, medians of {ROUNDS} rounds.",
        "photo-meta flushes each new file to disk before it replaces the old one; exiftool does not, so its row with `sync`",
        "after it is the comparison at the same promise. The floor row writes the same bytes with `cp` and flushes them: what any",
        "tool that writes each photo anew (as a crash-safe rename needs) cannot go below.",
        "",
        "| command | median wall | median CPU | photo-meta faster by |",
        "|---|---:|---:|---:|",
    ]
    for name in order:
        wall = statistics.median(w for w, _ in times[name])
        cpu_time = statistics.median(c for _, c in times[name])
        lines.append(f"| {name} | {wall:.2f} s | {cpu_time:.2f} s | {wall / ours:.2f}x |")
    lines.append("<!-- redate:end -->")
    benchmarks.publish("redate", lines)


if __name__ == "__main__":
    main()
