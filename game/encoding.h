#pragma once
// The network's view of a position: uint8 planes (C x H x W: pieces, markers,
// squares) and float scalars (rights, counters, hands, phase), from the point
// of view of the player to act: "mine" planes first, seats rotated so that the
// player to act comes first. The board is not mirrored, because the policy
// indexes the variant's absolute action space. The layout of every variant
// is listed plane by plane in docs/encoding.md and by `vzero encoding`.
#include <cstdint>
#include <string>
#include <vector>

namespace vzero {

class Game;

// The shape and names of a variant's encoding; version changes when any layout changes.
struct EncodingSpec {
  static constexpr int kVersion = 1;
  int planes = 0, scalars = 0, height = 0, width = 0;
  std::vector<std::string> plane_names, scalar_names;

  int plane_size() const { return height * width; }
  // Channels of the network input: planes, then one constant plane per scalar.
  int channels() const { return planes + scalars; }
  void add_plane(const std::string& name) { plane_names.push_back(name), ++planes; }
  void add_scalar(const std::string& name) { scalar_names.push_back(name), ++scalars; }
};

// The castling scalars of chess-like encodings: my kingside, my queenside,
// their kingside, their queenside.
void add_castling_scalars(EncodingSpec& e);
// Writes them from rights bits (0 White kingside, 1 White queenside, 2/3 Black)
// for the player to act; returns how many were written.
int write_castling_scalars(uint8_t rights, bool white_to_act, float* out);
// The clock scalars closing chess-like encodings: repetitions, fifty-move counter, plies / cap.
void add_clock_scalars(EncodingSpec& e);
int write_clock_scalars(int repetitions, int rule50, int plies, int max_plies, float* out);

// A hash of encoding `version` (shape, names) and of the action map (every action's text).
uint64_t encoding_hash(const Game& game, int version);
// The same for the newest encoding.
uint64_t encoding_hash(const Game& game);
// Throws Error unless version is one of game's encodings (1..encoding_versions()).
void check_encoding_version(const Game& game, int version);
// The version an encoding setting names: 0 the game's newest, else version itself (checked).
int resolved_encoding(const Game& game, int version);
// The version of game's encoding with this hash (encoding_hash); throws Error when none has it.
int encoding_version_of(const Game& game, uint64_t hash);

// Expands planes and scalars into the network input: channels() x H x W floats.
void expand_input(const EncodingSpec& spec, const uint8_t* planes, const float* scalars,
                  float* out);

}  // namespace vzero
