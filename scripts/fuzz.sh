#!/usr/bin/env bash
# Fuzzes PhotoDeck's parsers with libFuzzer + AddressSanitizer.
#
#   scripts/fuzz.sh [TARGET...]        targets: jpeg png webp jxl probe exif render json weibo tencent
#                                       weibo-timeline weibo-people heif icc gif heif-grid webp-anim
#                                       png-file multipart terminal outbox rewrite, and what the SDK
#                                       persists: album-journal cache-index ledger keys png-text
#                                       weibo-cache (default: all)
#
# Environment:
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_JOBS      parallel fuzzing processes per target (default 1)
# Seeds come from Tests/Fixtures/conformance (images), Fuzz/seeds/providers (answers) and
# Fuzz/seeds/persisted (the SDK's own files); the growing corpus is kept in
# .build/fuzz-corpus/TARGET. A crashing input is copied to
# Tests/Fixtures/fuzz-regressions/, which the test suite
# replays; the script then exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-1}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(jpeg png webp jxl probe exif render json weibo tencent weibo-timeline weibo-people heif icc gif
    heif-grid webp-anim png-file multipart terminal outbox rewrite album-journal cache-index ledger keys png-text weibo-cache video)
TESTDATA=Tests/Fixtures/conformance
REGRESSIONS=Tests/Fixtures/fuzz-regressions

swift build -c release --product photodeck-fuzz --build-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -D -Xswiftc FUZZING \
    -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld >/dev/null
FUZZER=.build/fuzz/release/photodeck-fuzz

