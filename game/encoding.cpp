// Encodings of the chess-like variants and of attrition (layouts in docs/encoding.md).
#include "game/encoding.h"

#include <algorithm>
#include <cstring>

#include "game/attrition_state.h"
#include "game/chess_game.h"
#include "util/error.h"

namespace vzero {

uint64_t encoding_hash(const Game& game) {
  const EncodingSpec& e = game.encoding();
  std::string text = "v" + std::to_string(EncodingSpec::kVersion) + " " + std::to_string(e.planes) + " " +
                     std::to_string(e.scalars) + " " + std::to_string(e.height) + "x" + std::to_string(e.width);
  for (const std::string& n : e.plane_names) text += "|" + n;
  for (const std::string& n : e.scalar_names) text += "|" + n;
  text += "|actions " + std::to_string(game.num_actions());
  for (int a = 0; a < game.num_actions(); ++a) text += " " + game.action_text(a);
  return fnv1a(text);
}

void expand_input(const EncodingSpec& spec, const uint8_t* planes, const float* scalars, float* out) {
  const int area = spec.plane_size();
  for (int i = 0; i < spec.planes * area; ++i) out[i] = float(planes[i]);
  for (int s = 0; s < spec.scalars; ++s) std::fill_n(out + (spec.planes + s) * area, area, scalars[s]);
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

void GameState::encode(uint8_t*, float*) const {
  throw Error("variant '" + game().id() + "' has no network encoding");
}

// ---- chess, grand, ascending, 007, 007-detente ----

EncodingSpec chess_encoding(const Variant& v) {
  EncodingSpec e;
  e.height = v.ranks;
  e.width = v.files;
  for (const char* side : {"mine", "theirs"})
    for (const PieceType& p : v.pieces) e.add_plane(std::string(side) + " " + p.name);
  const bool phases = v.hook == "007" || v.hook == "007-detente";
  if (v.pawn_type() >= 0 && v.en_passant) e.add_plane("en passant square");
  if (v.hook == "007-detente") {
    e.add_plane("moved on move 1 (OD-2)");
    e.add_plane("moved on move 2, protected (OD-1)");
  }
  e.add_scalar("white to act");
  if (phases) {
    e.add_scalar("colour to move is mine");
    for (const char* m : {"move 1 of turn", "move 2 of turn", "move 3 of turn"}) e.add_scalar(m);
  }
  if (v.castling) add_castling_scalars(e);
  if (v.hook == "ascending") e.add_scalar("successor to name");
  add_clock_scalars(e);
  return e;
}

void ChessState::encode(uint8_t* planes, float* scalars) const {
  const Variant& v = game_.variant();
  const EncodingSpec& e = game_.encoding();
  const int area = e.plane_size();
  std::memset(planes, 0, size_t(e.planes) * area);
  const Color me = pos_.chooser(), them = opponent(me);
  const int types = int(v.pieces.size());
  for (int t = 0; t < types; ++t) {
    for (Bitboard b = pos_.pieces(me, t); b;) planes[t * area + pop_lsb(b)] = 1;
    for (Bitboard b = pos_.pieces(them, t); b;) planes[(types + t) * area + pop_lsb(b)] = 1;
  }
  const StateInfo& st = pos_.state_info();
  int plane = 2 * types;
  if (v.pawn_type() >= 0 && v.en_passant) {
    if (st.ep >= 0) planes[plane * area + st.ep] = 1;
    ++plane;
  }
  if (v.hook == "007-detente") {
    for (int8_t s : st.moved)
      if (s >= 0) planes[plane * area + s] = 1;
    for (int8_t s : st.protect)
      if (s >= 0) planes[(plane + 1) * area + s] = 1;
  }
  int k = 0;
  scalars[k++] = me == kWhite;
  if (pos_.has_turn_phases()) {
    scalars[k++] = pos_.side_to_move() == me;
    for (int phase = 0; phase < 3; ++phase) scalars[k++] = pos_.phase() == phase;
  }
  if (v.castling) k += write_castling_scalars(st.castling, me == kWhite, scalars + k);
  if (v.hook == "ascending") scalars[k++] = pos_.succession_pending();
  write_clock_scalars(pos_.repetitions(), pos_.rule50(), pos_.plies_played(), max_plies_, scalars + k);
}

// ---- attrition ----

EncodingSpec attrition_encoding(int players) {
  EncodingSpec e;
  e.height = e.width = 8;
  e.add_plane("marked");
  const auto seat = [](int r) { return r == 0 ? std::string("player to act") : "seat +" + std::to_string(r); };
  for (int r = 0; r < players; ++r) e.add_plane("knights of " + seat(r));
  for (int r = 0; r < players; ++r) e.add_scalar("knights to place, " + seat(r));
  for (int r = 0; r < players; ++r) e.add_scalar("out, " + seat(r));
  e.add_scalar("plies / length cap");
  return e;
}

void AttritionState::encode(uint8_t* planes, float* scalars) const {
  const int n = rules_.players();
  std::memset(planes, 0, size_t(1 + n) * 64);
  const int me = pos_.to_act >= 0 ? pos_.to_act : 0;
  for (uint64_t b = pos_.marked; b; b &= b - 1) planes[__builtin_ctzll(b)] = 1;
  for (int r = 0; r < n; ++r) {
    const int s = (me + r) % n;
    for (uint64_t b = pos_.knights[s]; b; b &= b - 1) planes[(1 + r) * 64 + __builtin_ctzll(b)] = 1;
    scalars[r] = pos_.to_place[s];
    scalars[n + r] = pos_.is_out(s);
  }
  scalars[2 * n] = max_plies_ > 0 ? std::min(1.0f, float(pos_.ply) / float(max_plies_)) : 0.0f;
}

}  // namespace vzero
