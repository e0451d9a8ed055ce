#pragma once
// 128-bit bitboards: square s (= rank * files + file) is bit s. Boards up to
// 128 squares fit (7x7, 8x8, 10x8 and 10x10 are used).
#include <cstdint>

namespace vzero {

__extension__ typedef unsigned __int128 Bitboard;

constexpr int kMaxSquares = 128;

inline int popcount(Bitboard b) {
  return __builtin_popcountll(static_cast<uint64_t>(b)) +
         __builtin_popcountll(static_cast<uint64_t>(b >> 64));
}

// Index of the lowest set bit; b must be non-zero.
inline int lsb(Bitboard b) {
  const uint64_t lo = static_cast<uint64_t>(b);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(b >> 64));
}

// Index of the highest set bit; b must be non-zero.
inline int msb(Bitboard b) {
  const uint64_t hi = static_cast<uint64_t>(b >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(static_cast<uint64_t>(b));
}

// Removes and returns the lowest set bit; b must be non-zero.
inline int pop_lsb(Bitboard& b) {
  const int s = lsb(b);
  b &= b - 1;
  return s;
}

inline Bitboard square_bb(int s) { return Bitboard(1) << s; }
inline bool test(Bitboard b, int s) { return (b >> s) & 1; }
inline bool more_than_one(Bitboard b) { return b & (b - 1); }

}  // namespace vzero
