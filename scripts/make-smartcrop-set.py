#!/usr/bin/env python3
"""Makes the smart-crop labelled set: generated scenes, each with one
off-centre subject and its bounding box, plus real photos from the
conformance fixtures with hand-drawn boxes (listed in real.tsv).

Writes Tests/Fixtures/smartcrop/generated/*.jpg and labels.tsv. Seeded, so
a re-run writes the same files. The crop each scene is judged with is a
target aspect ratio (the subject fits inside a crop of that shape), and a
scene's subject never lies wholly inside the centre crop: a centre crop
misses every generated subject by construction.

    python3 scripts/make-smartcrop-set.py
"""
import math
import os
import random
import sys

from PIL import Image, ImageDraw, ImageFilter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "smartcrop")
COUNT = 48
SKIN = [(255, 224, 196), (241, 194, 167), (224, 172, 138), (198, 134, 100), (161, 102, 73), (116, 70, 48), (87, 52, 37)]
SHAPES = [((480, 320), (1, 1)), ((480, 270), (1, 1)), ((320, 480), (1, 1)), ((270, 480), (1, 1)),
          ((480, 360), (9, 16)), ((480, 320), (9, 16)), ((360, 480), (16, 9)), ((320, 480), (4, 5))]


def crop_size(size, aspect):
    w, h = size
    aw, ah = aspect
    if w * ah > h * aw:
        return (h * aw // ah, h)
    return (w, w * ah // aw)


def background(rng, size):
    w, h = size
    kind = rng.choice(["sky", "bokeh", "texture", "flat", "wall"])
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    if kind == "sky":
        horizon = int(h * rng.uniform(0.45, 0.7))
        top, low = (rng.randint(120, 170), rng.randint(160, 200), rng.randint(200, 240)), (rng.randint(90, 130), rng.randint(100, 130), rng.randint(70, 100))
        for y in range(h):
            c = top if y < horizon else low
            t = y / h
            draw.line([(0, y), (w, y)], fill=tuple(int(v * (0.85 + 0.3 * t)) if y < horizon else v for v in c))
    elif kind == "bokeh":
        base = tuple(rng.randint(60, 140) for _ in range(3))
        draw.rectangle([0, 0, w, h], fill=base)
        for _ in range(40):
            r = rng.randint(10, 40)
            x, y = rng.randint(0, w), rng.randint(0, h)
            c = tuple(min(255, max(0, v + rng.randint(-30, 30))) for v in base)
            draw.ellipse([x - r, y - r, x + r, y + r], fill=c)
        image = image.filter(ImageFilter.GaussianBlur(8))
    elif kind == "texture":
        base = tuple(rng.randint(70, 150) for _ in range(3))
        pixels = image.load()
        for y in range(h):
            for x in range(w):
                n = rng.randint(-18, 18)
                pixels[x, y] = tuple(min(255, max(0, v + n)) for v in base)
        image = image.filter(ImageFilter.GaussianBlur(0.6))
    elif kind == "flat":
        base = tuple(rng.randint(90, 200) for _ in range(3))
        cx, cy = w / 2, h / 2
        for y in range(h):
            d = abs(y - cy) / h
            draw.line([(0, y), (w, y)], fill=tuple(int(v * (1 - 0.25 * d)) for v in base))
    else:
        base = tuple(rng.randint(110, 170) for _ in range(3))
        draw.rectangle([0, 0, w, h], fill=base)
        bw, bh = rng.randint(30, 50), rng.randint(14, 22)
        for row in range(0, h, bh):
            shift = (row // bh % 2) * bw // 2
            for col in range(-bw, w, bw):
                c = tuple(min(255, max(0, v + rng.randint(-10, 10))) for v in base)
                draw.rectangle([col + shift + 1, row + 1, col + shift + bw - 2, row + bh - 2], fill=c)
    return image, kind


def draw_subject(rng, image, box, kind):
    """Draws a subject filling `box` (x0, y0, x1, y1); returns its tight box."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if kind == "face":
        skin = rng.choice(SKIN)
        hair = tuple(rng.randint(10, 80) for _ in range(3))
        draw.ellipse([x0, y0 + h * 0.1, x1, y1], fill=skin)
        draw.chord([x0, y0, x1, y0 + h * 0.7], 180, 360, fill=hair)
        for ex in (0.32, 0.68):
            cx, cy = x0 + w * ex, y0 + h * 0.52
            draw.ellipse([cx - w * 0.08, cy - h * 0.04, cx + w * 0.08, cy + h * 0.04], fill=(250, 250, 250))
            draw.ellipse([cx - w * 0.035, cy - h * 0.035, cx + w * 0.035, cy + h * 0.035], fill=(40, 30, 20))
        draw.arc([x0 + w * 0.3, y0 + h * 0.6, x0 + w * 0.7, y0 + h * 0.85], 20, 160, fill=(150, 40, 40), width=max(2, w // 25))
    elif kind == "ball":
        colour = rng.choice([(220, 40, 30), (240, 150, 20), (30, 90, 220), (40, 180, 60), (200, 40, 160)])
        draw.ellipse([x0, y0, x1, y1], fill=colour)
        hl = tuple(min(255, v + 90) for v in colour)
        draw.ellipse([x0 + w * 0.2, y0 + h * 0.15, x0 + w * 0.45, y0 + h * 0.4], fill=hl)
    elif kind == "person":
        dark = tuple(rng.randint(10, 50) for _ in range(3))
        head = w * 0.45
        draw.ellipse([x0 + (w - head) / 2, y0, x0 + (w + head) / 2, y0 + head], fill=dark)
        draw.rounded_rectangle([x0, y0 + head * 1.05, x1, y1 - h * 0.3], radius=w // 5, fill=dark)
        draw.rectangle([x0 + w * 0.15, y1 - h * 0.32, x0 + w * 0.45, y1], fill=dark)
        draw.rectangle([x0 + w * 0.55, y1 - h * 0.32, x0 + w * 0.85, y1], fill=dark)
    elif kind == "sign":
        paper = (245, 245, 240)
        draw.rectangle([x0, y0, x1, y1], fill=paper, outline=(30, 30, 30), width=2)
        lines = max(3, int(h / 9))
        for i in range(lines):
            ly = y0 + 6 + i * (h - 12) / lines
            lx = x0 + 5
            while lx < x1 - 10:
                word = rng.randint(4, 16)
                draw.rectangle([lx, ly, min(x1 - 5, lx + word), ly + max(2, (h - 12) / lines * 0.5)], fill=(20, 20, 20))
                lx += word + 4
    else:  # flower
        petal = rng.choice([(250, 90, 140), (250, 210, 40), (200, 60, 220), (250, 120, 30)])
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        r = min(w, h) / 2
        for k in range(6):
            a = k * math.pi / 3
            px, py = cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5
            draw.ellipse([px - r * 0.5, py - r * 0.5, px + r * 0.5, py + r * 0.5], fill=petal)
        draw.ellipse([cx - r * 0.25, cy - r * 0.25, cx + r * 0.25, cy + r * 0.25], fill=(240, 200, 30))
    return (int(x0), int(y0), int(math.ceil(x1)), int(math.ceil(y1)))


def make(index, rng):
    size, aspect = SHAPES[index % len(SHAPES)]
    w, h = size
    cw, ch = crop_size(size, aspect)
    image, bg = background(rng, size)
    kind = ["face", "ball", "person", "sign", "flower"][index % 5]
    horizontal = cw < w
    span = (w if horizontal else h)
    crop_span = cw if horizontal else ch
    # The subject: at most 70% of the crop along the moving axis, so a crop can hold it.
    along = int(crop_span * rng.uniform(0.3, 0.6))
    across = int(along * {"face": 1.25, "ball": 1.0, "person": 2.2, "sign": 0.8, "flower": 1.0}[kind])
    across_span = h if horizontal else w
    across = min(across, int(across_span * 0.8))
    if kind in ("person", "face") and not horizontal:
        along, across = across, along
    along = min(along, int(crop_span * 0.9))
    # Off-centre: wholly outside the centre crop's span on one side.
    centre_start = (span - crop_span) // 2
    side = rng.choice([0, 1])
    if side == 0:
        lo, hi = 4, max(4, centre_start - 1)
        start = rng.randint(lo, max(lo, min(hi, span - along - 4)))
        start = min(start, centre_start - 1 + 0)  # starts left of the centre crop
    else:
        centre_end = centre_start + crop_span
        lo = max(centre_end - along + 1, 4)
        start = rng.randint(lo, max(lo, span - along - 4))
    cross_start = rng.randint(int(across_span * 0.1), max(int(across_span * 0.1), across_span - across - int(across_span * 0.1)))
    if horizontal:
        box = (start, cross_start, start + along, cross_start + across)
    else:
        box = (cross_start, start, cross_start + across, start + along)
    tight = draw_subject(rng, image, box, kind)
    return image, tight, (cw, ch), kind, bg


def main():
    out = os.path.join(ROOT, "generated")
    os.makedirs(out, exist_ok=True)
    rows = ["# file\twidth\theight\tcrop_width\tcrop_height\tx0\ty0\tx1\ty1\tsubject\tbackground"]
    rng = random.Random(20261204)
    for index in range(COUNT):
        image, box, crop, kind, bg = make(index, rng)
        name = f"scene{index:02d}-{kind}.jpg"
        image.save(os.path.join(out, name), quality=88)
        rows.append("\t".join(map(str, [f"generated/{name}", image.width, image.height, crop[0], crop[1], *box, kind, bg])))
    with open(os.path.join(ROOT, "labels.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"wrote {COUNT} scenes to {out}")


if __name__ == "__main__":
    sys.exit(main())
