#pragma once
// The fixed bijection between a variant's moves and action integers: every
// geometrically possible (from, to) pair of its pieces (both colours), each
// promotion choice on the pairs that reach a promotion zone, and drops or
// choices (piece type x square). Actions are numbered in that order, so the
// policy index space of a variant is compact and stable.
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "game/geometry.h"
#include "game/types.h"
#include "game/variant.h"

namespace vzero {

// The texts of a fixed action space in action order; the action spaces of the
// chess-like (ActionMap) and fairy (FairyActions) cores add to it.
class ActionTexts {
 public:
  int size() const { return int(text_.size()); }
  const std::string& text(int action) const { return text_[action]; }
  int from_text(const std::string& text) const;  // -1 when no action has that text

 protected:
  std::vector<std::string> text_;
};

// Where the pieces of a variant go on the empty board, by from square (both colours).
struct EmptyBoardReach {
  std::vector<Bitboard> moves;       // every target: leaps, slides, hops, pawn double steps
  std::vector<Bitboard> promotions;  // the pawn's targets in its promotion zone
};
// Promises every square a piece type reaches from every square on the empty
// board: a pawn also its double steps from each rank of double_step_ranks
// (0: none) and, with pawns_wait, staying on its first promotion rank.
// each(type, colour, square, targets), when given, sees every piece's targets
// before the double steps are added.
EmptyBoardReach empty_board_reach(
    const Variant& v, const Geometry& g, int pawn, std::initializer_list<int> double_step_ranks,
    bool pawns_wait,
    const std::function<void(int type, Color c, int s, Bitboard targets)>& each = {});

// The action space of a chess-like variant, numbered as the top of this file says.
class ActionMap : public ActionTexts {
 public:
  explicit ActionMap(const Variant& v);

  // The action of a move, -1 if the move has none (a bug in the variant data).
  int index(Move m) const {
    const int pair = m.from() * squares_ + m.to();
    switch (m.kind()) {
      case MoveKind::kPromotion:
        return promo_base_[pair] < 0 ? -1 : promo_base_[pair] + promo_slot_[m.type()];
      case MoveKind::kDrop:
      case MoveKind::kSuccession:
        return drop_index_[m.type() * squares_ + m.to()];
      default:
        return pair_index_[pair];
    }
  }

 private:
  int squares_;
  std::vector<int> pair_index_, promo_base_, drop_index_;
  int promo_slot_[kMaxPieceTypes];
};

}  // namespace vzero
