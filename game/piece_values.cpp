// Piece values in pawns, the material scale of the chess-like and fairy
// cores' heuristics.
#include <algorithm>
#include <cmath>

#include "game/geometry.h"
#include "game/variant.h"

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

}  // namespace vzero