seed() { # target corpus-dir
    case "$1" in
        json | weibo | tencent | weibo-timeline | weibo-people)
            # Provider answers; for all but json a leading byte picks the HTTP status (0: 200).
            for file in Fuzz/seeds/providers/*.json; do
                if [ "$1" = json ]; then cp "$file" "$2/"; else { printf '\000'; cat "$file"; } >"$2/$(basename "$file")"; fi
            done
            return ;;
        heif) find Fuzz/seeds/heif -type f ;;
        jxl) find Tests/Fixtures/jxl -name '*.jxl' ;;
        heif-grid)
            # heif-enc 1.15 wraps sizes that are not a multiple of the coding block in a
            # grid; -t adds a thumbnail; RGBA PNGs give an alpha image.
            for png in "$TESTDATA"/pngsuite/png/basn2c08.png "$TESTDATA"/pngsuite/png/basn6a08.png "$TESTDATA"/libjpeg-turbo-testimages/testorig.png; do
                name=$(basename "$png" .png)
                heif-enc -q 40 -o "$2/$name-grid.heic" "$png" >/dev/null 2>&1 || true
                heif-enc -q 40 -t 16 -o "$2/$name-thumbnail.heic" "$png" >/dev/null 2>&1 || true
            done
            find Fuzz/seeds/heif -type f ;;
        webp-anim)
            frames=("$TESTDATA"/pngsuite/png/basn2c08.png "$TESTDATA"/pngsuite/png/basn6a08.png "$TESTDATA"/pngsuite/png/bgan6a08.png)
            img2webp -loop 0 -lossless -d 80 "${frames[@]}" -o "$2/lossless.webp" >/dev/null 2>&1 || true
            img2webp -mixed -d 50 "${frames[@]}" -o "$2/mixed.webp" >/dev/null 2>&1 || true
            img2webp -lossy -q 50 -d 40 "${frames[@]}" -o "$2/lossy.webp" >/dev/null 2>&1 || true
            return ;;
        png-file) find "$TESTDATA" -iname '*.png' -size -64k ;;
        video)
            # Small clips in every container and codec PhotoDeck opens, one turned, one tagged.
            src=(-f lavfi -i testsrc2=size=64x48:rate=10 -t 0.5)
            ffmpeg -loglevel error -y "${src[@]}" -c:v libx264 -pix_fmt yuv420p "$2/h264.mp4" || true
            ffmpeg -loglevel error -y "${src[@]}" -c:v libx264 -pix_fmt yuv420p -metadata location=+1.0+2.0/ -movflags use_metadata_tags "$2/tagged.mov" || true
            ffmpeg -loglevel error -y -i "$2/h264.mp4" -c copy -metadata:s:v:0 rotate=90 "$2/turned.mp4" || true
            ffmpeg -loglevel error -y "${src[@]}" -c:v libx265 -x265-params log-level=error "$2/hevc.mp4" || true
            ffmpeg -loglevel error -y "${src[@]}" -c:v libvpx-vp9 -deadline realtime "$2/vp9.webm" || true
            ffmpeg -loglevel error -y "${src[@]}" -c:v mpeg4 "$2/mpeg4.avi" || true
            ffmpeg -loglevel error -y "${src[@]}" -c:v mpeg2video "$2/mpeg2.ts" || true
            return ;;
        rewrite)
            # Every container the rewriters walk, and exiftool-tagged copies (EXIF, XMP, IPTC, comments).
            for file in "$TESTDATA"/libjpeg-turbo-testimages/testorig.jpg "$TESTDATA"/pngsuite/png/basn2c08.png Fuzz/seeds/gif/still.gif; do
                ext=${file##*.}
                cp "$file" "$2/tagged.$ext"
                exiftool -q -overwrite_original -m -GPSLatitude=48.85 -GPSLatitudeRef=N -Artist=Jane -XMP-dc:Creator=Jane -Comment=secret \
                    -Make=Canon -DateTimeOriginal="2024:05:06 07:08:09" "$2/tagged.$ext" >/dev/null 2>&1 || true
            done
            { find "$TESTDATA" \( -iname '*.jp*g' -o -iname '*.png' -o -iname '*.webp' -o -iname '*.gif' \) -size -64k; find Fuzz/seeds/gif -type f; } ;;
        multipart)
            printf 'B\n--B\r\nContent-Disposition: form-data; name="status"\r\n\r\nhello\r\n--B\r\nContent-Disposition: form-data; name="pic"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\r\n--B--\r\n' >"$2/two-parts"
            printf 'XyZ\n--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n--XyZ--' >"$2/empty-part"
            return ;;
        terminal)
            printf '\001\033[?62;4;22c\033[4;600;800t\033[A\033OB q' >"$2/replies-and-keys"
            printf '\003\033_Gi=31;OK\033\\\033[>0;95;0c\033P>|XTerm(379)\033\\' >"$2/kitty-xtversion"
            printf '\007\033[1;5C\033[5~\033[6~\033[H\033[F\033' >"$2/keys"
            return ;;
        outbox)
            printf '{"text":"hello","images":[]}' >"$2/text"
            printf '{"text":null,"images":["/9j/4AAQ"],"link":{"url":"https://example.com","title":"t"}}' >"$2/image-link"
            return ;;
        gif) find Fuzz/seeds/gif -type f ;;
        album-journal) find Fuzz/seeds/persisted -name 'album-journal*' ;;
        cache-index) find Fuzz/seeds/persisted -name 'cache-index*' ;;
        ledger) find Fuzz/seeds/persisted -name 'ledger*' ;;
        keys) find Fuzz/seeds/persisted -name 'keys*' ;;
        png-text) find Fuzz/seeds/persisted -name 'png-text*' ;;
        weibo-cache) find Fuzz/seeds/persisted -name 'weibo-cache*'; find Fuzz/seeds/providers -name '*timeline*' ;;
        icc)
            # A leading byte picks the reader: 0 a whole profile, 1 JPEG APP2 chunks, 2 a PNG iCCP body.
            for file in /usr/share/color/icc/colord/*.icc Fuzz/seeds/icc/*.icc; do
                [ -f "$file" ] && { printf '\000'; cat "$file"; } >"$2/$(basename "$file")"
            done
            return ;;
        jpeg) find "$TESTDATA" -iname '*.jp*g' ;;
        png) find "$TESTDATA" -iname '*.png' -size -64k ;;
        webp) find "$TESTDATA" -iname '*.webp' -size -64k ;;
        exif) find "$TESTDATA/exif-orientation-examples" "$TESTDATA/pillow-edgecases" -iname '*.jpg' ;;
        *) find "$TESTDATA" \( -iname '*.jp*g' -o -iname '*.png' -o -iname '*.webp' \) -size -64k ;;
    esac | sort | awk 'NR <= 400' | while read -r file; do
        if [ "$1" = exif ]; then
            # Seed with the APP1 payloads, not whole JPEGs.
            /usr/bin/python3 - "$file" "$2" <<'PY'
import sys, os, hashlib
data = open(sys.argv[1], "rb").read()
i = data.find(b"Exif\x00\x00")
if i >= 0:
    block = data[i + 6:i + 6 + 65536]
    open(os.path.join(sys.argv[2], hashlib.sha1(block).hexdigest()), "wb").write(block)
PY
        else
            cp "$file" "$2/" 2>/dev/null || true
        fi
    done
}

max_len() {
    case "$1" in
        json | weibo | tencent | weibo-* | multipart | terminal | outbox | album-journal | cache-index | ledger | keys) echo 16384 ;;
        icc | png-text) echo 65536 ;;
        *) echo 262144 ;;
    esac
}

status=0
mkdir -p "$REGRESSIONS"
for target in "${TARGETS[@]}"; do
    corpus=.build/fuzz-corpus/$target
    artifacts=.build/fuzz-artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    [ -n "$(ls -A "$corpus")" ] || seed "$target" "$corpus"
    echo "fuzzing $target for ${SECONDS_PER_TARGET}s ($(ls "$corpus" | wc -l) corpus files)"
    log=.build/fuzz-artifacts/$target.log
    touch "$log.start"
    parallel=()
    [ "$JOBS" -gt 1 ] && parallel=(-fork="$JOBS")
    # The same leak suppressions as the ASan test run (leaks inside Debian's libraries).
    if ! LSAN_OPTIONS=suppressions=$PWD/.ci/lsan.supp PHOTODECK_FUZZ_TARGET=$target "$FUZZER" "$corpus" -max_total_time="$SECONDS_PER_TARGET" \
        -rss_limit_mb=2048 -timeout=10 -max_len="$(max_len "$target")" "${parallel[@]}" \
        -artifact_prefix="$artifacts" -print_final_stats=1 >"$log" 2>&1; then
        status=1
        echo "  FOUND a crash; see $log"
    fi
    grep -E "^stat::number_of_executed_units|^Done [0-9]+ runs" "$log" | tail -n 2 | sed 's/^/  /' || true
    for crash in "$artifacts"crash-* "$artifacts"leak-* "$artifacts"timeout-* "$artifacts"oom-*; do
        # Only what this run found (earlier findings are already saved).
        [ "$crash" -nt "$log.start" ] || continue
        [ -f "$crash" ] || continue
        cp "$crash" "$REGRESSIONS/$target-$(basename "$crash")"
        echo "  saved $REGRESSIONS/$target-$(basename "$crash")"
        status=1
    done
done
exit $status
