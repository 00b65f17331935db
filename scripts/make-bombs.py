#!/usr/bin/env python3
"""Writes the decompression-bomb fixtures in Tests/Fixtures/bombs/.

- bomb-25000.png: a valid 1-bit 25000x25000 PNG (625 MP) of zeros: 78 MB of
  rows in about 80 KB of zlib. Rejected from the header by the default limits.
- bomb-9000.png: a valid 8-bit gray 9000x9000 PNG (81 MP, under the default
  limit) of zeros in about 80 KB: decodes, so memory must stay about the
  size of the pixels.
- wide-65535x1525.png: a valid 8-bit RGBA PNG of 65535x1525 (100 MP, within
  the default limits) of zeros in about 390 KB: the shape whose rendition
  once held every row (2.4 GB for a 64-pixel thumbnail); memory must not
  depend on the aspect ratio.

Run: python3 scripts/make-bombs.py
"""
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "bombs")


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(path, width, height, bit_depth, color_type, row_bytes):
    compressor = zlib.compressobj(9)
    row = b"\x00" * (row_bytes + 1)  # filter byte + zero pixels
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b""))
    print(path, os.path.getsize(path), "bytes")


os.makedirs(OUT, exist_ok=True)
png(os.path.join(OUT, "bomb-25000.png"), 25000, 25000, 1, 0, (25000 + 7) // 8)
png(os.path.join(OUT, "bomb-9000.png"), 9000, 9000, 8, 0, 9000)
png(os.path.join(OUT, "wide-65535x1525.png"), 65535, 1525, 8, 6, 65535 * 4)
