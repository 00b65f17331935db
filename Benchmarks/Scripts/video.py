#!/usr/bin/env python3
"""Poster frames for 100 videos: photo-fit (VideoCodecs) beside
ffmpegthumbnailer, the thumbnailer GNOME's and KDE's file managers run.

100 videos are made with ffmpeg (2 s each, 1920x1080 unless said: 60
H.264, 20 HEVC, 10 VP9 in WebM, 10 H.264 with a quarter-turn display
matrix). Each tool writes a JPEG of at most 256 pixels a side of the
frame at 1 s, one process per video, as a file manager does. A round
runs all 100 with one tool; rounds alternate between the tools (the
machine's speed drifts), and the medians of the rounds are compared.
Writes the section between the video markers of BENCHMARKS.md.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True)


def make_videos(folder):
    kinds = [("h264", 60), ("hevc", 20), ("vp9", 10), ("turned", 10)]
    codecs = {
        "h264": ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "30"],
        "turned": ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "30"],
        "hevc": ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error:keyint=30"],
        "vp9": ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30", "-b:v", "2M"],
    }
    videos = []
    for kind, count in kinds:
        for index in range(count):
            extension = "webm" if kind == "vp9" else "mp4"
            path = os.path.join(folder, f"{kind}-{index:02d}.{extension}")
            # Each video its own pattern phase, so no two files are the same bytes.
            source = f"testsrc2=size=1920x1080:rate=30,hue=h={index * 7}"
            run("ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source, "-t", "2", *codecs[kind], "-an", path)
            if kind == "turned":
                turned = path.replace(".mp4", "-r.mp4")
                run("ffmpeg", "-loglevel", "error", "-y", "-i", path, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned)
                os.replace(turned, path)
            videos.append(path)
    return videos


def round_seconds(commands):
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, PHOTO_FIT_QUIET="1"))
    return time.perf_counter() - start


def main() -> int:
    run("swift", "build", "-c", "release", "--product", "photo-fit")
    fit = os.path.join(ROOT, ".build/release/photo-fit")
    work = tempfile.mkdtemp()
    videos = make_videos(work)
    out = os.path.join(work, "poster.jpg")
    tools = {
        "photo-fit": [[fit, "--at", "1", "--width", "256", "--height", "256", video, out] for video in videos],
        "ffmpegthumbnailer": [["ffmpegthumbnailer", "-i", video, "-o", out, "-s", "256", "-t", "00:00:01", "-q", "8"] for video in videos],
    }
    round_seconds(tools["photo-fit"][:5] + tools["ffmpegthumbnailer"][:5])  # warm-up
    times = {name: [] for name in tools}
    names = list(tools)
    for index in range(ROUNDS):
        for name in (names if index % 2 == 0 else names[::-1]):
            times[name].append(round_seconds(tools[name]))
    ours, theirs = (statistics.median(times[name]) for name in names)
    version = run("ffmpegthumbnailer", "-v").stdout.strip() or "ffmpegthumbnailer"
    lines = [
        "<!-- video:begin -->",
        "## Video poster frames (`make bench NAME=video`)",
        "",
        f"100 videos made by ffmpeg (2 s, 1920x1080: 60 H.264, 20 HEVC, 10 VP9 in WebM, 10 H.264 turned a quarter by its display "
        f"matrix); each tool writes a JPEG of the frame at 1 s, at most 256 pixels a side, one process per video as a file manager "
        f"runs it. Medians of {ROUNDS} rounds of all 100, the tools alternating round by round; release build, 2 cores. "
        f"{version}.",
        "",
        "| tool | 100 posters | per video | vs ffmpegthumbnailer |",
        "|---|---:|---:|---:|",
        f"| photo-fit `--at 1 --width 256 --height 256` | {ours:.2f} s | {ours * 10:.1f} ms | {ours / theirs:.2f}x |",
        f"| ffmpegthumbnailer `-s 256 -t 00:00:01` | {theirs:.2f} s | {theirs * 10:.1f} ms | 1.00x |",
        "",
        "photo-fit decodes up to the frame shown at 1 s exactly (from the keyframe before it) and turns it upright; "
        "ffmpegthumbnailer seeks to the keyframe and takes a frame near the time.",
        "<!-- video:end -->",
    ]
    benchmarks.publish("video", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
