#pragma once
// The fixed bijection between a variant's moves and action integers: every
// geometrically possible (from, to) pair of its pieces (both colours), each
// promotion choice on the pairs that reach a promotion zone, and drops or
// choices (piece type x square). Actions are numbered in that order, so the
// policy index space of a variant is compact and stable.
#include <string>
#include <vector>

#include "game/types.h"
#include "game/variant.h"

namespace vzero {

class ActionMap {
 public:
  explicit ActionMap(const Variant& v);

  int size() const { return int(text_.size()); }
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
  const std::string& text(int action) const { return text_[action]; }
  int from_text(const std::string& text) const;  // -1 when no action has that text

 private:
  int squares_;
  std::vector<int> pair_index_, promo_base_, drop_index_;
  int promo_slot_[kMaxPieceTypes];
  std::vector<std::string> text_;
};

}  // namespace vzero
