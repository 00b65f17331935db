# Shared by the benchmark scripts (sourced from the package root, after
# `set -euo pipefail`): the settings every one of them takes, the release
# codec-bench built, one way to time a command and one way to print a ratio.

# Environment: RUNS (default 15) repetitions per measurement; WORK, a
# folder for generated files (a new temporary one by default).
RUNS=${RUNS:-15}
WORK=${WORK:-$(mktemp -d)}
PY=/usr/bin/python3
# The photo the scripts make their large inputs from.
SOURCE=Tests/Fixtures/conformance/exif-orientation-examples/Landscape_1.jpg

# Builds the in-process timer (release) and names it BENCH.
build_codec_bench() {
    swift build -c release --product codec-bench >/dev/null
    BENCH=.build/release/codec-bench
}

# Median wall time of a command in ms, via hyperfine.
tool_ms() {
    hyperfine --warmup 2 --runs "$RUNS" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1
    $PY -c "import json;print('%.2f'%(json.load(open('$WORK/h.json'))['results'][0]['median']*1000))"
}

# $1 / $2 as "1.23x".
ratio() { $PY -c "print('%.2fx' % ($1 / $2))"; }
