#pragma once
// The shape of a policy/value network, read from the [model] table of a
// config (typed, with ranges; unknown keys are errors). No LibTorch here.
#include <cstdint>
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero {

class TomlReader;

struct ModelConfig {
  int blocks = 4;         // residual blocks
  int filters = 32;       // channels of the tower
  int value_hidden = 64;  // width of the value head's hidden layer
  // "fc": a 1x1 convolution to policy_channels planes, then a linear layer to
  // every action; "conv": a 3x3 convolution to the variant's policy planes
  // (Game::policy_map), each action's logit read at its plane and square.
  std::string policy_head = "fc";
  int policy_channels = 4;  // policy_head = "fc": 1x1 channels before its linear layer
  // Every global_pooling-th residual block (the N-th, 2N-th, ...) adds a bias per
  // channel before its second convolution, from the mean and max over the
  // board of its first convolution's output (KataGo-style); 0: none.
  int global_pooling = 0;
  // "scalar": a tanh value per seat; "wdl" (2 players only): win/draw/loss
  // logits for the player to act, the values derived as win - loss.
  std::string value_head = "scalar";
  bool moves_left_head = false;  // an extra output: the expected remaining plies
  // The input encoding version the network reads (Game::encoding(version));
  // 0: the variant's newest (a run folder with shards: theirs, RunContext).
  // A model stores the version it was made with.
  int encoding = 0;

  std::string to_text() const;  // "key = value" lines of every field (stored in checkpoints)
};

ModelConfig read_model_config(TomlReader& in, ModelConfig defaults = {});
// Parses to_text() back (throws Error when malformed).
ModelConfig model_config_from_text(const std::string& text);

// What a model is for: the variant, its rules and the encoding it reads.
// Checkpoints, exports and shards all carry it.
// A 64-bit hash as 16 hex digits (how checkpoints and exports store hashes).
std::string hash_hex(uint64_t hash);

struct ModelIdentity {
  std::string variant;
  uint64_t rules_hash = 0;
  uint64_t encoding_hash = 0;
  int encoding = 1;  // the encoding version (Game::encoding); not stored, known from the config
  int channels = 0, height = 0, width = 0;
  int num_actions = 0;
  int players = 2;
  // The convolutional policy head's map (Game::policy_map, game/policy_map.h):
  // its planes and, per action, plane * height * width + square; 0 and empty
  // when the variant has none. It follows from the action texts, which
  // encoding_hash covers, so expect_same leaves it out.
  int policy_planes = 0;
  std::vector<int64_t> policy_index;

  // The identity of a model of game reading encoding `version` (0: the newest).
  static ModelIdentity of(const Game& game, int version = 0);
  // Throws Error naming the first field where other differs from this (what of: "checkpoint 'x'").
  void expect_same(const ModelIdentity& other, const std::string& what) const;
};

}  // namespace vzero
