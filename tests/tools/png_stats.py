#!/usr/bin/python3
"""png_stats.py PNG — decodes an 8-bit RGB/RGBA PNG with the standard
library only (zlib; the five scanline filters undone) and prints
"width height colours ink" where colours is the number of distinct pixel
colours and ink the fraction of pixels that differ from the most common
one (the page background). A blank screenshot has colours 1, ink 0.
Exits 1 on anything that is not such a PNG."""
import struct
import sys
import zlib
from collections import Counter


def decode(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG: depth %d colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    try:
        with open(sys.argv[1], "rb") as f:
            w, h, bpp, rows = decode(f.read())
    except (OSError, ValueError, zlib.error, struct.error, TypeError) as e:
        print("png_stats: %s" % e, file=sys.stderr)
        return 1
    counts = Counter()
    for r in rows:
        for i in range(0, len(r), bpp):
            counts[r[i:i + 3]] += 1
    total = w * h
    ink = 1 - counts.most_common(1)[0][1] / total
    print("%d %d %d %.4f" % (w, h, len(counts), ink))
    return 0


if __name__ == "__main__":
    sys.exit(main())
