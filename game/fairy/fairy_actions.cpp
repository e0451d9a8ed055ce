// The action space of the "fairy" hook (fairy_actions.h).
#include "game/fairy/fairy_actions.h"

#include <cctype>
#include <vector>

namespace vzero {

FairyActions::FairyActions(const FairyRules& r) {
  const Variant& v = r.variant();
  const Geometry& g = r.geometry();
  n_ = g.squares;
  std::vector<Bitboard> plus_reach(n_, 0);
  EmptyBoardReach empty =
      empty_board_reach(v, g, r.pawn(), {v.double_step_rank, v.joker_pawn_double_step_rank},
                        v.pawns_wait, [&](int t, Color c, int s, Bitboard b) {
                          if (v.pieces[t].promotes_to < 0) return;
                          const Bitboard zone = r.promo_zone(c);
                          plus_reach[s] |= test(zone, s) ? b : b & zone;
                        });
  std::vector<Bitboard>& reach = empty.moves;
  const std::vector<Bitboard>& promo_reach = empty.promotions;
  if (v.castling)
    for (int c = 0; c < 2; ++c)
      for (int right = 2 * c; right < 2 * c + 2; ++right)
        reach[r.castle_king_from(Color(c))] |= square_bb(r.castle_king_to(right));
  std::vector<int> promo_types;
  for (char c : v.promotion_pieces) promo_types.push_back(v.type_of_letter(c));
  for (int from = 0; from < n_; ++from) {
    for (int to = 0; to < n_; ++to) {
      if (test(reach[from], to)) add(key(from, to, 0, 0), r.square_name(from) + r.square_name(to));
      if (test(plus_reach[from], to))
        add(key(from, to, 3, 0), r.square_name(from) + r.square_name(to) + "+");
      if (!test(promo_reach[from], to)) continue;
      for (int t : promo_types)
        add(key(from, to, 1, t), r.square_name(from) + r.square_name(to) + v.pieces[t].letter);
    }
  }
  for (size_t t = 0; t < v.pieces.size(); ++t)
    if (v.pieces[t].promoted) plus_types_ |= uint16_t(1u << t);
  // Types that can be in a hand: those of the start hands and those captured into one.
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    if (!r.can_be_in_hand(int(t))) continue;
    const std::string letter(1, char(std::toupper(static_cast<unsigned char>(v.pieces[t].letter))));
    for (int s = 0; s < n_; ++s) add(key(s, s, 2, int(t)), letter + "@" + r.square_name(s));
  }
}

}  // namespace vzero
