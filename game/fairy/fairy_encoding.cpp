// The network input of the "fairy" hook: its layout (fairy_encoding) and
// FairyState::write_input, which fills it.
#include <algorithm>

#include "game/fairy/fairy_state.h"

namespace vzero {

// The network input of a fairy variant (docs/encoding.md): pieces by owner
// (mine, theirs, shared; promoted types their own), waiting pawns and en
// passant as planes; hands (counts), pools, start pieces, joker powers,
// streak, rights and clocks as scalars. The shogi family has no waiting
// pawns, en passant, start pieces, jokers or fifty-move rule; it counts
// earlier occurrences up to its n-fold repetition.
EncodingSpec fairy_encoding(const FairyRules& r) {
  const Variant& v = r.variant();
  const bool shogi = v.has_promoted_types();
  EncodingSpec e;
  e.height = v.ranks;
  e.width = v.files;
  for (const char* side : {"mine", "theirs"})
    for (const PieceType& p : v.pieces)
      if (!p.shared) e.add_plane(std::string(side) + " " + p.name);
  for (const PieceType& p : v.pieces)
    if (p.shared) e.add_plane("shared " + p.name);
  if (!shogi) {
    e.add_plane("waiting pawns");
    e.add_plane("en passant square");
  }
  e.add_scalar("white to act");
  if (v.castling) add_castling_scalars(e);
  for (const char* side : {"my", "their"})
    for (size_t t = 0; t < v.pieces.size(); ++t)
      if (r.can_be_in_hand(int(t))) e.add_scalar(std::string(side) + " hand: " + v.pieces[t].name);
  if (v.promote_from_pool)
    for (const char* side : {"my", "their"})
      for (const PieceType& p : v.pieces) e.add_scalar(std::string(side) + " pool: " + p.name);
  if (!shogi) {
    e.add_scalar("my start piece in hand");
    e.add_scalar("their start piece in hand");
  }
  if (r.joker() >= 0)
    for (const char* side : {"my", "their"})
      for (const PieceType& p : v.pieces)
        e.add_scalar(std::string(side) + " joker moves as " + p.name);
  if (r.shared() >= 0) {
    e.add_scalar("my last action moved the shared piece");
    e.add_scalar("their last action moved the shared piece");
  }
  if (shogi) {
    e.add_scalar("earlier occurrences / " + std::to_string(v.repetition - 1));
    e.add_scalar("plies / length cap");
  } else {
    e.add_scalar("joker streak / 2");
    add_clock_scalars(e);
  }
  return e;
}

void FairyState::write_input(uint8_t* planes, float* scalars, int plies_scale, int) const {
  const int cap = plies_scale > 0 ? plies_scale : max_plies_;
  const FairyRules& r = game_.rules();
  const Variant& v = r.variant();
  const EncodingSpec& e = game_.encoding();
  const FairyPos& p = pos();
  const int area = e.plane_size(), types = int(v.pieces.size());
  std::fill(planes, planes + size_t(e.planes) * area, uint8_t(0));
  const Color me = p.stm, them = opponent(me);
  // Plane of each (owner, type): mine, theirs, then shared.
  std::vector<int> mine(types, -1), theirs(types, -1), shared(types, -1);
  int plane = 0;
  for (int t = 0; t < types; ++t)
    if (!v.pieces[t].shared) mine[t] = plane++;
  for (int t = 0; t < types; ++t)
    if (!v.pieces[t].shared) theirs[t] = plane++;
  for (int t = 0; t < types; ++t)
    if (v.pieces[t].shared) shared[t] = plane++;
  const bool shogi = v.has_promoted_types();  // no waiting pawns or en passant (fairy_encoding)
  const int waiting = shogi ? -1 : plane++, ep = shogi ? -1 : plane++;
  for (int s = 0; s < area; ++s) {
    const Piece pc = p.board[s];
    if (pc == kNoPiece) continue;
    const int t = type_of(pc);
    const Color c = color_of(pc);
    const int at = c == kNeutral ? shared[t] : c == me ? mine[t] : theirs[t];
    if (at >= 0) planes[at * area + s] = 1;
    if (waiting >= 0 && r.is_waiting(p, s)) planes[waiting * area + s] = 1;
  }
  if (ep >= 0 && p.ep >= 0) planes[ep * area + p.ep] = 1;
  int k = 0;
  scalars[k++] = me == kWhite;
  if (v.castling) k += write_castling_scalars(p.castling, me == kWhite, scalars + k);
  for (Color c : {me, them})
    for (int t = 0; t < types; ++t)
      if (r.can_be_in_hand(t)) scalars[k++] = p.hand[c][t];
  if (v.promote_from_pool)
    for (Color c : {me, them})
      for (int t = 0; t < types; ++t) scalars[k++] = p.pool[c][t];
  if (!shogi) {
    scalars[k++] = p.start_piece[me];
    scalars[k++] = p.start_piece[them];
  }
  if (r.joker() >= 0)
    for (Color c : {me, them}) {
      const int power = r.joker_power(p, c);
      for (int t = 0; t < types; ++t) scalars[k++] = power == t;
    }
  if (r.shared() >= 0) {
    scalars[k++] = p.used[me] == r.shared();
    scalars[k++] = p.used[them] == r.shared();
  }
  if (shogi) {
    scalars[k++] = float(repetitions(nullptr)) / float(v.repetition - 1);
    scalars[k++] = cap > 0 ? std::min(1.0f, float(plies()) / float(cap)) : 0.0f;
  } else {
    scalars[k++] = float(p.joker_streak) / 2.0f;
    write_clock_scalars(repetitions(nullptr), p.rule50, plies(), cap, scalars + k);
  }
}

}  // namespace vzero
