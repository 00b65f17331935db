#!/usr/bin/env python3
"""The benchmarks' one front door: `make bench NAME=…` runs one, `make bench`
runs them all in this order, `make bench NAME=list` says what each measures.

Each benchmark builds the release products it times, then runs its scripts
(in this folder), which time PhotoDeck beside the tools users reach for and
write their section of BENCHMARKS.md. Extra settings pass through the
environment (RUNS, ROUNDS, BROWSER, ...: see each script's docstring).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# name: (what it measures, release products it builds, scripts it runs)
BENCHMARKS = {
    "decode": ("decode throughput beside djpeg, dwebp and Pillow", [], ["decode.sh"]),
    "fit": ("photo-fit renditions beside vipsthumbnail, ImageMagick, Pillow, djpeg; JPEG rows against tjbench's floor",
            ["photo-fit", "codec-bench"], ["fit.py"]),
    "gainmap": ("what keeping an HDR gain map costs photo-fit (12 MP Ultra HDR JPEG vs the same without a map)", ["photo-fit", "codec-bench"],
                ["gainmap.py"]),
    "heif": ("HEIC and AVIF renditions beside vipsthumbnail and heif-convert; colour management's cost", ["photo-fit"], ["heif.py"]),
    "metadata": ("metadata stripping and lossless rotation of a phone photo beside exiftool, jpegtran, vips, ImageMagick", [],
                 ["metadata.sh"]),
    "browser": ("page turns with and without prefetch, beside vipsthumbnail", [], ["browser.sh"]),
    "viewer": ("key press to frame in the window (24 MP JPEGs, Xvfb), folders of up to 50,000 photos, memory while paging 1,000",
               ["photo-browser"], ["viewer.py", "folder-open.py", "paging.py"]),
    "thumbnails": ("thumbnails into the freedesktop cache beside vipsthumbnail; the grid's first screen on 10,000 photos",
                   ["thumbnail-bench", "photo-browser"], ["thumbnails.py"]),
    "workers": ("concurrent renditions on ImageWorkers vs. on the cooperative pool", [], ["workers.sh"]),
    "loading": ("a timeline's thumbnails through ImageLoader (20 ms loopback) beside curl --parallel + vipsthumbnail", [],
                ["loading.py"]),
    "terminal": ("a terminal frame's picture in sixel and kitty, through tmux too, beside img2sixel and ImageMagick", [],
                 ["terminal.sh"]),
    "hostile": ("what hostile state and answers cost, beside vipsthumbnail and ImageMagick",
                ["photo-fit", "photo-browser", "photo-album"], ["hostile.py"]),
    "hostile-inputs": ("the hostile-input audit through photo-fit (OLD=PATH: an older photo-fit beside it)", [], ["hostile-inputs.sh"]),
    "placeholders": ("ThumbHash and BlurHash from 12 and 24 MP JPEGs beside thumbhash-python and blurhash-python", [],
                     ["placeholders.py"]),
    "downloads": ("progressive previews at 1 Mbit/s and a download cut at 50%, beside curl", [], ["downloads.py"]),
    "jxl": ("JPEG XL decode beside djxl", [], ["jxl.sh"]),
    "avif": ("AVIF encoding beside vips heifsave, at equal SSIM", [], ["avif.py"]),
    "smartcrop": ("how often attention and entropy crops keep the subject beside vips smartcrop, and their cost",
                  ["photo-fit", "codec-bench"], ["smartcrop.py"]),
    "video": ("poster frames of 100 videos beside ffmpegthumbnailer", [], ["video.py"]),
    "transcode": ("a video prepared for a WeChat chat beside the ffmpeg command line", [], ["transcode.py"]),
    "playback": ("a video's first frame beside ffplay, dropped frames over 60 s, frames per second in kitty beside timg",
                 ["photo-browser"], ["playback.py"]),
    "redate": ("1,000 12 MP JPEGs re-dated in place by photo-meta beside one exiftool -AllDates process", ["photo-meta"], ["redate.py"]),
    "dupes": ("10,000 photos' near-duplicates grouped, a new photo looked up; beside findimagedupes on 1,000",
              ["dupes-bench", "photo-album"], ["dupes.py"]),
    "filters": ("100,000 muted words on 100 posts beside the rule before and grep -F -i -f", [], ["filters.py"]),
    "gallery": ("100 12 MP photos published as a web gallery beside vipsthumbnail; a phone's first screen in Chromium",
                ["photo-album"], ["gallery.py"]),
}


def run(name):
    _, products, scripts = BENCHMARKS[name]
    for product in products:
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)
    for script in scripts:
        path = os.path.join(HERE, script)
        command = ["/usr/bin/python3", path] if script.endswith(".py") else [path]
        if script == "hostile-inputs.sh" and os.environ.get("OLD"):
            command.append(os.environ["OLD"])
        subprocess.run(command, cwd=ROOT, check=True)


def main(argv):
    name = argv[0] if argv and argv[0] else None
    if name == "list":
        for key, (what, _, _) in BENCHMARKS.items():
            print(f"{key:15} {what}")
        return 0
    if name is not None and name not in BENCHMARKS:
        print(f"no benchmark named {name!r}; `make bench NAME=list` lists them", file=sys.stderr)
        return 2
    for key in [name] if name else list(BENCHMARKS):
        print(f"== bench {key}", flush=True)
        try:
            run(key)
        except subprocess.CalledProcessError as error:
            print(f"bench {key} failed: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
