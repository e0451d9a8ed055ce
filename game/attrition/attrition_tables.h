#pragma once
// The fixed tables of attrition, private to its core: knight leaps, the
// numbering of the move actions and the Zobrist keys (with their helpers).
#include <algorithm>
#include <cstdint>
#include <iterator>

#include "game/attrition/attrition_rules.h"
#include "game/zobrist.h"

namespace vzero {
namespace attrition {

constexpr int kMoveActions = kAttritionActions - kAttritionPlacements;  // 336

// The bitboard of one square.
inline uint64_t bit(int sq) { return uint64_t(1) << sq; }
// Removes the lowest square of b and returns it.
inline int pop_lowest(uint64_t& b) {
  const int s = __builtin_ctzll(b);
  b &= b - 1;
  return s;
}

// Knight leaps and the numbering of the move actions.
struct Tables {
  uint64_t attacks[kAttritionSquares] = {};
  int16_t action[kAttritionSquares][kAttritionSquares];  // move action of (from, to), or -1
  uint8_t from[kMoveActions] = {}, to[kMoveActions] = {};
  Tables() {
    static const int leaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (auto& row : action) std::fill(std::begin(row), std::end(row), int16_t(-1));
    for (int s = 0; s < kAttritionSquares; ++s)
      for (const auto& l : leaps) {
        const int f = s % 8 + l[0], r = s / 8 + l[1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks[s] |= bit(r * 8 + f);
      }
    int n = 0;
    for (int f = 0; f < kAttritionSquares; ++f)
      for (int t = 0; t < kAttritionSquares; ++t)
        if ((attacks[f] >> t) & 1) {
          action[f][t] = int16_t(kAttritionPlacements + n);
          from[n] = uint8_t(f);
          to[n] = uint8_t(t);
          ++n;
        }
  }
};

// Every square a knight leaps to from some square of b (by shifts, without the tables).
inline uint64_t leaps_of_set(uint64_t b) {
  constexpr uint64_t kNotA = 0xFEFEFEFEFEFEFEFEull, kNotAB = 0xFCFCFCFCFCFCFCFCull;
  constexpr uint64_t kNotH = 0x7F7F7F7F7F7F7F7Full, kNotGH = 0x3F3F3F3F3F3F3F3Full;
  const uint64_t one = ((b >> 1) & kNotH) | ((b << 1) & kNotA);
  const uint64_t two = ((b >> 2) & kNotGH) | ((b << 2) & kNotAB);
  return (one << 16) | (one >> 16) | (two << 8) | (two >> 8);
}

// The knight tables, built on first use.
inline const Tables& tables() {
  static const Tables t;
  return t;
}

// Zobrist keys of the attrition position, from a fixed seed.
struct Keys {
  uint64_t marker[kAttritionSquares];
  uint64_t knight[kAttritionMaxSeats][kAttritionSquares];
  uint64_t to_act[kAttritionMaxSeats + 1];  // index to_act + 1
  uint64_t first[kAttritionMaxSeats];
  uint64_t to_place[kAttritionMaxSeats][3];
  uint64_t out[kAttritionMaxSeats][kAttritionMaxSeats][2];  // (rank out, seat, captured)
  Keys() {
    uint64_t seed = 0xA7721710C4A1ull;
    for (auto& k : marker) k = splitmix64(seed);
    for (auto& row : knight)
      for (auto& k : row) k = splitmix64(seed);
    for (auto& k : to_act) k = splitmix64(seed);
    for (auto& k : first) k = splitmix64(seed);
    for (auto& row : to_place)
      for (auto& k : row) k = splitmix64(seed);
    for (auto& a : out)
      for (auto& b : a)
        for (auto& k : b) k = splitmix64(seed);
  }
};

// The Zobrist keys, built on first use.
inline const Keys& keys() {
  static const Keys k;
  return k;
}

// The Zobrist key of the markers and knights of p (AttritionPos::board_key).
inline uint64_t board_key_of(const AttritionPos& p) {
  uint64_t key = 0;
  for (uint64_t m = p.marked; m;) key ^= keys().marker[pop_lowest(m)];
  for (int s = 0; s < kAttritionMaxSeats; ++s)
    for (uint64_t k = p.knights[s]; k;) key ^= keys().knight[s][pop_lowest(k)];
  return key;
}

}  // namespace attrition
}  // namespace vzero
