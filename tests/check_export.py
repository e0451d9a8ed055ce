"""Checks a vzero TorchScript export from Python: it loads with torch.jit.load,
carries its identity, and gives the outputs the C++ model gave (within 1e-5).
Usage: check_export.py MODULE DIR N VARIANT (DIR holds x.bin, p.bin, v.bin)."""
import sys

import numpy as np
import torch

path, folder, n, variant = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
m = torch.jit.load(path)
assert m.variant == variant, m.variant
c, h, w = list(m.input_shape)
x = torch.from_numpy(np.fromfile(folder + "/x.bin", dtype=np.float32).reshape(n, c, h, w))
want_p = np.fromfile(folder + "/p.bin", dtype=np.float32).reshape(n, -1)
want_v = np.fromfile(folder + "/v.bin", dtype=np.float32).reshape(n, -1)
with torch.no_grad():
    p, v = m(x)
assert p.shape[1] == len(m.actions), (p.shape, len(m.actions))
assert v.shape[1] == m.players
dp = float(np.abs(p.numpy() - want_p).max())
dv = float(np.abs(v.numpy() - want_v).max())
assert dp < 1e-5 and dv < 1e-5, (dp, dv)
print("export ok", variant, "max diff", dp, dv)
