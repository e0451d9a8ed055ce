#pragma once
// The inference form "int8" (net/model.h): the folded layer list with its
// convolutions in int8 (weights per output channel, activations per tensor,
// ReLU and residual adds fused where they follow), everything else in fp32,
// through LibTorch's quantized engines.
#include <functional>

#include "net/model.h"

namespace vzero {

// The forward of a folded layer list (no batch norm) with its weights, its
// convolutions run in int8 on the CPU: activation ranges calibrated on the
// fp32 outputs for the inputs of calibration [N, C, H, W]. Not exact: its
// outputs differ from fp32 by the rounding of 8 bits (bench nn prints by how
// much). Safe to call from many threads at once; throws Error when this
// LibTorch has no quantized engine (onednn or qnnpack) or refuses the model.
std::function<NetOutput(const torch::Tensor&)> int8_forward(const NetworkGraph& folded,
                                                            const Weights& weights,
                                                            const torch::Tensor& calibration);

}  // namespace vzero
