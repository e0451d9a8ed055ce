#pragma once
// Growing a trained network into a larger one that computes the same function
// (the Net2Net idea): residual blocks added at the end of the tower start as
// identities (the batch norm that ends each one has scale and shift 0), and
// channels added to the tower copy existing ones while every layer reading
// them splits the copied channel's weights between the copies (random shares
// summing to 1, so that training can tell the copies apart). A small network
// trained cheaply becomes the start of a larger one without losing what it
// learned. No LibTorch here: plain weights and the layer list.
#include <cstdint>

#include "net/spec/model_config.h"
#include "net/spec/model_graph.h"

namespace vzero {

// Throws Error unless `to` differs from `from` only in blocks and filters, neither smaller.
void check_growable(const ModelConfig& from, const ModelConfig& to);

// Weights for the layer list `to` that compute, in eval mode and in training
// mode alike, what from_weights compute in `from` (exactly when only blocks
// grow; within float rounding when filters do). Layers that `from` lacks
// take fresh_weights (the larger model's own initialisation). seed draws which
// channel each added one copies and the shares. Throws Error when `to` is
// not a grown `from` (a layer missing, a shape that shrank, an added layer
// read by an old one) or a weight is missing.
Weights grow_weights(const NetworkGraph& from, const Weights& from_weights, const NetworkGraph& to,
                     const Weights& fresh_weights, uint64_t seed);

}  // namespace vzero
