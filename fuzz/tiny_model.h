#pragma once
// The model the checkpoint fuzz targets use: a made-up 2x2 board with 2
// input channels and 3 actions, so that files stay small and loads fast.
#include "net/spec/model_config.h"

namespace vzero::fuzz {

inline ModelIdentity tiny_identity() {
  ModelIdentity id;
  id.variant = "fuzz";
  id.rules_hash = 0x0123456789abcdefull;
  id.encoding_hash = 0xfedcba9876543210ull;
  id.channels = 2;
  id.height = id.width = 2;
  id.num_actions = 3;
  id.players = 2;
  return id;
}

inline ModelConfig tiny_config() {
  ModelConfig c;
  c.blocks = 1;
  c.filters = c.value_hidden = 2;
  c.policy_channels = 1;
  return c;
}

}  // namespace vzero::fuzz
