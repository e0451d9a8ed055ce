// The replay window.
#include "training/window.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unordered_map>
#include <vector>

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

// A game's fingerprint: its seed, start and actions. A copy of a game has the same one; two
// games that share an id (two self-play folders both number from 0) have different ones, even
// with the same seed.
uint64_t game_fingerprint(const GameRecord& g) {
  uint64_t h = g.seed;
  const auto mix = [&h](uint64_t v) {
    uint64_t state = h ^ (v * 0x9E3779B97F4A7C15ull);
    h = splitmix64(state);
  };
  for (const char c : g.start_fen) mix(uint8_t(c));
  mix(g.actions.size());
  for (const int32_t a : g.actions) mix(uint32_t(a));
  return h;
}

// The window id of a game whose shard id is shared by distinct games: derived from its
// fingerprint, above every id a run gives (generation * 10^8 + index).
int64_t derived_game_id(uint64_t fingerprint) {
  return int64_t((fingerprint >> 2) | (uint64_t(1) << 61));
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
  // The fingerprints of the games read so far under each id (newer shards first): a game
  // written twice is read once; distinct games that share an id are all read.
  std::unordered_map<int64_t, std::vector<uint64_t>> prints_of;
  std::vector<Sample> all;
  std::vector<uint64_t> print_of;  // each sample's game's fingerprint
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
    // This shard's games that are new to the window, by id: the record and its fingerprint.
    std::unordered_map<int64_t, std::pair<const GameRecord*, uint64_t>> here;
    for (const GameRecord& g : d.games) {
      const uint64_t print = game_fingerprint(g);
      std::vector<uint64_t>& prints = prints_of[g.game_id];
      if (std::find(prints.begin(), prints.end(), print) != prints.end()) continue;
      prints.push_back(print);
      here[g.game_id] = {&g, print};
    }
    for (Sample& s : d.samples) {
      const auto game_of = here.find(s.game_id);
      if (game_of == here.end()) continue;
      annotate_from_record(s, *game_of->second.first);
      all.push_back(std::move(s));
      print_of.push_back(game_of->second.second);
      ++total;
    }
  }
  // Distinct games under one id: the smallest fingerprint keeps the id, each other takes one
  // derived from its own, whatever order the shards were read in. Then the hold-out split.
  for (size_t i = 0; i < all.size(); ++i) {
    Sample& s = all[i];
    const std::vector<uint64_t>& prints = prints_of[s.game_id];
    if (prints.size() > 1 && print_of[i] != *std::min_element(prints.begin(), prints.end()))
      s.game_id = derived_game_id(print_of[i]);
    const bool held_out = game_fraction(s.game_id, 0) < holdout_fraction;
    (held_out ? w.validation : w.train).push_back(std::move(s));
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
