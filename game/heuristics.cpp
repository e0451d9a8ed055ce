// Cheap static values for the network-free search evaluator: material for
// the chess-like variants (hands included under the fairy hook), mobility
// for attrition. Each promises values in [-1, 1] per seat that sum to zero.
#include <algorithm>
#include <cmath>

#include "game/attrition_state.h"
#include "game/chess_game.h"
#include "game/geometry.h"

namespace vzero {

double piece_value(const Variant& v, int type) {
  const PieceType& p = v.pieces[size_t(type)];
  if (p.royal) return 0.0;
  if (p.pawn) return 1.0;
  if (!v.has_promoted_types()) {  // chess letters (in the shogi family they name other pieces)
    switch (p.letter) {
      case 'n':
      case 'b':
        return 3.0;
      case 'r':
        return 5.0;
      case 'q':
        return 9.0;
      case 'c':
        return 8.0;  // marshal (R+N)
      case 'a':
        return 7.0;  // cardinal (B+N)
      default:
        break;
    }
  }
  // Else from its mobility: the squares it reaches from an average square of
  // the empty board (8x8: knight 2.5, bishop 3.7, rook 5.4, queen 8.3).
  const Geometry& g = Geometry::of(v);
  double reach = 0.0;
  for (int s = 0; s < g.squares; ++s)
    reach += popcount(
        g.quiet_leaps[0][type][s] | g.capture_leaps[0][type][s] |
        g.slide(g.quiet_slides[0][type] | g.capture_slides[0][type] | g.hop_slides[0][type], s, 0));
  return 0.8 + 0.33 * reach / g.squares;
}

namespace {

// 64 knight-leap target sets of the 8x8 board.
struct KnightLeaps {
  uint64_t to[64];
  KnightLeaps() {
    static const int d[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int s = 0; s < 64; ++s) {
      to[s] = 0;
      for (const auto& l : d) {
        const int f = s % 8 + l[0], r = s / 8 + l[1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) to[s] |= uint64_t(1) << (r * 8 + f);
      }
    }
  }
};

}  // namespace

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

std::vector<double> AttritionState::heuristic_values() const {
  static const KnightLeaps leaps;
  const int n = rules_.players();
  uint64_t all_knights = 0;
  for (int s = 0; s < n; ++s) all_knights |= pos_.knights[s];
  // Mobility: the squares each seat's knights can move to (an unplaced
  // knight counts as an average square's four).
  std::vector<double> mobility(n, 0.0);
  for (int s = 0; s < n; ++s) {
    if (pos_.is_out(s)) continue;
    mobility[s] = 4.0 * pos_.to_place[s];
    for (uint64_t k = pos_.knights[s]; k; k &= k - 1) {
      const uint64_t targets = leaps.to[__builtin_ctzll(k)];
      mobility[s] += __builtin_popcountll(targets & ~pos_.marked) +
                     __builtin_popcountll(targets & all_knights & ~pos_.knights[s]);
    }
  }
  // Seats already out have their final return (by the order they went out,
  // as returns() ranks them); the others share the rest by mobility.
  std::vector<double> values(n, 0.0);
  double taken = 0.0, mean = 0.0;
  for (int i = 0; i < pos_.n_out; ++i) {
    const int seat = pos_.out_seat[i];
    values[seat] = n == 2 ? -1.0 : double(2 * i - (n - 1)) / (n - 1);
    taken += values[seat];
  }
  const int alive = n - pos_.n_out;
  if (alive == 0) return values;
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) mean += mobility[s] / alive;
  // Alive seats: a common share of what the seats out left, plus centred
  // mobility deviations scaled down just enough to stay within [-1, 1].
  const double share = -taken / alive;
  std::vector<double> dev(n, 0.0);
  double centre = 0.0;
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) centre += (dev[s] = std::tanh((mobility[s] - mean) / 3.0)) / alive;
  double scale = 1.0;
  for (int s = 0; s < n; ++s) {
    if (pos_.is_out(s)) continue;
    dev[s] -= centre;
    if (dev[s] > 0) scale = std::min(scale, (1.0 - share) / dev[s]);
    if (dev[s] < 0) scale = std::min(scale, (-1.0 - share) / dev[s]);
  }
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) values[s] = share + scale * dev[s];
  return values;
}

}  // namespace vzero
