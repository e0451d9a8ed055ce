#pragma once
// The inference form "winograd" (net/model.h): the folded layer list with its
// 3x3 convolutions computed by Winograd's minimal filtering F(m x m, 3 x 3)
// (Lavin and Gray 2015) and a register-blocked matrix product of our own, the
// bias, a residual add and a ReLU that follow fused into the output transform;
// every other layer as the folded form runs it. fp32 throughout: the folded
// outputs up to float rounding.
#include <functional>

#include "net/model.h"

namespace vzero {

// The forward of a folded layer list (no batch norm) with its weights on the
// CPU. Threads: the calling thread's LibTorch intra-op pool
// (at::set_num_threads). Safe to call from many threads at once.
std::function<NetOutput(const torch::Tensor&)> winograd_forward(const NetworkGraph& folded,
                                                                const Weights& weights);

// The output tile m (2, 3 or 4) that the fewest multiplications of a
// height x width board need: tiles * (m + 2)^2, the smaller m on a tie
// (6x6: 3; 8x8: 4).
int winograd_tile(int height, int width);

}  // namespace vzero
