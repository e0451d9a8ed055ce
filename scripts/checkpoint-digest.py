#!/usr/bin/python3
"""Prints "weights_hash H step S digest D" for each vzero checkpoint named:
H is the checksum the checkpoint stores over its weights and buffers, S its
training step, D a SHA-256 over every tensor storage it holds (weights,
buffers, optimizer state), taken in sorted order because LibTorch does not
fix their order in the archive. Two checkpoints with equal digests hold the
same model and optimizer state. Standard library only."""
import hashlib
import io
import pickletools
import sys
import zipfile


def digest(path):
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        pkl = next(n for n in names if n.endswith("/data.pkl"))
        # The pickle's values, memo operations left out: each key is followed by its value.
        values = [arg for op, arg, _ in pickletools.genops(io.BytesIO(z.read(pkl))) if not op.name.endswith("PUT")]
        weights_hash = values[values.index("weights_hash") + 1]
        step = values[values.index("step") + 1]
        h = hashlib.sha256()
        for blob in sorted(z.read(n) for n in names if "/data/" in n):
            h.update(len(blob).to_bytes(8, "little"))
            h.update(blob)
    return "weights_hash %s step %s digest %s" % (weights_hash, step, h.hexdigest()[:32])


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(digest(p))
