#!/usr/bin/env python3
"""Writes Tests/Fixtures/png-references.tsv.

The reference decoder is pypng (pure Python, independent of libpng): every
PNG in Tests/Fixtures/conformance that it reads is expanded to 8-bit RGBA the way
PhotoDeck documents its PNG decoding, and the size and an FNV-1a 64-bit hash
of the pixels are recorded:

- palette expanded, tRNS turned into alpha (compared at the stored depth);
- gray expanded to RGB; sub-8-bit samples scaled to 0...255;
- 16-bit samples rounded: round(v * 255 / 65535);
- no gamma, sBIT or colour-profile processing.

Run from the repository root:  python3 scripts/make-png-references.py
(it installs pypng 0.20220715.0 into .build/pypng with pip when it is not
importable; nothing of it is committed).
"""
import os
import subprocess
import sys

PYPNG = "pypng==0.20220715.0"
VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "pypng")
try:
    import png  # pypng
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", VENDOR, PYPNG], check=True)
    sys.path.insert(0, VENDOR)
    import png  # pypng

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TESTDATA = os.path.join(ROOT, "Tests", "Fixtures", "conformance")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "png-references.tsv")


def fnv1a64(data) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def to8(value: int, bitdepth: int) -> int:
    if bitdepth == 16:
        return (value * 255 + 32767) // 65535
    if bitdepth == 8:
        return value
    return value * 255 // ((1 << bitdepth) - 1)


def rgba(path: str):
    reader = png.Reader(filename=path)
    reader.preamble()
    reader.sbit = None  # libpng applies no sBIT shift unless asked
    width, height, rows, info = reader.asDirect()
    depth = info["bitdepth"]
    planes = info["planes"]
    gray = info["greyscale"]
    alpha = info["alpha"]
    out = bytearray()
    for row in rows:
        row = list(row)
        for x in range(width):
            px = row[x * planes:(x + 1) * planes]
            if gray:
                g = to8(px[0], depth)
                a = to8(px[1], depth) if alpha else 255
                out += bytes((g, g, g, a))
            else:
                r, gg, b = (to8(v, depth) for v in px[:3])
                a = to8(px[3], depth) if alpha else 255
                out += bytes((r, gg, b, a))
    return width, height, bytes(out)


def main() -> int:
    rows = []
    with open(os.path.join(TESTDATA, "VERIFY.tsv")) as verify:
        for line in verify:
            if line.startswith("#") or line.startswith("path\t"):
                continue
            fields = line.rstrip("\n").split("\t")
            path, magic, intent = fields[0], fields[2], fields[3]
            if magic != "png" or intent not in ("valid", "quirky"):
                continue
            try:
                width, height, pixels = rgba(os.path.join(TESTDATA, path))
            except Exception as error:  # pypng rejects it: no reference
                print(f"skip {path}: {error}", file=sys.stderr)
                continue
            rows.append(f"{path}\t{width}\t{height}\t{fnv1a64(pixels):016x}")
    with open(OUT, "w") as out:
        out.write("# path\twidth\theight\tfnv1a64 of 8-bit RGBA pixels (pypng; see scripts/make-png-references.py)\n")
        out.write("\n".join(rows) + "\n")
    print(f"wrote {len(rows)} references to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
