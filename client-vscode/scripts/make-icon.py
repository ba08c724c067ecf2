#!/usr/bin/env python3
"""Draws the extension icon (client-vscode/media/icon.png, 128x128): a torch-orange rounded
square, a white ring (a device) and a dot moving onto it.  Pure Python, no image library."""
import math
import struct
import sys
import zlib
from pathlib import Path

SIZE = 128
ORANGE = (238, 76, 44)


def coverage(distance: float) -> float:
    """Anti-aliased edge: 1 inside, 0 outside, linear over one pixel."""
    return max(0.0, min(1.0, 0.5 - distance))


def pixel(x: float, y: float) -> tuple[int, int, int, int]:
    # rounded square, corner radius 24
    r = 24
    qx, qy = abs(x - 64) - (64 - r), abs(y - 64) - (64 - r)
    outside = math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
    alpha = coverage(outside)
    colour = ORANGE
    ring = abs(math.hypot(x - 70, y - 64) - 30) - 7  # a ring: the device
    dot = math.hypot(x - 24, y - 64) - 9  # a tensor on its way onto it
    white = max(coverage(ring), coverage(dot))
    colour = tuple(round(c * (1 - white) + 255 * white) for c in colour)
    return (*colour, round(255 * alpha))


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> int:
    rows = [b"".join(bytes(pixel(x + 0.5, y + 0.5)) for x in range(SIZE)) for y in range(SIZE)]
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "media" / "icon.png")
    target.write_bytes(png(SIZE, SIZE, rows))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
