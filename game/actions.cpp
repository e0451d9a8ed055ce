// The action spaces: the empty-board reach of a variant's pieces and the
// chess-like ActionMap (actions.h).
#include "game/actions.h"

#include <algorithm>
#include <cctype>

#include "game/geometry.h"

namespace vzero {

EmptyBoardReach empty_board_reach(
    const Variant& v, const Geometry& g, int pawn, std::initializer_list<int> double_step_ranks,
    bool pawns_wait, const std::function<void(int type, Color c, int s, Bitboard targets)>& each) {
  const int n = g.squares;
  EmptyBoardReach out{std::vector<Bitboard>(n, 0), std::vector<Bitboard>(n, 0)};
  for (size_t t = 0; t < v.pieces.size(); ++t)
    for (int c = 0; c < 2; ++c)
      for (int s = 0; s < n; ++s) {
        Bitboard r =
            g.quiet_leaps[c][t][s] | g.capture_leaps[c][t][s] |
            g.slide(g.quiet_slides[c][t] | g.capture_slides[c][t] | g.hop_slides[c][t], s, 0);
        if (each) each(int(t), Color(c), s, r);
        if (int(t) == pawn) {
          for (int rank : double_step_ranks) {
            const int two = s + 2 * g.push[c];
            if (rank && g.relative_rank(Color(c), s) == rank && two >= 0 && two < n)
              r |= square_bb(two);
          }
          Bitboard zone = 0;
          for (int rank = v.promotion_first_rank; rank <= g.ranks; ++rank)
            zone |= g.relative_rank_bb(Color(c), rank);
          out.promotions[s] |= r & zone;
          if (pawns_wait && (zone & square_bb(s)) &&
              g.relative_rank(Color(c), s) == v.promotion_first_rank)
            out.promotions[s] |= square_bb(s);
        }
        out.moves[s] |= r;
      }
  return out;
}

ActionMap::ActionMap(const Variant& v) : squares_(v.squares()) {
  const Geometry& g = Geometry::of(v);
  const int n = squares_;
  EmptyBoardReach empty = empty_board_reach(v, g, v.pawn_type(), {v.double_step_rank}, false);
  std::vector<Bitboard>& reach = empty.moves;
  const std::vector<Bitboard>& promo_reach = empty.promotions;
  if (v.castling) {
    const int rank_w = 0 + (v.castling_rank - 1), rank_b = g.ranks - v.castling_rank;
    for (int rank : {rank_w, rank_b})
      for (int kf = 0; kf < g.files; ++kf)
        for (const CastlingRule* r : {&v.kingside, &v.queenside})
          reach[g.square(kf, rank)] |= square_bb(g.square(r->king_to_file, rank));
  }
  std::vector<int> promo_types;
  for (char c : v.promotion_pieces) promo_types.push_back(v.type_of_letter(c));
  std::fill(std::begin(promo_slot_), std::end(promo_slot_), -1);
  for (size_t i = 0; i < promo_types.size(); ++i) promo_slot_[promo_types[i]] = int(i);

  const auto name = [&](int s) {
    return std::string(1, char('a' + g.file_of(s))) + std::to_string(g.rank_of(s) + 1);
  };
  pair_index_.assign(size_t(n) * n, -1);
  promo_base_.assign(size_t(n) * n, -1);
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to) {
      if (!test(reach[from], to)) continue;
      pair_index_[from * n + to] = int(text_.size());
      text_.push_back(name(from) + name(to));
      if (!test(promo_reach[from], to) || promo_types.empty()) continue;
      promo_base_[from * n + to] = int(text_.size());
      for (int t : promo_types) text_.push_back(name(from) + name(to) + v.pieces[t].letter);
    }
  drop_index_.assign(size_t(kMaxPieceTypes) * n, -1);
  if (v.hook == "ascending") {
    const int king = v.royal_type();
    for (int s = 0; s < n; ++s) {
      drop_index_[king * n + s] = int(text_.size());
      text_.push_back(
          std::string(1, char(std::toupper(static_cast<unsigned char>(v.pieces[king].letter)))) +
          "@" + name(s));
    }
  }
}

int ActionTexts::from_text(const std::string& text) const {
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == text) return int(i);
  return -1;
}

}  // namespace vzero
