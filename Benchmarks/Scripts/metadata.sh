#!/usr/bin/env bash
# What a shared photo costs when its metadata is taken out and when it is
# turned upright losslessly, beside the tools users would otherwise reach
# for, in one run on the same generated photo: a 12 MP JPEG of about 4 MB
# with a phone's metadata (GPS, serial numbers, XMP, IPTC; exiftool puts it
# there). Writes the table to BENCHMARKS.md (between the metadata markers).
#
# Usage: Benchmarks/Scripts/metadata.sh        (make bench NAME=metadata installs the tools)
# Environment: RUNS (default 15) repetitions per measurement.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=Benchmarks/Scripts/common.sh
. Benchmarks/Scripts/common.sh
build_codec_bench

# A phone photo: a real picture upscaled to 4032x3024 (a 12 MP phone's size, whole 16-pixel blocks)
# with sensor-like noise, then a phone's metadata.
if [ ! -f "$WORK/phone.jpg" ]; then
    convert "$SOURCE" -resize '4032x3024!' -attenuate 0.3 +noise Gaussian -quality 92 -sampling-factor 2x2 "$WORK/phone.jpg"
    exiftool -q -overwrite_original -GPSLatitude=48.8583 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E \
        -ExifIFD:SerialNumber=SN-0042 -LensSerialNumber=LS-9911 -OwnerName="Jane Doe" -Artist="Jane Doe" -Make=Canon -Model="EOS R5" \
        -DateTimeOriginal="2024:05:06 07:08:09" -XMP-dc:Creator="Jane Doe" -XMP-exif:GPSLatitude=48.8583 -IPTC:City=Paris \
        -ICC_Profile'<='/usr/share/color/icc/colord/sRGB.icc "$WORK/phone.jpg"
fi
size=$(stat -c %s "$WORK/phone.jpg")

gps() { exiftool -s -s -s -GPSLatitude "$1" | grep -q . && echo "GPS left" || echo "no GPS"; }
# PSNR of $1 against $2, both decoded by Pillow (same size expected).
psnr() {
    $PY - "$1" "$2" <<'PY'
import sys, math
from PIL import Image, ImageChops
a = Image.open(sys.argv[1]).convert("RGB"); b = Image.open(sys.argv[2]).convert("RGB")
if a.size != b.size:
    w, h = min(a.width, b.width), min(a.height, b.height); a = a.crop((0, 0, w, h)); b = b.crop((0, 0, w, h))
hist = ImageChops.difference(a, b).histogram()
sq = sum(v * ((i % 256) ** 2) for i, v in enumerate(hist)); mse = sq / (a.width * a.height * 3)
print("inf" if mse == 0 else "%.1f dB" % (10 * math.log10(255 * 255 / mse)))
PY
}

rows=()
# Strip: every byte of pixels kept, metadata gone.
read -r ours _ _ < <($BENCH "$WORK/phone.jpg" --strip --runs "$RUNS" --out "$WORK/ours-strip.jpg")
rows+=("| strip metadata, pass-through | PhotoDeck \`MetadataPolicy.default\` (in process) | $ours ms | 1.00x | $(stat -c %s "$WORK/ours-strip.jpg") B | $(gps "$WORK/ours-strip.jpg"), pixels $(psnr "$WORK/ours-strip.jpg" "$WORK/phone.jpg") |")
cp "$WORK/phone.jpg" "$WORK/et.jpg"
t=$(tool_ms "cp $WORK/phone.jpg $WORK/et.jpg && exiftool -q -overwrite_original -all= -tagsfromfile @ -icc_profile -DateTimeOriginal -Make -Model $WORK/et.jpg")
rows+=("| strip metadata, pass-through | exiftool -all= (keeping ICC, date, camera) | $t ms | $(ratio "$t" "$ours") | $(stat -c %s "$WORK/et.jpg") B | $(gps "$WORK/et.jpg"), pixels $(psnr "$WORK/et.jpg" "$WORK/phone.jpg") |")
t=$(tool_ms "jpegtran -copy icc -outfile $WORK/jt.jpg $WORK/phone.jpg")
rows+=("| strip metadata, pass-through | jpegtran -copy icc | $t ms | $(ratio "$t" "$ours") | $(stat -c %s "$WORK/jt.jpg") B | $(gps "$WORK/jt.jpg"), pixels $(psnr "$WORK/jt.jpg" "$WORK/phone.jpg") |")
t=$(tool_ms "convert $WORK/phone.jpg -strip -quality 92 $WORK/im-strip.jpg")
rows+=("| strip metadata, pass-through | ImageMagick -strip (re-encodes) | $t ms | $(ratio "$t" "$ours") | $(stat -c %s "$WORK/im-strip.jpg") B | $(gps "$WORK/im-strip.jpg"), pixels $(psnr "$WORK/im-strip.jpg" "$WORK/phone.jpg") |")

