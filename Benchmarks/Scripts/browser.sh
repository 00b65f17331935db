#!/usr/bin/env bash
# Page turns in the photo browser: PhotoBrowserSession with and without
# neighbour prefetch over eight generated 12 MP JPEGs, for a 390x844-point
# viewport at 3x, beside vipsthumbnail making the same screen-size rendition
# (what an app without the browser engine would run per page). Writes the
# table to BENCHMARKS.md between the browser markers.
#
# Environment: WORK (a folder for the generated photos), DWELL (ms a user
# looks at a page before the next swipe, default 400), ROUNDS (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
DWELL=${DWELL:-400}
ROUNDS=${ROUNDS:-5}
. Benchmarks/Scripts/photos.sh
prepare_bench bench-browser browser-bench
json=$(.build/release/browser-bench "$WORK/photos" --viewport 390x844 --scale 3 --dwell "$DWELL" --rounds "$ROUNDS")
# vipsthumbnail to the same box (1170x2532 pixels), one process per page.
vips=$(hyperfine --warmup 2 --runs 10 --export-json "$WORK/vips.json" \
    "vipsthumbnail $WORK/photos/photo-1.jpg --size 1170x2532 -o $WORK/vips-out.jpg[Q=85]" >/dev/null && \
    python3 -c "import json; print(json.load(open('$WORK/vips.json'))['results'][0]['median'] * 1000)")
table=$(python3 - "$json" "$vips" "$DWELL" "$ROUNDS" <<'PY'
import json, sys, datetime
r = json.loads(sys.argv[1]); vips = float(sys.argv[2]); dwell = sys.argv[3]; rounds = sys.argv[4]
od, pf = r["on_demand"], r["prefetch"]
lines = [
    "<!-- browser:begin -->",
    "## Browser page turns",
    "",
    f"Measured {datetime.date.today()} on 2 cores by `Benchmarks/Scripts/browser.sh` (`make bench NAME=browser`):",
    f"{r['photos']} generated 12 MP JPEGs, a 390x844-point viewport at 3x (fit renditions of 1170x878 pixels), {rounds} passes",
    f"forward through all of them. A turn is timed from the swipe to the new page's pixels being ready. With",
    f"prefetch the user looks at each page for {dwell} ms before swiping on. vipsthumbnail is one process making the",
    "same rendition from the same file (what an app would otherwise run per page), for scale.",
    "",
    "| mode | open (first page) | turn, median | turn, p90 | decodes per page | cache held |",
    "|---|---|---|---|---|---|",
    f"| decode on demand | {od['open_median_ms']:.1f} ms | {od['turn_median_ms']:.1f} ms | {od['turn_p90_ms']:.1f} ms | {od['decodes_per_page']:.2f} | {od['cache_bytes'] // 1048576} MB |",
    f"| prefetch neighbours | {pf['open_median_ms']:.1f} ms | {pf['turn_median_ms']:.2f} ms | {pf['turn_p90_ms']:.2f} ms | {pf['decodes_per_page']:.2f} | {pf['cache_bytes'] // 1048576} MB |",
    f"| vipsthumbnail --size 1170x2532 | | {vips:.1f} ms | | 1 | |",
    "<!-- browser:end -->",
]
print("\n".join(lines))
PY
)
printf '%s\n' "$table" | python3 Benchmarks/Scripts/update-benchmarks.py browser
echo "$table"
