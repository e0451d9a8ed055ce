#pragma once
// Attack tables of one variant, built once: rays, leaps per colour, type and
// square, lines and betweens. Owner-relative moves become absolute here
// (Black's moves are White's mirrored top to bottom).
#include <memory>
#include <vector>

#include "game/bitboard.h"
#include "game/variant.h"

namespace vzero {

class Geometry {
 public:
  explicit Geometry(const Variant& v);

  // The geometry of a variant, built on first use and kept (rebuilt when another
  // variant comes to live at the same address).
  static const Geometry& of(const Variant& v);

  int files, ranks, squares;
  Bitboard board = 0;                          // every square of the board
  Bitboard ray[kDirectionCount][kMaxSquares];  // from s in direction d, s excluded
  Bitboard quiet_leaps[2][kMaxPieceTypes][kMaxSquares];
  Bitboard capture_leaps[2][kMaxPieceTypes][kMaxSquares];
  // Squares from which a piece (colour, type) captures onto s by leaping.
  Bitboard capture_leaps_to[2][kMaxPieceTypes][kMaxSquares];
  uint8_t quiet_slides[2][kMaxPieceTypes], capture_slides[2][kMaxPieceTypes];
  uint8_t hop_slides[2][kMaxPieceTypes];
  Bitboard rank_bb[kMaxSquares / 8];          // absolute rank r
  std::vector<Bitboard> between_bb, line_bb;  // squares*squares; empty if not aligned
  int push[2];                                // square offset of one step forward

  int file_of(int s) const { return s % files; }
  int rank_of(int s) const { return s / files; }
  int square(int file, int rank) const { return rank * files + file; }
  // Rank counted from colour c's side, 1-based.
  int relative_rank(Color c, int s) const {
    return c == kWhite ? rank_of(s) + 1 : ranks - rank_of(s);
  }
  Bitboard relative_rank_bb(Color c, int r) const {
    return rank_bb[c == kWhite ? r - 1 : ranks - r];
  }
  Bitboard between(int a, int b) const { return between_bb[a * squares + b]; }
  Bitboard line(int a, int b) const { return line_bb[a * squares + b]; }

  // Squares a slide in the directions `dirs` from s reaches, the first blocker included.
  Bitboard slide(uint8_t dirs, int s, Bitboard occupied) const {
    Bitboard a = 0;
    for (uint8_t d = dirs; d; d &= d - 1) a |= slide_one(__builtin_ctz(d), s, occupied);
    return a;
  }
  Bitboard slide_one(int d, int s, Bitboard occupied) const {
    Bitboard r = ray[d][s];
    const Bitboard b = r & occupied;
    if (b) r ^= ray[d][kPositive[d] ? lsb(b) : msb(b)];
    return r;
  }
  Bitboard rook_attacks(int s, Bitboard occupied) const {
    return slide_one(kN, s, occupied) | slide_one(kE, s, occupied) | slide_one(kS, s, occupied) |
           slide_one(kW, s, occupied);
  }
  Bitboard bishop_attacks(int s, Bitboard occupied) const {
    return slide_one(kNE, s, occupied) | slide_one(kSE, s, occupied) | slide_one(kSW, s, occupied) |
           slide_one(kNW, s, occupied);
  }
  // Cannon hops: over exactly one screen in each direction, then a slide
  // (the first piece beyond the screen included).
  Bitboard hop(uint8_t dirs, int s, Bitboard occupied) const {
    Bitboard a = 0;
    for (uint8_t d = dirs; d; d &= d - 1) {
      const int dir = __builtin_ctz(d);
      const Bitboard b = ray[dir][s] & occupied;
      if (!b) continue;
      a |= slide_one(dir, kPositive[dir] ? lsb(b) : msb(b), occupied);
    }
    return a;
  }

  static constexpr bool kPositive[kDirectionCount] = {true,  true,  true,  false,
                                                      false, false, false, true};
};

}  // namespace vzero
