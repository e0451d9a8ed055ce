#!/usr/bin/python3
"""Checks the interop shard written by shard_tests '[.interop]' with h5py:
shapes, dtypes (float16 policy weights), filters and a few values.
Run with Debian's /usr/bin/python3 (the one with h5py)."""
import sys

import h5py
import numpy as np

path = sys.argv[1]
with h5py.File(path, "r") as f:
    a = f.attrs
    assert int(a["format_version"]) == 1
    assert a["variant"] == b"interop", a["variant"]
    assert a["rules_hash"].dtype == np.uint64 and int(a["rules_hash"]) == 0xFEDCBA9876543210
    assert (int(a["planes"]), int(a["height"]), int(a["width"])) == (2, 3, 3)
    assert (int(a["num_samples"]), int(a["num_games"]), int(a["players"])) == (3, 2, 2)

    planes = f["planes"]
    assert planes.shape == (3, 2, 3, 3) and planes.dtype == np.uint8
    assert planes.fletcher32 and planes.compression == "gzip" and planes.chunks is not None
    assert planes[0].reshape(-1).tolist() == [k % 4 for k in range(18)]
    assert f["scalars"].dtype == np.float32 and f["scalars"][1].tolist() == [0.5, -1.5]

    off, idx, w = f["policy_offset"][:], f["policy_index"][:], f["policy_weight"]
    assert off.dtype == np.int64 and off.tolist() == [0, 3, 6, 9]
    assert idx.dtype == np.int32 and idx[off[2]:off[3]].tolist() == [3, 7, 19]
    assert w.dtype == np.float16, w.dtype
    assert np.array_equal(w[0:3], np.array([0.1, 0.3, 0.6], dtype=np.float16))

    assert f["root_value"].shape == (3, 2) and f["root_value"][2].tolist() == [0.5, -0.5]
    assert f["game_id"][:].tolist() == [10, 10, 11] and f["game_id"].dtype == np.int64
    assert f["player"].dtype == np.int8 and f["full_search"][:].tolist() == [1, 0, 1]

    g = f["games"]
    assert g["game_id"][:].tolist() == [10, 11]
    assert g["seed"].dtype == np.uint64 and int(g["seed"][1]) == 0xFFFFFFFFFFFFFF01
    assert g["start_fen"][:].tolist() == [b"start fen zero", b"fen one"]
    ao = g["action_offset"][:]
    assert g["actions"][ao[0]:ao[1]].tolist() == [1, 2, 3] and g["actions"][ao[1]:ao[2]].tolist() == [19]
    assert g["result"][0].tolist() == [1.0, -1.0]
    assert g["end_reason"][:].tolist() == [b"checkmate", b"cap"]
    assert g["resigned"][:].tolist() == [0, 1]
print("check_shard.py: ok", path)
