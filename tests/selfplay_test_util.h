#pragma once
// Small helpers shared by the self-play and learning tests.
#include <filesystem>
#include <string>

#include "selfplay/selfplay.h"
#include "selfplay/shard.h"

namespace vzero::testing {

// Self-play settings of a small run: its games, games in parallel, games per shard, and full and
// fast visits.
inline SelfplayConfig small_selfplay(int games, int parallel, int per_shard, int full, int fast) {
  SelfplayConfig sp;
  sp.games = games, sp.parallel_games = parallel, sp.games_per_shard = per_shard;
  sp.full_visits = full, sp.fast_visits = fast;
  return sp;
}

// A job playing game with eval under settings sp into out_dir, its shards of generation
// `generation`.
inline SelfplayJob selfplay_job(const Game& game, Evaluator& eval, const std::string& out_dir,
                                const SelfplayConfig& sp, int generation = 0) {
  SelfplayJob job;
  job.game = &game;
  job.selfplay = sp;
  job.evaluator = &eval;
  job.meta = shard_meta_for(game, 0, 0, generation);
  job.out_dir = out_dir;
  return job;
}

// Every game and sample of the shards in dir, shard after shard.
inline ShardData read_all_shards(const std::filesystem::path& dir) {
  ShardData all;
  for (const std::string& p : list_shards(dir.string())) {
    ShardData d = read_shard(p);
    all.games.insert(all.games.end(), d.games.begin(), d.games.end());
    all.samples.insert(all.samples.end(), d.samples.begin(), d.samples.end());
  }
  return all;
}

}  // namespace vzero::testing
