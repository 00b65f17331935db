#!/usr/bin/python3
"""A timeline's thumbnails from the network: ImageLoader beside curl + vipsthumbnail.

A picture server on four loopback hosts (127.0.0.1-4, as Weibo's pictures
come from wx1-wx4.sinaimg.cn) answers every request after 20 ms, with
HTTP/1.1 keep-alive and `Cache-Control: max-age=86400`. A timeline of 200
thumbnails (690x920 JPEGs made from the bundled samples; 140 distinct URLs,
30% of the entries repeating an earlier one) is loaded for a 390x844-point
screen at 3x showing three square cells a row (390x390 pixels each; the
first screen is the first 21).

- PhotoDeck: `loading-bench timeline`, a cold disk cache each round: all 200
  asked at once, the first screen at visible priority, the rest prefetched.
- Scripted baseline, as a user would write it: `curl --parallel` on the
  first screen's URLs, then `vipsthumbnail --size 390x390 --smartcrop centre`
  on those files (the first screen); the whole timeline the same way (all 200
  URLs, then all 200 files).

Also: disk-cache and memory-cache hit latency for 1170-pixel renditions of
20 2048x1536 JPEGs (`loading-bench hits`). Medians of ROUNDS (default 5).
Writes the section between the `loading` markers of BENCHMARKS.md.
"""
import datetime
import http.server
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from PIL import Image

import benchmarks

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ROUNDS = int(os.environ.get("ROUNDS", "5"))
LATENCY = 0.020
FIRST = 21
HOSTS = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"]


