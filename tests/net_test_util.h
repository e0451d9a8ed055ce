#pragma once
// Helpers of the network tests: sampled positions, their input tensor, and
// small models whose batch norms are not the identity (so folding is tested).
#include <torch/torch.h>

#include <memory>
#include <random>
#include <vector>

#include "game/game.h"
#include "net/model.h"

namespace vzero::testing {

// Positions along seeded random games (the start included).
inline std::vector<std::unique_ptr<GameState>> sample_states(const Game& game, int n,
                                                             uint64_t seed) {
  std::vector<std::unique_ptr<GameState>> out;
  std::mt19937_64 rng(seed);
  auto s = game.new_state();
  while (int(out.size()) < n) {
    if (s->is_terminal()) s = game.new_state();
    out.push_back(s->clone());
    const auto& legal = s->legal_actions();
    s->apply(legal[rng() % legal.size()]);
  }
  return out;
}

// The network input of states as one tensor, in encoding `version` (0: the newest).
inline torch::Tensor inputs(const Game& game, const std::vector<std::unique_ptr<GameState>>& states,
                            int version = 0) {
  version = resolved_encoding(game, version);
  const EncodingSpec& e = game.encoding(version);
  torch::Tensor x = torch::empty({int64_t(states.size()), e.channels(), e.height, e.width});
  std::vector<uint8_t> planes(e.planes * e.plane_size());
  std::vector<float> scalars(e.scalars);
  for (size_t i = 0; i < states.size(); ++i) {
    states[i]->encode(planes.data(), scalars.data(), 0, version);
    expand_input(e, planes.data(), scalars.data(),
                 x.data_ptr<float>() + i * e.channels() * e.plane_size());
  }
  return x;
}

// A small config (2 blocks x 16 filters) of the default shape.
inline ModelConfig small_config() {
  ModelConfig c;
  c.blocks = 2;
  c.filters = 16;
  return c;
}

// A seeded model of config in eval mode, with batch-norm scales, shifts and
// running statistics away from their initial values.
inline PolicyValueNet small_model(const Game& game, const ModelConfig& c = small_config(),
                                  uint64_t seed = 3) {
  PolicyValueNet m = make_model(c, ModelIdentity::of(game, c.encoding), seed);
  torch::NoGradGuard g;
  for (auto& p : m->named_parameters())
    if (p.key().find("bn") != std::string::npos) p.value().uniform_(0.5, 1.5);
  m->train();
  for (int i = 0; i < 3; ++i)
    m->forward(torch::randn({8, m->identity.channels, m->identity.height, m->identity.width}));
  m->eval();
  return m;
}

}  // namespace vzero::testing
