// The encoding interface's shared parts: hashes, input expansion, and the
// castling and clock scalars that several cores write (docs/encoding.md).
#include "game/encoding.h"

#include <algorithm>
#include <cstring>

#include "game/game.h"
#include "util/error.h"

namespace vzero {

uint64_t encoding_hash(const Game& game, int version) {
  const EncodingSpec& e = game.encoding(version);
  // Version 1 of a layout hashes as it did before games had several (the hashes models carry).
  const std::string of_version = version > 1 ? " layout " + std::to_string(version) : "";
  std::string text = "v" + std::to_string(EncodingSpec::kVersion) + of_version + " " +
                     std::to_string(e.planes) + " " + std::to_string(e.scalars) + " " +
                     std::to_string(e.height) + "x" + std::to_string(e.width);
  for (const std::string& n : e.plane_names) text += "|" + n;
  for (const std::string& n : e.scalar_names) text += "|" + n;
  text += "|actions " + std::to_string(game.num_actions());
  for (int a = 0; a < game.num_actions(); ++a) text += " " + game.action_text(a);
  return fnv1a(text);
}

void expand_input(const EncodingSpec& spec, const uint8_t* planes, const float* scalars,
                  float* out) {
  const int area = spec.plane_size();
  for (int i = 0; i < spec.planes * area; ++i) out[i] = float(planes[i]);
  for (int s = 0; s < spec.scalars; ++s)
    std::fill_n(out + (spec.planes + s) * area, area, scalars[s]);
}

void add_castling_scalars(EncodingSpec& e) {
  for (const char* c : {"my kingside castling", "my queenside castling", "their kingside castling",
                        "their queenside castling"})
    e.add_scalar(c);
}

int write_castling_scalars(uint8_t rights, bool white_to_act, float* out) {
  const int mine = white_to_act ? 0 : 2, theirs = 2 - mine;
  out[0] = (rights >> mine) & 1;
  out[1] = (rights >> (mine + 1)) & 1;
  out[2] = (rights >> theirs) & 1;
  out[3] = (rights >> (theirs + 1)) & 1;
  return 4;
}

void add_clock_scalars(EncodingSpec& e) {
  e.add_scalar("repetitions (0, 0.5, 1)");
  e.add_scalar("fifty-move counter / 100");
  e.add_scalar("plies / length cap");
}

int write_clock_scalars(int repetitions, int rule50, int plies, int max_plies, float* out) {
  out[0] = float(std::min(repetitions, 2)) / 2.0f;
  out[1] = float(std::min(rule50, 100)) / 100.0f;
  out[2] = max_plies > 0 ? std::min(1.0f, float(plies) / float(max_plies)) : 0.0f;
  return 3;
}

uint64_t encoding_hash(const Game& game) { return encoding_hash(game, game.encoding_versions()); }

const EncodingSpec& Game::encoding(int version) const {
  static const EncodingSpec none;
  check_encoding_version(*this, version);
  return none;
}

void check_encoding_version(const Game& game, int version) {
  if (version < 1 || version > game.encoding_versions())
    throw Error("variant '" + game.id() + "' has no encoding version " + std::to_string(version) +
                " (it has 1.." + std::to_string(game.encoding_versions()) + ")");
}

int resolved_encoding(const Game& game, int version) {
  if (version == 0) return game.encoding_versions();
  check_encoding_version(game, version);
  return version;
}

int encoding_version_of(const Game& game, uint64_t hash) {
  for (int v = game.encoding_versions(); v >= 1; --v)
    if (encoding_hash(game, v) == hash) return v;
  throw Error("variant '" + game.id() + "' has no encoding with hash " + std::to_string(hash));
}

void GameState::encode(uint8_t* planes, float* scalars, int plies_scale, int version) const {
  check_encoding_version(game(), version);
  write_input(planes, scalars, plies_scale, version);
}

void GameState::encode(uint8_t* planes, float* scalars, int plies_scale) const {
  write_input(planes, scalars, plies_scale, game().encoding_versions());
}

void GameState::write_input(uint8_t*, float*, int, int) const {
  throw Error("variant '" + game().id() + "' has no network encoding");
}

}  // namespace vzero
