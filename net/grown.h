#pragma once
// A trained model grown into a larger one with the same outputs (the weights
// rule is net/spec/grow.h): the start of a larger network's training.
#include <cstdint>

#include "net/model.h"

namespace vzero {

// A model of config `to` (from's config with more blocks or filters; encoding
// 0: from's) whose
// outputs are from's, in eval and training mode, within float rounding (exact
// when only blocks grow); seed initialises the added blocks and draws the
// copied channels. Keeps from's plies scale. Throws Error when `to` is not a
// grown from's config.
PolicyValueNet grown_model(PolicyValueNet& from, ModelConfig to, uint64_t seed);

}  // namespace vzero
