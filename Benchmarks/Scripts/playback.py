#!/usr/bin/env python3
"""Video playback: photo-browser beside ffplay and timg, under Xvfb.

Three measures, side by side in one run, release build:

- first frame: from exec to the first frame presented in a 1920x1080
  window, for a 10 s 1080p H.264/AAC clip, photo-browser (the clip's page:
  its first frame) against `ffplay -autoexit`. Both are SDL2 programs: a
  preloaded shim (built here with cc) notes the first `SDL_RenderPresent`
  after a texture upload (`SDL_UpdateTexture`, `SDL_UpdateYUVTexture`,
  `SDL_UpdateNVTexture` or `SDL_LockTexture`) and ends the process.
  Medians of ROUNDS interleaved rounds.
- dropped frames: a 60 s 1080p 30 fps clip played to the end in the
  window, with its sound (SDL's disk driver as the sink), photo-browser's
  own count (`dropped N` in its frame trace) against ffplay's (`fd=` in its
  status line).
- terminal frames per second in kitty: the same 10 s clip played in a
  kitty window (1000x740 pixels) by photo-browser (`--display kitty`,
  frames shown / 10 s) and by `timg -V -pk` (its `--verbose` frame count /
  the time it took).

Run through `make bench NAME=playback`; ROUNDS (default 10) sets the first-frame
rounds. Writes the table to BENCHMARKS.md between the playback markers.
"""
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import benchmarks

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BROWSER = os.environ.get("BROWSER", os.path.join(ROOT, ".build", "release", "photo-browser"))
WORK = os.environ.get("WORK", os.path.join(ROOT, ".build", "bench-playback"))
ROUNDS = int(os.environ.get("ROUNDS", "10"))

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int uploaded;
#define REAL(name) static __typeof__(name) *real; if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

