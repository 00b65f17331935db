#!/usr/bin/env python3
"""Progressive previews and resumed downloads: ImageLoader beside curl.

A loopback server (Python, this script) serves a 2 MB progressive JPEG
(a real photo at 3000x2000, `convert -interlace JPEG`, quality 94):

- previews: paced at 1 Mbit/s (125,000 bytes a second, in 4 KiB pieces).
  PhotoDeck: `loading-bench previews` at 1170x2532 (a 390x844 screen at
  3x): the time and bytes of the first preview, the previews, the image.
  curl: `curl -o FILE` at the same pace: nothing can be shown before its
  last byte.
- resume: the first request of each round is cut at 50% (its length
  declared, half sent, the connection closed); a request with
  `Range: bytes=N-` and a matching `If-Range` gets the rest (206).
  PhotoDeck: `loading-bench resume` (a load with no retries fails, a later
  load resumes from the disk cache). curl, as users run it: `--retry 1
  --retry-all-errors` (starts over), and `-C -` run again after the cut
  (resumes, without If-Range). Bytes counted at the server.
- viewer: the previews' photo opened as a viewer's page, as photo-browser
  opens a URL (`loading-bench viewer`: the header from the first bytes, a
  ViewerController over a 390x844 screen at 3x): the time the page opens,
  its first frame and the frame with its pixels. The bytes behind a frame
  are its time at the server's pace (the pace is exact; the request starts
  a millisecond or two after the clock).

Medians of ROUNDS (default 3). Writes the section between the `downloads`
markers of BENCHMARKS.md.
"""
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import benchmarks

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
RATE = 125_000
SOURCE = os.path.join(ROOT, "Tests/Fixtures/conformance/exif-orientation-examples/Landscape_1.jpg")


