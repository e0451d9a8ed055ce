// The network input of the chess-like variants: chess, grand, ascending, 007,
// 007-detente (layouts in docs/encoding.md).
#include <cstring>

#include "game/chess/chess_game.h"

namespace vzero {

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

void ChessState::write_input(uint8_t* planes, float* scalars, int plies_scale, int) const {
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
  write_clock_scalars(pos_.repetitions(), pos_.rule50(), pos_.plies_played(),
                      plies_scale > 0 ? plies_scale : max_plies_, scalars + k);
}

}  // namespace vzero
