#pragma once
// The replay window: the samples of the newest shards, split by game into
// training and held-out samples, in a canonical order. No LibTorch.
#include <string>
#include <vector>

#include "game/game.h"
#include "selfplay/sample.h"

namespace vzero {

// The samples of the most recent shards, split into training and held-out games.
struct ReplayWindow {
  ShardMeta meta;
  std::vector<Sample> train, validation;
  int shards = 0;
};
// Reads the newest shards of dir until window samples (every shard must fit game; throws Error otherwise).
ReplayWindow load_window(const Game& game, const std::string& dir, int window, double holdout_fraction);

}  // namespace vzero
