// The replay window.
#include "training/window.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "game/zobrist.h"
#include "net/spec/model_config.h"
#include "selfplay/shard.h"
#include "util/error.h"

namespace vzero {

namespace {

// A game's place in [0, 1), fixed by its id (held-out games, the bootstrap's kept subset).
double game_fraction(int64_t game_id, uint64_t salt) {
  uint64_t h = uint64_t(game_id) * 0x9E3779B97F4A7C15ull ^ salt;
  return double(splitmix64(h) >> 11) * 0x1.0p-53;
}

// Drops generation-0 games beyond share of part (by their fixed fraction, so the same ones each
// time).
void cap_bootstrap(std::vector<Sample>& part, double share) {
  if (share >= 1.0) return;
  int64_t bootstrap = 0;
  for (const Sample& s : part) bootstrap += s.generation == 0;
  const int64_t rest = int64_t(part.size()) - bootstrap;
  if (bootstrap == 0 || rest == 0) return;  // nothing to cap, or nothing else to train on
  const double keep = std::min(1.0, share * double(rest) / ((1.0 - share) * double(bootstrap)));
  part.erase(std::remove_if(part.begin(), part.end(),
                            [&](const Sample& s) {
                              return s.generation == 0 && game_fraction(s.game_id, 0xb0075) >= keep;
                            }),
             part.end());
}

// The id under which a game (its id in its shard, its seed) enters the window, taken in
// seed_of; -1 when the same game (id and seed) is there already. A distinct game whose id is
// taken gets one derived from its id and seed (the same on every load), above every id a run
// gives (generation * 10^8 + index).
int64_t window_game_id(std::unordered_map<int64_t, uint64_t>& seed_of, int64_t id, uint64_t seed) {
  for (uint64_t h = uint64_t(id) ^ seed;;) {
    const auto [it, fresh] = seed_of.emplace(id, seed);
    if (fresh) return id;
    if (it->second == seed) return -1;
    id = int64_t((splitmix64(h) >> 2) | (uint64_t(1) << 61));
  }
}

}  // namespace

ShardCounts readable_shard_counts(const std::string& path) {
  try {
    return read_shard_counts(path);
  } catch (const Error&) {
    return ShardCounts{};  // a damaged shard: load_window skips it and says so
  }
}

int64_t count_positions(const std::string& dir) {
  int64_t n = 0;
  for (const std::string& p : list_shards(dir)) n += readable_shard_counts(p).samples;
  return n;
}

ReplayWindow load_window(const Game& game, const std::string& dir, int64_t window,
                         double holdout_fraction, double bootstrap_share, int encoding) {
  const std::vector<std::string> shards = list_shards(dir);
  if (shards.empty()) throw Error("no training samples in '" + dir + "'");
  return load_window(game, shards, window, holdout_fraction, bootstrap_share, encoding);
}

ReplayWindow load_window(const Game& game, const std::vector<std::string>& shards, int64_t window,
                         double holdout_fraction, double bootstrap_share, int encoding) {
  ReplayWindow w;
  const ModelIdentity id = ModelIdentity::of(game, encoding);
  int64_t total = 0;
  // The seed of each game id taken so far (newer shards first). A game is its id and its seed:
  // the same game written twice counts once, and a game whose id another game already holds
  // (two self-play folders both count from 0) counts under an id of its own.
  std::unordered_map<int64_t, uint64_t> seed_of;
  for (auto it = shards.rbegin(); it != shards.rend() && total < window; ++it) {
    ShardData d;
    try {
      d = read_shard(*it);
    } catch (
        const Error& e) {  // damaged (whole-file checksum, Fletcher32, hashes), truncated, vanished
      ++w.skipped;
      std::cerr << "vzero: window: skipped an unreadable shard (" << w.skipped
                << " so far): " << e.what() << std::endl;
      continue;
    }
    if (d.meta.variant != id.variant || d.meta.rules_hash != id.rules_hash ||
        d.meta.encoding_hash != id.encoding_hash)
      throw Error("shard '" + *it + "' was written for another variant, rules file or encoding");
    w.meta = d.meta;
    ++w.shards;
    // This shard's games by their id in it: the record and the id in the window.
    std::unordered_map<int64_t, std::pair<const GameRecord*, int64_t>> here;
    for (const GameRecord& g : d.games) {
      const int64_t id = window_game_id(seed_of, g.game_id, g.seed);
      if (id >= 0) here[g.game_id] = {&g, id};
    }
    for (Sample& s : d.samples) {
      const auto game_of = here.find(s.game_id);
      if (game_of == here.end()) continue;
      annotate_from_record(s, *game_of->second.first);
      s.game_id = game_of->second.second;
      const bool held_out = game_fraction(s.game_id, 0) < holdout_fraction;
      (held_out ? w.validation : w.train).push_back(std::move(s));
      ++total;
    }
  }
  cap_bootstrap(w.train, bootstrap_share);
  if (w.train.empty())
    throw Error("no training samples in '" +
                (shards.empty() ? std::string("(no shards)")
                                : std::filesystem::path(shards.front()).parent_path().string()) +
                "'");
  // A total order, whatever order the files were found in: batches (drawn by
  // index from the seed and step) then repeat exactly on a resumed or copied
  // run. Each (game, ply) once.
  const auto by_game_and_ply = [](const Sample& a, const Sample& b) {
    return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
  };
  const auto same_position = [](const Sample& a, const Sample& b) {
    return a.game_id == b.game_id && a.ply == b.ply;
  };
  for (std::vector<Sample>* part : {&w.train, &w.validation}) {
    std::stable_sort(part->begin(), part->end(), by_game_and_ply);
    part->erase(std::unique(part->begin(), part->end(), same_position), part->end());
  }
  return w;
}

}  // namespace vzero
