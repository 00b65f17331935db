#!/usr/bin/env bash
# The hostile inputs of the audit through photo-fit, old build beside new:
# exit status (128+N for a signal, "hang" when killed after TIMEOUT s),
# elapsed seconds and peak resident memory, at full size and as a 320x320
# rendition. The inputs are made by the test suite
# (Tests/ExampleTests/HostileInputTests.swift), never stored.
#
#   make bench NAME=hostile-inputs [OLD=PATH]   (or Benchmarks/Scripts/hostile-inputs.sh [OLD_PHOTO_FIT])
#
# OLD_PHOTO_FIT: a photo-fit built from an earlier commit (for example
# `git worktree add /tmp/before <commit> && (cd /tmp/before && swift build -c release --product photo-fit)`).
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:-}
TIMEOUT=${TIMEOUT:-60}
INPUTS=.build/hostile-inputs
rm -rf "$INPUTS" && mkdir -p "$INPUTS"
PHOTODECK_WRITE_HOSTILE=$PWD/$INPUTS swift test --disable-xctest --filter HostileInputTests >/dev/null
swift build -c release --product photo-fit >/dev/null 2>&1
NEW=.build/release/photo-fit
mkfifo "$INPUTS/fifo.jpg"

measure() { # binary input [flags...]
    local binary=$1 input=$2
    shift 2
    local report status
    report=$(mktemp)
    set +e
    # timeout inside time: a killed photo-fit (a hang) is timeout's status 137, measured like the rest.
    /usr/bin/time -f "%e %M" -o "$report" timeout -s KILL "$TIMEOUT" "$binary" "$@" "$input" "$INPUTS/out.jpg" >/dev/null 2>&1
    status=$?
    set -e
    if [ "$status" -eq 137 ]; then
        echo "hang (killed after ${TIMEOUT} s)"
    else
        read -r elapsed kilobytes < <(tail -n 1 "$report")
        # timeout passes a signal on as 128+N (139: SIGSEGV, 134: SIGABRT).
        [ "$status" -gt 128 ] && status="$status (signal $((status - 128)))"
        printf 'exit %s, %.2f s, %d MB\n' "$status" "$elapsed" "$((kilobytes / 1024))"
    fi
    rm -f "$report"
}

rows=()
for input in "$INPUTS"/*; do
    [ "$input" = "$INPUTS/out.jpg" ] && continue
    name=$(basename "$input")
    size=$([ -p "$input" ] && echo "FIFO" || echo "$(stat -c %s "$input") B")
    for mode in full rendition; do
        flags=()
        [ "$mode" = rendition ] && flags=(--width 320 --height 320)
        before=$([ -n "$OLD" ] && measure "$OLD" "$input" "${flags[@]}" || echo "-")
        after=$(measure "$NEW" "$input" "${flags[@]}")
        rows+=("$(printf '| %s | %s | %s | %s | %s |' "$name" "$size" "$mode" "$before" "$after")")
    done
done

table=$(
    cat <<EOT
<!-- hostile:begin -->
## Hostile inputs (photo-fit, before and after)

Measured $(date +%Y-%m-%d) on $(nproc) cores by \`Benchmarks/Scripts/hostile-inputs.sh\`: each input the hostile-input audit
found, made by the test suite, through a release \`photo-fit\` (full size, and a 320x320 rendition) of
${OLD:+an earlier build (before) and }this one (after). Exit 1 is a typed error line; 139 is SIGSEGV; "hang"
was killed after ${TIMEOUT} s. Time is wall-clock, memory GNU time's peak RSS.

| input | size | mode | before | after |
|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
<!-- hostile:end -->
EOT
)
echo "$table"
/usr/bin/python3 Benchmarks/Scripts/update-benchmarks.py hostile <<<"$table"