int SDL_UpdateTexture(void *texture, const void *rect, const void *pixels, int pitch) {
    REAL(SDL_UpdateTexture);
    uploaded = 1;
    return real(texture, rect, pixels, pitch);
}
int SDL_UpdateYUVTexture(void *texture, const void *rect, const unsigned char *y, int yp, const unsigned char *u, int up, const unsigned char *v, int vp) {
    REAL(SDL_UpdateYUVTexture);
    uploaded = 1;
    return real(texture, rect, y, yp, u, up, v, vp);
}
int SDL_UpdateNVTexture(void *texture, const void *rect, const unsigned char *y, int yp, const unsigned char *uv, int uvp) {
    REAL(SDL_UpdateNVTexture);
    uploaded = 1;
    return real(texture, rect, y, yp, uv, uvp);
}
int SDL_LockTexture(void *texture, const void *rect, void **pixels, int *pitch) {
    REAL(SDL_LockTexture);
    uploaded = 1;
    return real(texture, rect, pixels, pitch);
}
void SDL_RenderPresent(void *renderer) {
    REAL(SDL_RenderPresent);
    real(renderer);
    if (!uploaded) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    FILE *out = fopen(getenv("FIRST_FRAME_FILE"), "w");
    if (out) {
        fprintf(out, "%lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
        fclose(out);
    }
    _exit(0);
}
"""


def run(*args, **kwargs):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def make_clips():
    os.makedirs(os.path.join(WORK, "short"), exist_ok=True)
    os.makedirs(os.path.join(WORK, "long"), exist_ok=True)
    clips = {}
    for name, seconds in (("short", 10), ("long", 60)):
        path = os.path.join(WORK, name, f"clip-{seconds}s.mp4")
        if not os.path.exists(path):
            run("ffmpeg", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                "-t", str(seconds), "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "60", "-c:a", "aac", "-movflags", "+faststart", "-f", "mp4", path + ".part")
            # Written beside, then renamed: a run killed mid-encode leaves no truncated clip to measure.
            os.replace(path + ".part", path)
        clips[name] = path
    return clips


def build_shim():
    source = os.path.join(WORK, "firstframe.c")
    library = os.path.join(WORK, "firstframe.so")
    with open(source, "w") as handle:
        handle.write(SHIM)
    run("cc", "-O2", "-shared", "-fPIC", "-o", library, source, "-ldl")
    return library


def start_xvfb(size="1920x1080x24"):
    process = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    number = process.stdout.readline().decode().strip()
    return process, f":{number}"


def first_frame(command, env):
    """Milliseconds from exec to the first frame presented."""
    marker = tempfile.NamedTemporaryFile(suffix=".first", delete=False, dir=WORK).name
    start = time.monotonic_ns()
    process = subprocess.Popen(command, env=dict(env, FIRST_FRAME_FILE=marker), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit(f"no frame presented by {command[0]}")
    with open(marker) as handle:
        text = handle.read().strip()
    os.unlink(marker)
    if not text:
        raise SystemExit(f"{command[0]} ended without presenting a frame")
    return (int(text) - start) / 1e6


def wait_for(condition, what, timeout):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.05)


def read(path):
    with open(path, errors="replace") as handle:
        return handle.read()


def window_of(name, env):
    found = subprocess.run(["xdotool", "search", "--sync", "--class", name], env=env, capture_output=True, text=True).stdout.split()
    return found[0]


def playing_lines(trace):
    return [line for line in read(trace).splitlines() if line.startswith("frame ") and (" playing " in line or " paused " in line)]


def play_to_end(window_class, trace, env, end):
    """Presses k in the viewer's window once its first frame is traced, waits for `end` (the paused
    clock at the clip's end) and quits: the playing and paused frame lines, and the frames shown and dropped."""
    wait_for(lambda: "frame 1/1" in read(trace), "the first frame", 60)
    window = window_of(window_class, env)
    subprocess.run(["xdotool", "key", "--window", window, "k"], env=env, check=True)
    wait_for(lambda: any(f" paused {end}/{end}" in line for line in playing_lines(trace)), "the end of the clip", 120)
    subprocess.run(["xdotool", "key", "--window", window, "q"], env=env, stderr=subprocess.DEVNULL)
    lines = playing_lines(trace)
    shown = sum(1 for line in lines if " playing " in line)
    dropped = max(int(m.group(1)) for m in (re.search(r" dropped (\d+)", line) for line in lines) if m)
    return lines, shown, dropped


def browser_drops(clip, env):
    """photo-browser plays `clip` to its end in the window: dropped frames, frames shown, the largest |av| and its median."""
    trace = os.path.join(WORK, "drops.trace")
    with open(trace, "w") as err:
        process = subprocess.Popen([BROWSER, "--display", "window", "--window", "1920x1080", os.path.dirname(clip)], env=dict(env, PHOTODECK_VIEWER_TRACE="1"),
                                   stdout=subprocess.DEVNULL, stderr=err)
    lines, shown, dropped = play_to_end("photo-browser", trace, env, "1:00")
    process.wait(timeout=30)
    offsets = [abs(int(m.group(1))) for m in (re.search(r" av (-?\d+)ms", line) for line in lines) if m]
    return dropped, shown, max(offsets), statistics.median(offsets)


def ffplay_drops(clip, env):
    """ffplay plays `clip` to its end: the frames it dropped (its last `fd=`)."""
    result = subprocess.run(["ffplay", "-autoexit", "-stats", "-x", "1920", "-y", "1080", clip], env=env, capture_output=True, text=True, timeout=180)
    counts = re.findall(r"fd=\s*(\d+)", result.stderr)
    return int(counts[-1]) if counts else None


def kitty(display, program, log):
    command = ["kitty", "-o", "linux_display_server=x11", "-o", "remember_window_size=no", "-o", "initial_window_width=1000", "-o", "initial_window_height=740",
               "sh", "-c", "{ " + program + f"; }} 2>>{log}"]
    return subprocess.Popen(command, env=dict(os.environ, DISPLAY=display), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def browser_terminal_fps(clip, display):
    trace = os.path.join(WORK, "kitty.trace")
    open(trace, "w").close()
    process = kitty(display, f"PHOTODECK_VIEWER_TRACE=1 {BROWSER} --display kitty {os.path.dirname(clip)}", trace)
    _, shown, dropped = play_to_end("kitty", trace, dict(os.environ, DISPLAY=display), "0:10")
    process.wait(timeout=30)
    return shown / 10.0, dropped


def timg_terminal_fps(clip, display):
    log = os.path.join(WORK, "timg.log")
    open(log, "w").close()
    process = kitty(display, f"start=$(date +%s.%N); timg --verbose -V -pk {clip}; end=$(date +%s.%N); echo \"took $start $end\" >&2", log)
    wait_for(lambda: "took " in read(log), "timg's end", 180)
    process.kill()
    process.wait()
    text = read(log)
    frames = int(re.search(r"(\d+) frames", text).group(1))
    start, end = map(float, re.search(r"took (\S+) (\S+)", text).groups())
    return frames / (end - start), frames, end - start


def main():
    for tool in ("Xvfb", "xdotool", "ffplay", "kitty", "timg", "cc"):
        if shutil.which(tool) is None:
            print(f"bench-playback needs {tool}", file=sys.stderr)
            return 1
    os.makedirs(WORK, exist_ok=True)
    clips = make_clips()
    shim = build_shim()
    server, display = start_xvfb()
    try:
        sink = os.path.join(WORK, "sound.raw")
        env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=sink)
        preloaded = dict(env, LD_PRELOAD=shim)
        commands = {
            "photo-browser": [BROWSER, "--display", "window", "--window", "1920x1080", os.path.dirname(clips["short"])],
            "ffplay": ["ffplay", "-autoexit", "-loglevel", "quiet", "-x", "1920", "-y", "1080", clips["short"]],
        }
        firsts = {name: [] for name in commands}
        for index in range(ROUNDS):
            names = list(commands)[index % 2:] + list(commands)[:index % 2]
            for name in names:
                firsts[name].append(first_frame(commands[name], preloaded))
        ours_first, ffplay_first = statistics.median(firsts["photo-browser"]), statistics.median(firsts["ffplay"])

        dropped, shown, worst_av, median_av = browser_drops(clips["long"], env)
        ffplay_dropped = ffplay_drops(clips["long"], env)
    finally:
        server.kill()
        server.wait()

    server, display = start_xvfb("1280x800x24")
    try:
        ours_fps, ours_terminal_dropped = browser_terminal_fps(clips["short"], display)
        timg_fps, timg_frames, timg_seconds = timg_terminal_fps(clips["short"], display)
    finally:
        server.kill()
        server.wait()

    lines = [
        "<!-- playback:begin -->",
        "## Video playback: first frame, dropped frames, terminal frame rate",
        "",
        f"Measured {datetime.date.today()} on 2 cores under Xvfb by `Benchmarks/Scripts/playback.py` (`make bench NAME=playback`), release build,",
        "H.264/AAC clips of ffmpeg's moving test pattern at 1920x1080, 30 fps. First frame: exec to the first frame presented",
        "(a preloaded shim notes the first `SDL_RenderPresent` after a texture upload), 1920x1080 window, median of "
        f"{ROUNDS} interleaved rounds. Dropped frames: a 60 s clip played to its end with its sound (SDL's disk driver),",
        "photo-browser's own count against ffplay's `fd=`. Terminal: a 10 s clip in a 1000x740 kitty window, frames shown",
        "per second of video (photo-browser drops late frames to keep the clock) against timg's frames over the time it took.",
        "",
        "| measure | photo-browser | beside it | |",
        "|---|---|---|---|",
        f"| first frame, 10 s 1080p clip | {ours_first:.0f} ms | ffplay -autoexit: {ffplay_first:.0f} ms | {ffplay_first / ours_first:.2f}x ffplay's speed; goal ≤ 150 ms |",
        f"| dropped frames, 60 s at 30 fps, with sound | {dropped} of {dropped + shown} | ffplay: {ffplay_dropped if ffplay_dropped is not None else '-'} | goal 0; picture to sound: median {median_av} ms, worst {worst_av} ms |",
        f"| frames per second in kitty, 10 s clip | {ours_fps:.1f} ({ours_terminal_dropped} dropped to keep time) | timg -V -pk: {timg_fps:.1f} ({timg_frames} frames in {timg_seconds:.1f} s) | {ours_fps / timg_fps:.2f}x timg's |",
        "<!-- playback:end -->",
    ]
    benchmarks.publish("playback", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
