#pragma once
// The replay window: the samples of the newest shards, split by game into
// training and held-out samples, in a canonical order. No LibTorch.
#include <string>
#include <vector>

#include "game/game.h"
#include "selfplay/sample.h"
#include "selfplay/shard.h"

namespace vzero {

// The samples of the most recent shards, split into training and held-out games.
struct ReplayWindow {
  ShardMeta meta;
  std::vector<Sample> train, validation;
  int shards = 0;
  int skipped = 0;  // shards refused as unreadable (damaged, truncated, vanished), left out
};
// Reads the newest shards of dir until window samples (every shard must fit game and its
// encoding version `encoding`, 0: the newest; throws Error otherwise). A shard that read_shard
// refuses is skipped, counted in skipped and named on stderr with the reason; the window goes on
// with the next one. Samples know their moves left. Generation-0 games (the bootstrap) keep at most
// bootstrap_share of the window: a fixed subset of them by game id when they would take more.
ReplayWindow load_window(const Game& game, const std::string& dir, int64_t window,
                         double holdout_fraction, double bootstrap_share = 1.0, int encoding = 0);
// The same from the given shards, oldest first (the ranks of distributed training read rank 0's
// list).
ReplayWindow load_window(const Game& game, const std::vector<std::string>& shards, int64_t window,
                         double holdout_fraction, double bootstrap_share = 1.0, int encoding = 0);
// The samples of every complete shard in dir (from their attributes); a shard
// that cannot be read counts none (load_window skips it and says so).
int64_t count_positions(const std::string& dir);
// The games and samples of one shard from its attributes; none for a shard
// that cannot be read (a damaged one: load_window skips it and says so).
ShardCounts readable_shard_counts(const std::string& path);

}  // namespace vzero
