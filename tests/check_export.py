"""Checks the exports tests/export_check.sh wrote, with Debian's python3-onnx
and python3-torch (run with /usr/bin/python3):
- onnx.checker (full check, with shape inference) accepts each ONNX file, which
  has IR version 8, opset <= 17, a dynamic batch dimension, batch norm folded,
  the outputs the sidecar names and the identity in metadata_props;
- the sidecar maps the policy outputs to the actions and names every input channel;
- the TorchScript file of the same checkpoint gives the golden outputs (LibTorch's) within 1e-5.
Usage: check_export.py DIR"""
import json
import os
import sys

import numpy as np
import onnx
import torch

folder = sys.argv[1]
cases = [line.split() for line in open(os.path.join(folder, "cases.txt")) if line.strip()]
assert cases, "no export cases"


def golden(name):
    """The manifest, the input and the outputs (by name) of a case's golden set."""
    d = os.path.join(folder, name + ".golden")
    m = json.load(open(os.path.join(d, "manifest.json")))
    x = np.fromfile(os.path.join(d, m["input"]["file"]), dtype="<f4").reshape(m["input"]["shape"])
    outs = {o["name"]: np.fromfile(os.path.join(d, o["file"]), dtype="<f4").reshape(o["shape"]) for o in m["outputs"]}
    return m, x, outs


for name, variant in cases:
    manifest, x, want = golden(name)
    assert manifest["positions"] >= 64, manifest["positions"]
    sidecar = json.load(open(os.path.join(folder, name + ".json")))

    model = onnx.load(os.path.join(folder, name + ".onnx"))
    onnx.checker.check_model(model, full_check=True)
    assert model.ir_version == 8, model.ir_version
    opsets = {o.domain: o.version for o in model.opset_import}
    assert set(opsets) == {""} and opsets[""] <= 17, opsets
    assert not any(n.op_type == "BatchNormalization" for n in model.graph.node), "batch norm not folded"
    meta = {p.key: p.value for p in model.metadata_props}
    for key in ("variant", "rules_hash", "encoding_hash", "input_shape", "vzero_version", "model_config"):
        assert meta.get(key), key
    assert meta["variant"] == variant and sidecar["variant"] == variant
    assert meta["rules_hash"] == sidecar["rules_hash"] and meta["encoding_hash"] == sidecar["encoding_hash"]
    (inp,) = model.graph.input
    dims = inp.type.tensor_type.shape.dim
    assert inp.name == "input" and dims[0].dim_param == "batch", inp
    assert [d.dim_value for d in dims[1:]] == list(x.shape[1:]), (dims, x.shape)
    assert meta["input_shape"] == "batch," + ",".join(str(d) for d in x.shape[1:]), meta["input_shape"]
    outputs = [o.name for o in model.graph.output]
    assert outputs == [o["name"] for o in sidecar["outputs"]] == list(want), (outputs, list(want))
    for o in model.graph.output:
        assert o.type.tensor_type.shape.dim[0].dim_param == "batch", o

    assert len(sidecar["actions"]) == want["policy"].shape[1] == sidecar["num_actions"]
    assert len(sidecar["input"]["channels"]) == x.shape[1]
    assert want["values"].shape[1] == (2 if "wdl" in want else sidecar["players"])

    ts = torch.jit.load(os.path.join(folder, name + ".ts"))
    assert ts.variant == variant and list(ts.outputs) == outputs and len(ts.actions) == len(sidecar["actions"])
    with torch.no_grad():
        got = ts(torch.from_numpy(x))
    diffs = {}
    for k, out in zip(ts.outputs, got):
        diffs[k] = float(np.abs(out.numpy() - want[k]).max())
        assert diffs[k] < 1e-5, (name, k, diffs[k])
    print(f"{name}: onnx.checker ok, torchscript max diff " + " ".join(f"{k} {v:.2e}" for k, v in diffs.items()))
print("export checks ok:", len(cases), "cases")