class State:
    body = b""
    sent = {}
    requests = {}
    lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_counted(self, data):
        self.wfile.write(data)
        with State.lock:
            State.sent[self.path] = State.sent.get(self.path, 0) + len(data)

    def do_GET(self):
        body, path = State.body, self.path
        with State.lock:
            State.requests[path] = State.requests.get(path, 0) + 1
            number = State.requests[path]
        etag = '"bench-1"'
        wanted = self.headers.get("Range")
        if path.startswith("/cut") and wanted and self.headers.get("If-Range") == etag:
            start = int(wanted[len("bytes="):-1])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            self.send_header("Content-Length", str(len(body) - start))
            self.send_header("ETag", etag)
            self.end_headers()
            self.send_counted(body[start:])
            return
        if path.startswith("/cut") and wanted:
            # curl -C - sends a Range without If-Range: served as asked.
            start = int(wanted[len("bytes="):-1])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            self.send_counted(body[start:])
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Connection", "close")
        self.end_headers()
        if path.startswith("/cut") and number == 1:
            self.send_counted(body[: len(body) // 2])
            self.close_connection = True
            return
        if path.startswith("/slow"):
            start = time.monotonic()
            for offset in range(0, len(body), 4096):
                delay = start + offset / RATE - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                self.send_counted(body[offset : offset + 4096])
            return
        self.send_counted(body)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main() -> int:
    work = tempfile.mkdtemp()
    photo = os.path.join(work, "progressive.jpg")
    run("convert", SOURCE, "-resize", "3000x2000!", "-attenuate", "0.3", "+noise", "Gaussian", "-interlace", "JPEG", "-quality", "94", photo)
    State.body = open(photo, "rb").read()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    run("swift", "build", "-c", "release", "--product", "loading-bench")
    bench = os.path.join(ROOT, ".build/release/loading-bench")

    def loading(mode, path, round_number):
        urls = os.path.join(work, f"urls-{mode}-{round_number}")
        open(urls, "w").write(f"{base}{path}\n")
        cache = os.path.join(work, f"cache-{mode}-{round_number}")
        shutil.rmtree(cache, ignore_errors=True)
        return json.loads(run(bench, mode, urls, cache, "--size", "1170x2532"))

    first_ms, first_bytes, counts, image_ms, curl_ms = [], [], [], [], []
    for round_number in range(ROUNDS):
        result = loading("previews", f"/slow-{round_number}.jpg", round_number)
        previews = result["previews"]
        first_ms.append(previews[0]["ms"])
        first_bytes.append(previews[0]["bytes"])
        counts.append(len(previews))
        image_ms.append(result["image"]["ms"])
        start = time.monotonic()
        run("curl", "-s", "-o", os.path.join(work, "curl.jpg"), f"{base}/slow-curl-{round_number}.jpg")
        curl_ms.append((time.monotonic() - start) * 1000)

    opened_ms, frame_ms, frame_origin, final_ms, frame_counts = [], [], [], [], []
    for round_number in range(ROUNDS):
        result = loading("viewer", f"/slow-viewer-{round_number}.jpg", round_number)
        frames = result["frames"]
        opened_ms.append(result["opened"])
        frame_ms.append(frames[0]["ms"])
        frame_origin.append(frames[0]["origin"])
        final_ms.append(frames[-1]["ms"])
        frame_counts.append(sum(1 for frame in frames if frame["origin"] == "preview"))

    size = len(State.body)
    ours, restart, resumed = [], [], []
    for round_number in range(ROUNDS):
        loading("resume", f"/cut-ours-{round_number}.jpg", round_number)
        ours.append(State.sent[f"/cut-ours-{round_number}.jpg"])
        subprocess.run(["curl", "-s", "--retry", "1", "--retry-all-errors", "--retry-delay", "0", "-o", os.path.join(work, "r.jpg"), f"{base}/cut-retry-{round_number}.jpg"])
        restart.append(State.sent[f"/cut-retry-{round_number}.jpg"])
        target = os.path.join(work, f"c-{round_number}.jpg")
        subprocess.run(["curl", "-s", "-o", target, f"{base}/cut-c-{round_number}.jpg"])
        subprocess.run(["curl", "-s", "-C", "-", "-o", target, f"{base}/cut-c-{round_number}.jpg"])
        resumed.append(State.sent[f"/cut-c-{round_number}.jpg"])
    server.shutdown()

    median = statistics.median
    pct = lambda value: 100.0 * value / size
    lines = [
        "<!-- downloads:begin -->",
        "## Progressive previews and resumed downloads",
        "",
        f"`make bench NAME=downloads` ({ROUNDS} rounds, medians, release build): a {size / 1e6:.2f} MB progressive JPEG (3000x2000) from a loopback server "
        "written for the benchmark. Previews: paced at 1 Mbit/s, loaded at 1170x2532. Resume: the first request cut at 50%; bytes counted at the server, headers excluded.",
        "",
        "| measure | PhotoDeck | curl | PhotoDeck / curl |",
        "|---|---:|---:|---:|",
        f"| first picture on screen (1 Mbit/s) | {median(first_ms) / 1000:.2f} s (a preview, after {pct(median(first_bytes)):.1f}% of the bytes) | {median(curl_ms) / 1000:.2f} s (the whole file) | {median(first_ms) / median(curl_ms):.3f}x |",
        f"| the image (1 Mbit/s) | {median(image_ms) / 1000:.2f} s, after {median(counts):.0f} previews | {median(curl_ms) / 1000:.2f} s | {median(image_ms) / median(curl_ms):.3f}x |",
        f"| viewer: the page opens (its header read from the first bytes) | {median(opened_ms) / 1000:.2f} s (after {pct(median(opened_ms) / 1000 * RATE):.1f}% of the bytes) | | |",
        f"| viewer: the first frame (1 Mbit/s) | {median(frame_ms) / 1000:.2f} s (a {max(set(frame_origin), key=frame_origin.count)}, after {pct(median(frame_ms) / 1000 * RATE):.1f}% of the bytes) | {median(curl_ms) / 1000:.2f} s (the whole file) | {median(frame_ms) / median(curl_ms):.3f}x |",
        f"| viewer: the frame with the pixels (1 Mbit/s) | {median(final_ms) / 1000:.2f} s, after {median(frame_counts):.0f} preview frames | {median(curl_ms) / 1000:.2f} s | {median(final_ms) / median(curl_ms):.3f}x |",
        f"| bytes sent for a download cut at 50% | {pct(median(ours)):.1f}% (resumed from the disk cache, Range + If-Range) | {pct(median(restart)):.1f}% (`--retry`: starts over); {pct(median(resumed)):.1f}% (`-C -`, no If-Range) | {median(ours) / median(restart):.3f}x of `--retry` |",
        "<!-- downloads:end -->",
    ]
    benchmarks.publish("downloads", lines)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
