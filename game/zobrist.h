#pragma once
// Zobrist keys, the same for every variant and every run.
#include <cstdint>

#include "game/bitboard.h"
#include "game/types.h"

namespace vzero {

struct Zobrist {
  uint64_t piece[64][kMaxSquares];  // by Piece code
  uint64_t castling[16];
  uint64_t ep[kMaxSquares];
  uint64_t side;
  uint64_t phase[4];
  uint64_t hand[2][kMaxPieceTypes][64];  // (colour, type, count)
  uint64_t extra[8][kMaxSquares];        // hook-specific square keys
  uint64_t succession;                   // ascending: a successor choice is pending
};

const Zobrist& zobrist();

// splitmix64: a small, seedable generator of well-mixed 64-bit values.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace vzero