class Stats:
    """Connections and requests the picture server saw."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.open = 0
            self.peak = 0
            self.connections = 0
            self.requests = 0

    def opened(self):
        with self.lock:
            self.open += 1
            self.connections += 1
            self.peak = max(self.peak, self.open)

    def closed(self):
        with self.lock:
            self.open -= 1

    def snapshot(self):
        with self.lock:
            return {"peak": self.peak, "connections": self.connections, "requests": self.requests}


STATS = Stats()
FILES = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        STATS.opened()

    def finish(self):
        try:
            super().finish()
        finally:
            STATS.closed()

    def do_GET(self):
        with STATS.lock:
            STATS.requests += 1
        time.sleep(LATENCY)
        body = FILES.get(self.path)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=86400")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def make_pictures(count, size, seed):
    """`count` distinct JPEGs of `size`, crops of the bundled samples at different places and scales."""
    rng = random.Random(seed)
    sources = [Image.open(os.path.join(ROOT, "Examples/Samples", name)).convert("RGB") for name in ["waterfall.jpg", "portrait-orientation-6.jpg"]]
    out = []
    for index in range(count):
        source = sources[index % len(sources)]
        width, height = source.size
        aspect = size[0] / size[1]
        crop_h = rng.randint(height // 2, height)
        crop_w = min(width, int(crop_h * aspect))
        crop_h = int(crop_w / aspect)
        x = rng.randint(0, width - crop_w)
        y = rng.randint(0, height - crop_h)
        picture = source.crop((x, y, x + crop_w, y + crop_h)).resize(size, Image.LANCZOS)
        if index % 3 == 1:
            picture = picture.transpose(Image.FLIP_LEFT_RIGHT)
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=85)
        out.append(buffer.getvalue())
    return out


def timeline_urls(ports, rng):
    """200 entries, 140 distinct, each repeat after its first appearance."""
    distinct = [f"/thumbs/{index}.jpg" for index in range(140)]
    entries = list(distinct)
    for _ in range(60):
        entries.append(None)
    rng.shuffle(entries)
    # Fill the repeat slots with URLs already seen earlier in the list.
    seen, result = [], []
    queue = iter(distinct)
    for entry in entries:
        if entry is None and seen:
            result.append(rng.choice(seen))
        else:
            path = next(queue)
            seen.append(path)
            result.append(path)
    result += list(queue)
    result = result[:200]

    def url(path):
        number = int(path.split("/")[-1].split(".")[0])
        host = HOSTS[number % len(HOSTS)]
        return f"http://{host}:{ports[host]}{path}"

    return [url(path) for path in result]


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def timed(command):
    """Wall time (ms) and peak RSS (MB, GNU time) of one process."""
    start = time.monotonic()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True)
    elapsed = (time.monotonic() - start) * 1000
    if result.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {result.stderr[-500:]}")
    rss = int(result.stderr.strip().split("\n")[-1]) // 1024
    return elapsed, rss


def curl_then_vips(urls, work):
    """The scripted pipeline: curl --parallel, then vipsthumbnail on the files. Returns (ms, curl ms, peak MB, peak sockets)."""
    folder = tempfile.mkdtemp(dir=work)
    config = os.path.join(folder, "curl.cfg")
    with open(config, "w") as f:
        for index, url in enumerate(urls):
            f.write(f'url = "{url}"\noutput = "{folder}/{index:03d}.jpg"\n')
    STATS.reset()
    curl_ms, curl_rss = timed(["curl", "--parallel", "--silent", "--fail", "-K", config])
    sockets = STATS.snapshot()
    files = [f"{folder}/{index:03d}.jpg" for index in range(len(urls))]
    os.makedirs(f"{folder}/out")
    vips_ms, vips_rss = timed(["vipsthumbnail", "--size", "390x390", "--smartcrop", "centre", "-o", f"{folder}/out/%s.jpg[Q=85]"] + files)
    shutil.rmtree(folder)
    return curl_ms + vips_ms, curl_ms, max(curl_rss, vips_rss), sockets


def main():
    work = tempfile.mkdtemp(prefix="bench-loading-")
    try:
        rng = random.Random(24)
        thumbs = make_pictures(140, (690, 920), seed=1)
        large = make_pictures(20, (2048, 1536), seed=2)
        for index, body in enumerate(thumbs):
            FILES[f"/thumbs/{index}.jpg"] = body
        for index, body in enumerate(large):
            FILES[f"/large/{index}.jpg"] = body
        servers = {}
        for host in HOSTS:
            server = Server((host, 0), Handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers[host] = server
        ports = {host: server.server_address[1] for host, server in servers.items()}
        urls = timeline_urls(ports, rng)
        assert len(urls) == 200 and len(set(urls)) == 140
        with open(f"{work}/urls.txt", "w") as f:
            f.write("\n".join(urls) + "\n")
        with open(f"{work}/large.txt", "w") as f:
            f.write("\n".join(f"http://{HOSTS[i % 4]}:{ports[HOSTS[i % 4]]}/large/{i}.jpg" for i in range(20)) + "\n")
        run(["swift", "build", "-c", "release", "--product", "loading-bench"], cwd=ROOT)
        bench = os.path.join(ROOT, ".build/release/loading-bench")

        photodeck, scripted_first, scripted_all = [], [], []
        for round in range(ROUNDS):
            cache = f"{work}/cache-{round}"
            STATS.reset()
            result = json.loads(run([bench, "timeline", f"{work}/urls.txt", cache, "--cell", "390", "--first", str(FIRST)]).stdout)
            result["server"] = STATS.snapshot()
            photodeck.append(result)
            shutil.rmtree(cache)
            scripted_first.append(curl_then_vips(urls[:FIRST], work))
            scripted_all.append(curl_then_vips(urls, work))
        hits = json.loads(run([bench, "hits", f"{work}/large.txt", f"{work}/hits-cache", "--size", "1170x2532", "--repeats", "5"]).stdout)

        def median(values):
            return statistics.median(values)

        pd_first = median([r["first_screen_ms"] for r in photodeck])
        pd_total = median([r["total_ms"] for r in photodeck])
        sf = median([s[0] for s in scripted_first])
        sa = median([s[0] for s in scripted_all])
        sa_curl = median([s[1] for s in scripted_all])
        last = photodeck[-1]
        lines = [
            "<!-- loading:begin -->",
            "## Photos from the network (ImageLoader)",
            "",
            f"Measured {datetime.date.today()} on 2 cores by `Benchmarks/Scripts/loading.py` (`make bench NAME=loading`), medians of {ROUNDS} rounds,",
            "release build. A picture server on four loopback hosts (as Weibo's wx1-wx4) answers each request after 20 ms",
            "(HTTP/1.1 keep-alive, `max-age=86400`). The timeline: 200 thumbnails, 690x920 JPEGs, 140 distinct URLs (30% of",
            "the entries repeat an earlier one), shown on a 390x844-point screen at 3x as square 390x390-pixel cells, three",
            f"a row; the first screen is the first {FIRST}. PhotoDeck starts cold (empty disk cache) and asks for all 200 at once,",
            "the first screen at visible priority. The scripted baseline is what a user would otherwise write: `curl --parallel`",
            "on the URLs, then `vipsthumbnail --size 390x390 --smartcrop centre` on the files (first screen: the first 21",
            "URLs only). Sockets: the most connections the server saw open at once. Peak memory: the process's maximum RSS",
            "(for the script, the larger of curl's and vips's).",
            "",
            "| | first screen | all 200 | downloads | decodes | peak memory | sockets (peak) | threads (peak) |",
            "|---|---|---|---|---|---|---|---|",
            f"| PhotoDeck ImageLoader | {pd_first:.0f} ms | {pd_total:.0f} ms | {last['downloads']} | {last['decodes']} | "
            f"{median([r['peak_rss_mb'] for r in photodeck]):.0f} MB | {median([r['server']['peak'] for r in photodeck]):.0f} | "
            f"{median([r['peak_threads'] for r in photodeck]):.0f} |",
            f"| curl --parallel + vipsthumbnail | {sf:.0f} ms | {sa:.0f} ms (curl {sa_curl:.0f} ms) | {scripted_all[-1][3]['requests']} | 200 | "
            f"{median([s[2] for s in scripted_all]):.0f} MB | {median([s[3]['peak'] for s in scripted_all]):.0f} | |",
            f"| ratio | {pd_first / sf:.2f}x | {pd_total / sa:.2f}x | | | | | |",
            "",
            f"Goals: first screen ≤ 0.5x the script ({pd_first / sf:.2f}x); downloads = distinct URLs "
            f"({last['downloads']} for {last['distinct_urls']}).",
            "",
            f"Cache hits, {hits['urls']} 2048x1536 JPEGs ({hits['bytes_per_image'] // 1024} KB each) as {hits['rendition']} renditions for a",
            f"390x844 screen at 3x, {hits['repeats']} rounds, each by a fresh loader over the filled disk cache:",
            "",
            "| hit | p50 | p95 |",
            "|---|---|---|",
            f"| memory (the decoded rendition) | {hits['memory_p50_ms']:.3f} ms | {hits['memory_p95_ms']:.3f} ms |",
            f"| disk, bytes (read, size and SHA-256 checked) | {hits['disk_bytes_p50_ms']:.2f} ms | {hits['disk_bytes_p95_ms']:.2f} ms |",
            f"| disk, decoded at size (bytes + decode + resample) | {hits['disk_decode_p50_ms']:.1f} ms | {hits['disk_decode_p95_ms']:.1f} ms |",
            "<!-- loading:end -->",
        ]
        section = "\n".join(lines)
        benchmarks.write_section("loading", section)
        print(section)
        print(json.dumps({"photodeck": photodeck, "scripted_first": scripted_first, "scripted_all": scripted_all, "hits": hits}), file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
