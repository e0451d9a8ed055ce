// attrition_solver.h: longest knight paths by depth-first search with a parity bound and a
// per-thread cache of solved regions, and the separation test over the two knights' reach.
#include "game/attrition/attrition_solver.h"

#include <algorithm>

#include "game/attrition/attrition_tables.h"

namespace vzero {
namespace {

using attrition::bit;
using attrition::leaps_of_set;
using attrition::pop_lowest;
using attrition::tables;

constexpr int64_t kPathBudget = 5000;  // search nodes one longest path may take
constexpr int kCachedRegion = 8;       // regions of at least this many squares are cached
constexpr uint64_t kOddSquares = 0x55AA55AA55AA55AAull;  // (file + rank) odd: b1, a2, ...

// The squares of free a knight on sq reaches in one or more leaps over free squares.
uint64_t reach(int sq, uint64_t free) {
  uint64_t seen = 0;
  for (uint64_t front = bit(sq); (front = leaps_of_set(front) & free & ~seen);) seen |= front;
  return seen;
}

// Solved (square, region) pairs of this thread; a slot holds the latest pair that hashed to it.
// Value -1: the budget ran out on that pair.
struct PathCache {
  static constexpr int kSlots = 1 << 15;
  uint64_t region[kSlots] = {};
  int8_t square[kSlots] = {};
  int8_t value[kSlots] = {};
  static int slot(int sq, uint64_t r) {
    return int(((r ^ (uint64_t(sq) * 0x9E3779B97F4A7C15ull)) * 0xD6E8FEB86659FD93ull) >> 49);
  }
  // The cached value of (sq, r), or -2 when none.
  int find(int sq, uint64_t r) const {
    const int i = slot(sq, r);
    return region[i] == r && square[i] == sq && r ? value[i] : -2;
  }
  void store(int sq, uint64_t r, int v) {
    const int i = slot(sq, r);
    region[i] = r;
    square[i] = int8_t(sq);
    value[i] = int8_t(v);
  }
};

PathCache& cache() {
  thread_local PathCache c;
  return c;
}

// One longest-path search under a node budget.
struct PathSearch {
  int64_t nodes_left;
  // The longest path from sq over the squares of region (reach(sq, region) == region), or a path
  // of `enough` leaps or more once one is found (then not the longest); -1 when the budget ran out.
  int longest(int sq, uint64_t region, int enough) {
    if (!region) return 0;
    const bool cached = __builtin_popcountll(region) >= kCachedRegion;
    if (cached)
      if (const int v = cache().find(sq, region); v >= 0) return v;
    if (--nodes_left < 0) return -1;
    // A leap changes the square's colour: a path of length L from sq uses ceil(L/2) squares of the
    // other colour and floor(L/2) of sq's own.
    const uint64_t own_colour = (kOddSquares >> sq) & 1 ? kOddSquares : ~kOddSquares;
    const int own = __builtin_popcountll(region & own_colour);
    const int other = __builtin_popcountll(region) - own;
    const int bound = std::min(2 * other, 2 * own + 1);
    int best = 0;
    for (uint64_t next = tables().attacks[sq] & region; next && best < bound && best < enough;) {
      const int n = pop_lowest(next);
      const int l = longest(n, reach(n, region & ~bit(n)), enough - 1);
      if (l < 0) return -1;
      best = std::max(best, l + 1);
    }
    if (cached && (best < enough || best == bound)) cache().store(sq, region, best);  // exact
    return best;
  }
};

constexpr int kAnyLength = 64;  // longer than any path: PathSearch::longest finds the longest

// The longest path from sq over region, its reach (or one of `enough` leaps or more), cached when
// exact; nullopt beyond the budget, which is cached too.
std::optional<int> longest_path(int sq, uint64_t region, int enough = kAnyLength) {
  const int known = cache().find(sq, region);
  if (known >= 0) return known;
  if (known == -1) return std::nullopt;
  PathSearch search{kPathBudget};
  const int v = search.longest(sq, region, enough);
  if (v < 0) cache().store(sq, region, -1);
  return v >= 0 ? std::optional<int>(v) : std::nullopt;
}

}  // namespace

std::optional<int> attrition_longest_path(int sq, uint64_t free) {
  return longest_path(sq, reach(sq, free & ~bit(sq)));
}

std::optional<SeparatedPaths> attrition_separated_paths(const AttritionRules& rules,
                                                        const AttritionPos& p) {
  if (rules.players() != 2 || rules.knights() != 1 || p.over() || p.to_place[0] || p.to_place[1])
    return std::nullopt;
  const int me = p.to_act, other = 1 - me;
  const int my_sq = __builtin_ctzll(p.knights[me]), other_sq = __builtin_ctzll(p.knights[other]);
  const uint64_t free = ~p.marked;
  const uint64_t mine = reach(my_sq, free), theirs = reach(other_sq, free);
  // A leap from one side's squares to the other's would be a shared square or a capture.
  if (leaps_of_set(mine | bit(my_sq)) & (theirs | bit(other_sq))) return std::nullopt;
  // The smaller region's longest path exactly, then whether the other knight outlasts it: the seat
  // to act needs one leap more than the other, the other as many as the seat to act.
  if (__builtin_popcountll(mine) <= __builtin_popcountll(theirs)) {
    const std::optional<int> a = longest_path(my_sq, mine);
    const std::optional<int> b = a ? longest_path(other_sq, theirs, *a) : std::nullopt;
    if (!b) return std::nullopt;
    return SeparatedPaths{*a, *b};
  }
  const std::optional<int> b = longest_path(other_sq, theirs);
  const std::optional<int> a = b ? longest_path(my_sq, mine, *b + 1) : std::nullopt;
  if (!a) return std::nullopt;
  return SeparatedPaths{*a, *b};
}

}  // namespace vzero
