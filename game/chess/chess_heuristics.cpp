// The static value of a chess-like position: material, tanh of the balance
// in pawns / 5, in [-1, 1] per seat, summing to zero.
#include <cmath>

#include "game/chess/chess_game.h"

namespace vzero {

std::vector<double> ChessState::heuristic_values() const {
  const Variant& v = game_.variant();
  double balance = 0.0;  // white minus black, in pawns
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    const double worth = game_.value_of(int(t));
    balance += worth * (pos_.count(kWhite, int(t)) - pos_.count(kBlack, int(t)));
  }
  const double w = std::tanh(balance / 5.0);
  return {w, -w};
}

}  // namespace vzero
