// The replay window.
#include "training/window.h"

#include <algorithm>
#include <unordered_set>

#include "game/error.h"
#include "game/zobrist.h"
#include "net/model_config.h"
#include "selfplay/shard.h"

namespace vzero {

ReplayWindow load_window(const Game& game, const std::string& dir, int window, double holdout_fraction) {
  ReplayWindow w;
  std::vector<std::string> shards = list_shards(dir);
  const ModelIdentity id = ModelIdentity::of(game);
  int64_t total = 0;
  std::unordered_set<int64_t> seen;  // games of the shards read so far (newer ones first)
  for (auto it = shards.rbegin(); it != shards.rend() && total < window; ++it) {
    ShardData d = read_shard(*it);
    if (d.meta.variant != id.variant || d.meta.rules_hash != id.rules_hash || d.meta.encoding_hash != id.encoding_hash)
      throw Error("shard '" + *it + "' was written for another variant, rules file or encoding");
    w.meta = d.meta;
    ++w.shards;
    std::unordered_set<int64_t> here;
    for (const GameRecord& g : d.games)
      if (!seen.count(g.game_id)) here.insert(g.game_id);  // a game written twice counts once
    for (Sample& s : d.samples) {
      if (!here.count(s.game_id)) continue;
      uint64_t h = uint64_t(s.game_id) * 0x9E3779B97F4A7C15ull;
      const bool held_out = double(splitmix64(h) >> 11) * 0x1.0p-53 < holdout_fraction;
      (held_out ? w.validation : w.train).push_back(std::move(s));
      ++total;
    }
    seen.insert(here.begin(), here.end());
  }
  if (w.train.empty()) throw Error("no training samples in '" + dir + "'");
  // A total order, whatever order the files were found in: batches (drawn by
  // index from the seed and step) then repeat exactly on a resumed or copied
  // run. Each (game, ply) once.
  const auto by_game_and_ply = [](const Sample& a, const Sample& b) {
    return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
  };
  const auto same_position = [](const Sample& a, const Sample& b) { return a.game_id == b.game_id && a.ply == b.ply; };
  for (std::vector<Sample>* part : {&w.train, &w.validation}) {
    std::stable_sort(part->begin(), part->end(), by_game_and_ply);
    part->erase(std::unique(part->begin(), part->end(), same_position), part->end());
  }
  return w;
}

}  // namespace vzero
