#!/usr/bin/env python3
"""Draws the web app's icons into web/icons/ (committed; run again after changing the design).

    scripts/make-icons.py

A 4×4 board of warm light and dark squares on the page's dark background, with a white and a
black piece on it (Ugolki's and Halma's round pieces). Sizes: 192 and 512 pixels (what the web
app manifest needs), 180 (Apple's touch icon), and a 512-pixel "maskable" icon whose picture
stays inside the middle 80 % (platforms cut maskable icons to a circle or rounded square).
Anti-aliased by supersampling. Standard library only (zlib + struct for the PNG).
"""

import os
import struct
import zlib

BACKGROUND = (0x1B, 0x17, 0x14)
LIGHT = (0xE8, 0xD2, 0xAC)
DARK = (0xB5, 0x83, 0x52)
WHITE_PIECE = (0xF7, 0xF3, 0xEC)
BLACK_PIECE = (0x2A, 0x22, 0x1D)
RIM = (0xD9, 0xA4, 0x5B)


def colour_at(x, y, board, corner):
    """The colour at (x, y) in [0, 1)² for a board covering `board` of the width."""
    margin = (1 - board) / 2
    bx, by = (x - margin) / board, (y - margin) / board
    if not (0 <= bx < 1 and 0 <= by < 1):
        return BACKGROUND
    # Rounded outer corners.
    for cx, cy in ((corner, corner), (1 - corner, corner), (corner, 1 - corner), (1 - corner, 1 - corner)):
        if (bx < corner if cx == corner else bx > 1 - corner) and (by < corner if cy == corner else by > 1 - corner):
            if (bx - cx) ** 2 + (by - cy) ** 2 > corner**2:
                return BACKGROUND
    col, row = int(bx * 4), int(by * 4)
    # Pieces: a white one on b3 and a black one on c2 (cells of the 4×4 board).
    for (pc, pr), fill in (((1, 2), WHITE_PIECE), ((2, 1), BLACK_PIECE)):
        cx, cy = (pc + 0.5) / 4, (pr + 0.5) / 4
        d2 = (bx - cx) ** 2 + (by - cy) ** 2
        if d2 < (0.155) ** 2:
            return fill
        if d2 < (0.185) ** 2:
            return RIM
    return LIGHT if (col + row) % 2 == 0 else DARK


def draw(size, board, corner, samples=3):
    rows = []
    for py in range(size):
        row = bytearray([0])  # PNG filter: none
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    c = colour_at((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size, board, corner)
                    for i in range(3):
                        acc[i] += c[i]
            row += bytes(round(a / samples**2) for a in acc)
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width, height, raw):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    folder = os.path.join(os.path.dirname(__file__), "..", "web", "icons")
    os.makedirs(folder, exist_ok=True)
    for name, size, board in (
        ("icon-192.png", 192, 0.84),
        ("icon-512.png", 512, 0.84),
        ("apple-touch-icon.png", 180, 0.80),
        # Maskable: the safe zone is the middle circle of 80 % diameter; the board's corners
        # (at 0.56 · √2 ≈ 0.79 of the width, diagonally) stay inside it.
        ("icon-maskable-512.png", 512, 0.56),
    ):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(draw(size, board, 0.08))
        print(f"web/icons/{name}: {size}×{size}")


if __name__ == "__main__":
    main()
