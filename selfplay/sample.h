#pragma once
// What self-play records: one Sample per position played, one GameRecord per
// game, and the identity every shard carries. Written to and read from HDF5
// shards by shard.h (schema in docs/shards.md).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace vzero {

// The identity of a shard: what its samples mean and where they came from.
struct ShardMeta {
  int format_version = 1;
  std::string variant;         // variant id
  uint64_t rules_hash = 0;     // hash of the variant file
  uint64_t encoding_hash = 0;  // hash of the input encoding and action map
  uint64_t config_hash = 0;    // hash of the resolved run config
  int planes = 0;              // uint8 input planes per sample (C)
  int scalars = 0;             // float scalar features per sample (S)
  int height = 0, width = 0;   // board (H, W)
  int num_actions = 0;         // size of the action space (policy length)
  int players = 2;             // seats (value/result length)
  int generation = 0;          // model generation that played the games
};

// One position of a self-play game: the training example.
struct Sample {
  std::vector<uint8_t> planes;        // C * H * W, from the encoding (counts, 0/1)
  std::vector<float> scalars;         // S scalar features
  std::vector<int32_t> policy_index;  // actions with visits, ascending
  std::vector<float> policy_weight;   // their visit share (sums to 1; float16 on disk)
  std::vector<float> root_value;      // search value per seat (absolute seats)
  std::vector<float> result;          // final game result per seat
  int32_t player = 0;                 // seat to act
  int32_t ply = 0;                    // plies since the game's start
  int64_t game_id = 0;
  int32_t generation = 0;
  bool full_search = true;  // a policy target (playout cap randomisation)
  int32_t moves_left = -1;  // plies from here to the game's end: set by the replay
                            // window from the game's record, not stored in shards
  bool capped = false;      // its game stopped at the length cap (end reason "cap"), so its result
                            // is no outcome: set by the replay window, not stored in shards
};

// One self-play game: enough to replay it and re-encode its samples.
struct GameRecord {
  int64_t game_id = 0;
  uint64_t seed = 0;
  std::string start_fen;
  std::vector<int32_t> actions;  // every action played, in order
  std::vector<float> result;     // per seat
  std::string end_reason;        // "checkmate", "cap", "resign", ...
  bool resigned = false;
  bool stopped_at_cap() const { return end_reason == "cap"; }  // the length cap, not the rules
  // Nobody won or lost: every seat's result is 0.
  bool drawn() const {
    return std::all_of(result.begin(), result.end(), [](float x) { return x == 0.0f; });
  }
};

// Fills what a sample learns from its game's record and shards do not store: moves_left, capped.
inline void annotate_from_record(Sample& s, const GameRecord& g) {
  s.moves_left = std::max(0, int(g.actions.size()) - s.ply);
  s.capped = g.stopped_at_cap();
}

}  // namespace vzero
