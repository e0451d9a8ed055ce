#pragma once
// Exports for other frontends (Python, C++ programs, GUIs, browsers), all
// derived from the layer list with batch norm folded:
// - TorchScript: a module with a real forward (input planes -> policy
//   logits, values[, wdl][, moves_left]) and the identity as attributes;
// - ONNX (net/onnx_writer.h) with a JSON sidecar (net/export_info.h);
// - a golden set: positions from seeded random play, encoded, with the
//   model's outputs, so a runtime can be checked against LibTorch.
#include <functional>
#include <string>

#include "game/game.h"
#include "net/model.h"

namespace vzero {

// Writes model as a TorchScript file at path (throws Error when it cannot).
void export_torchscript(PolicyValueNet& model, const Game& game, const std::string& path);

// Writes model as an ONNX file at path and its JSON sidecar at sidecar_path (throws Error when it
// cannot).
void export_onnx(PolicyValueNet& model, const Game& game, const std::string& path,
                 const std::string& sidecar_path);

// Writes `positions` positions of seeded random play into folder dir:
// input.bin [N, C, H, W] and one <output>.bin [N, width] per output
// (float32, little-endian, row-major) and manifest.json naming them with
// their shapes, each position's FEN and its legal actions as text (throws
// Error when it cannot).
// The forward of a folded layer list (no batch norm) with its weights, as the
// TorchScript that export_torchscript writes, on device, frozen (weights as
// constants) and optimised for inference (torch::jit::optimize_for_inference:
// oneDNN convolutions, fused ReLU and add): the inference form "frozen"
// (net/model.h). Safe to call from many threads at once; throws Error when
// LibTorch refuses the module.
std::function<NetOutput(const torch::Tensor&)> frozen_forward(const NetworkGraph& folded,
                                                              const Weights& weights,
                                                              const torch::Device& device);

// The network inputs [n, C, H, W] of n positions of seeded random play (the
// positions of a golden set) in encoding version `encoding` (0: the newest),
// their plies scaled by plies_cap (0: each position's own cap).
torch::Tensor golden_inputs(const Game& game, int n, uint64_t seed, int plies_cap = 0,
                            int encoding = 0);

void write_golden(PolicyValueNet& model, const Game& game, int positions, uint64_t seed,
                  const std::string& dir);

}  // namespace vzero
