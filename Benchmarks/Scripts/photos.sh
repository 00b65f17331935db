# Sourced by the benchmark scripts: make_bench_photos DIR writes eight
# different 12 MP (4000x3000) noisy JPEGs, photo-1.jpg to photo-8.jpg, made
# from an in-repository fixture (kept between runs when DIR is reused).
make_bench_photos() {
    local dir=$1 source=Tests/Fixtures/conformance/exif-orientation-examples/Landscape_1.jpg
    mkdir -p "$dir"
    for i in 1 2 3 4 5 6 7 8; do
        local out="$dir/photo-$i.jpg"
        [ -f "$out" ] || convert "$source" -resize '4000x3000!' -seed "$i" -attenuate 0.4 +noise Gaussian -quality 90 -sampling-factor 2x2 "$out"
    done
}

# prepare_bench NAME PRODUCT: what the benchmarks of generated photos do
# first. WORK (when not set) becomes a new folder /tmp/NAME-XXXX, the photos
# are made in $WORK/photos, and PRODUCT is built in release.
prepare_bench() {
    WORK=${WORK:-$(mktemp -d "/tmp/$1-XXXX")}
    make_bench_photos "$WORK/photos"
    swift build -c release --product "$2" >/dev/null
}
