#!/usr/bin/env python3
"""Wraps checkpoints written before the checkpoint header (a bare LibTorch
archive, a zip file) in today's header: the magic VZCKPT02, the archive's
length and its FNV-1a 64 hash, both little-endian (net/checkpoint.cpp).
Files that already carry the header are left alone.

    scripts/upgrade-checkpoint.py FILE.pt [FILE.pt ...]
"""
import os
import struct
import sys

MAGIC = b"VZCKPT02"


def fnv1a(data: bytes) -> int:
    h = 1469598103934665603
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def upgrade(path: str) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(MAGIC):
        return "already has the header"
    if not data.startswith(b"PK\x03\x04"):
        raise ValueError("is neither a vzero checkpoint nor a LibTorch archive")
    with open(path + ".tmp", "wb") as f:
        f.write(MAGIC + struct.pack("<QQ", len(data), fnv1a(data)) + data)
    os.replace(path + ".tmp", path)
    return "upgraded"


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    status = 0
    for path in sys.argv[1:]:
        try:
            print(f"{path}: {upgrade(path)}")
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
