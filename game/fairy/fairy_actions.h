#pragma once
// The fixed action space of the "fairy" hook: every (from, to) pair a piece
// type of the variant reaches on the empty board (both colours; pawn and
// joker double steps, castling), then each promotion choice of a pawn move
// into its zone and in place (WC-10) and the "+" of a move that starts or
// ends in the zone of a type that has a promoted form (SH-3, SH-7), then
// drops (type x square) of every type that can be in hand.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "game/actions.h"
#include "game/fairy/fairy_rules.h"

namespace vzero {

// The action space of one fairy variant, numbered as the top of this file says.
class FairyActions : public ActionTexts {
 public:
  explicit FairyActions(const FairyRules& r);

  // The action of a move; -1 when it has none (a bug in the variant data).
  int index(Move m) const {
    const bool plus = m.kind() == MoveKind::kPromotion && (plus_types_ >> m.type() & 1);
    const int cls = plus                               ? 3
                    : m.kind() == MoveKind::kPromotion ? 1
                    : m.kind() == MoveKind::kDrop      ? 2
                                                       : 0;
    const auto it = index_.find(key(m.from(), m.to(), cls, cls == 1 || cls == 2 ? m.type() : 0));
    return it == index_.end() ? -1 : it->second;
  }

 private:
  static uint32_t key(int from, int to, int cls, int type) {
    return uint32_t(from) | uint32_t(to) << 7 | uint32_t(cls) << 14 | uint32_t(type) << 16;
  }
  void add(uint32_t k, const std::string& text) {
    index_.emplace(k, int(text_.size()));
    text_.push_back(text);
  }
  int n_ = 0;
  uint16_t plus_types_ = 0;  // promoted types: their promotions share one "+" action per (from, to)
  std::unordered_map<uint32_t, int> index_;
};

}  // namespace vzero