# A quarter turn: the reference is the original decoded and rotated (Pillow).
$PY -c "from PIL import Image; Image.open('$WORK/phone.jpg').transpose(Image.Transpose.ROTATE_270).save('$WORK/reference.png')"
read -r lossless _ _ < <($BENCH "$WORK/phone.jpg" --rotate --runs "$RUNS" --out "$WORK/ours-rot.jpg")
read -r replaced _ _ < <($BENCH "$WORK/phone.jpg" --reencode-rotate --runs "$RUNS" --out "$WORK/ours-reenc.jpg")
rows+=("| rotate 90° | PhotoDeck \`JPEGTransform\` (lossless) | $lossless ms | 1.00x | $(stat -c %s "$WORK/ours-rot.jpg") B | $(psnr "$WORK/ours-rot.jpg" "$WORK/reference.png") |")
rows+=("| rotate 90° | PhotoDeck decode + rotate + encode q92 (what it replaces) | $replaced ms | $(ratio "$replaced" "$lossless") | $(stat -c %s "$WORK/ours-reenc.jpg") B | $(psnr "$WORK/ours-reenc.jpg" "$WORK/reference.png") |")
t=$(tool_ms "jpegtran -rotate 90 -trim -copy all -outfile $WORK/jt-rot.jpg $WORK/phone.jpg")
rows+=("| rotate 90° | jpegtran -rotate 90 -trim (lossless) | $t ms | $(ratio "$t" "$lossless") | $(stat -c %s "$WORK/jt-rot.jpg") B | $(psnr "$WORK/jt-rot.jpg" "$WORK/reference.png") |")
t=$(tool_ms "vips rot $WORK/phone.jpg $WORK/vips-rot.jpg[Q=92] d90")
rows+=("| rotate 90° | vips rot d90 (re-encodes, Q 92) | $t ms | $(ratio "$t" "$lossless") | $(stat -c %s "$WORK/vips-rot.jpg") B | $(psnr "$WORK/vips-rot.jpg" "$WORK/reference.png") |")
t=$(tool_ms "convert $WORK/phone.jpg -rotate 90 -quality 92 $WORK/im-rot.jpg")
rows+=("| rotate 90° | ImageMagick -rotate 90 (re-encodes, Q 92) | $t ms | $(ratio "$t" "$lossless") | $(stat -c %s "$WORK/im-rot.jpg") B | $(psnr "$WORK/im-rot.jpg" "$WORK/reference.png") |")

table=$(
    cat <<EOT
<!-- metadata:begin -->
## Metadata and lossless rotation (sharing a phone photo)

Measured $(date +%Y-%m-%d) on $(nproc) cores by \`Benchmarks/Scripts/metadata.sh\` (\`make bench NAME=metadata\`), medians of $RUNS runs.
The photo: a 4032x3024 JPEG (4:2:0, quality 92) of $size bytes carrying a phone's metadata (GPS, serial numbers,
owner, XMP, IPTC, an ICC profile). PhotoDeck is timed in-process; the tools as whole processes with hyperfine.
Ratio is against PhotoDeck's row of the same task. The last column: whether GPS is left (exiftool), and the PSNR of
the decoded pixels against the original's (strip) or against the original decoded and rotated by Pillow (rotate):
\`inf\` is identical; a lossless rotation differs from decode + rotate only by the IDCT's rounding.

| task | tool | median | ratio | output | check |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
<!-- metadata:end -->
EOT
)
echo "$table"
$PY Benchmarks/Scripts/update-benchmarks.py metadata <<<"$table"
