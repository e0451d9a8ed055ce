// The static value of a fairy position: material, pieces in hand included.
#include <cmath>

#include "game/fairy/fairy_state.h"

namespace vzero {

std::vector<double> FairyState::heuristic_values() const {
  const FairyPos& p = pos();
  double balance = 0.0;  // first player minus second
  for (Bitboard b = p.by_color[kWhite] | p.by_color[kBlack]; b;) {
    const Piece pc = p.board[pop_lsb(b)];
    balance += (color_of(pc) == kWhite ? 1 : -1) * game_.value_of(type_of(pc));
  }
  for (size_t t = 0; t < game_.variant().pieces.size(); ++t)
    balance += (p.hand[kWhite][t] - p.hand[kBlack][t]) * game_.value_of(int(t));
  const double w = std::tanh(balance / 5.0);
  return {w, -w};
}

}  // namespace vzero
