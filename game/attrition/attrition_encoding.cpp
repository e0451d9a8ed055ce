// The network input of attrition (layout in docs/encoding.md): version 1 the
// board; version 2 adds each seat's knight-move reach over the free squares,
// which a small network does not work out for itself (docs/learning.md, the
// session-55 value study: it halves the value error of the last ten plies).
#include <algorithm>
#include <cstring>

#include "game/attrition/attrition_state.h"
#include "game/attrition/attrition_tables.h"

namespace vzero {

namespace {

// The reach planes of one seat: distances 1, 2 and 3, then every reachable square.
constexpr int kReachPlanes = 4;
constexpr int kUnreached = 127;

std::string seat_name(int r) {
  return r == 0 ? std::string("player to act") : "seat +" + std::to_string(r);
}

// Knight-move distances from the squares of `from` over `free` squares
// (kUnreached where none leads); returns the squares reached.
uint64_t knight_distances(uint64_t from, uint64_t free, int8_t* dist) {
  std::fill_n(dist, kAttritionSquares, int8_t(kUnreached));
  uint64_t seen = from, frontier = from;
  for (int d = 1; frontier; ++d) {
    frontier = attrition::leaps_of_set(frontier) & free & ~seen;
    seen |= frontier;
    for (uint64_t b = frontier; b;) dist[attrition::pop_lowest(b)] = int8_t(d);
  }
  return seen & ~from;
}

}  // namespace

EncodingSpec attrition_encoding(int players, int version) {
  EncodingSpec e;
  e.height = e.width = 8;
  e.add_plane("marked");
  for (int r = 0; r < players; ++r) e.add_plane("knights of " + seat_name(r));
  if (version >= 2) {
    for (int r = 0; r < players; ++r) {
      for (int d = 1; d <= 3; ++d)
        e.add_plane("free squares " + std::to_string(d) +
                    (d == 1 ? " knight move" : " knight moves") + " from " + seat_name(r));
      e.add_plane("free squares reachable by " + seat_name(r));
    }
    for (int r = 0; r < players; ++r)
      e.add_plane("free squares " + seat_name(r) + " reaches first");
  }
  for (int r = 0; r < players; ++r) e.add_scalar("knights to place, " + seat_name(r));
  for (int r = 0; r < players; ++r) e.add_scalar("out, " + seat_name(r));
  e.add_scalar("plies / length cap");
  if (version >= 2) {
    for (int r = 0; r < players; ++r) {
      e.add_scalar("free squares 1 knight move from " + seat_name(r) + " / 8");
      e.add_scalar("free squares reachable by " + seat_name(r) + " / 64");
      e.add_scalar("free squares " + seat_name(r) + " reaches first / 64");
    }
    e.add_scalar("player to act can capture");
    e.add_scalar("player to act can be captured");
  }
  return e;
}

void AttritionState::write_input(uint8_t* planes, float* scalars, int plies_scale,
                                 int version) const {
  const int cap = plies_scale > 0 ? plies_scale : max_plies_;
  const int n = rules_.players();
  const int board_planes = 1 + n, all_planes = version >= 2 ? board_planes + 5 * n : board_planes;
  std::memset(planes, 0, size_t(all_planes) * 64);
  const int me = pos_.to_act >= 0 ? pos_.to_act : 0;
  for (uint64_t b = pos_.marked; b; b &= b - 1) planes[__builtin_ctzll(b)] = 1;
  for (int r = 0; r < n; ++r) {
    const int s = (me + r) % n;
    for (uint64_t b = pos_.knights[s]; b; b &= b - 1) planes[(1 + r) * 64 + __builtin_ctzll(b)] = 1;
    scalars[r] = pos_.to_place[s];
    scalars[n + r] = pos_.is_out(s);
  }
  scalars[2 * n] = cap > 0 ? std::min(1.0f, float(pos_.ply) / float(cap)) : 0.0f;
  if (version < 2) return;

  // Knights stand on marked squares, so the free squares are the unmarked ones.
  const uint64_t free = ~pos_.marked;
  int8_t dist[kAttritionMaxSeats][kAttritionSquares];
  uint64_t reach[kAttritionMaxSeats];
  for (int r = 0; r < n; ++r)
    reach[r] = knight_distances(pos_.knights[(me + r) % n], free, dist[r]);
  // Seat r (r turns after the player to act) arrives d moves away on turn (d - 1) * n + r.
  uint64_t first[kAttritionMaxSeats] = {};
  for (int sq = 0; sq < kAttritionSquares; ++sq) {
    int best = -1, best_turn = 1 << 30;
    for (int r = 0; r < n; ++r)
      if (dist[r][sq] != kUnreached && (dist[r][sq] - 1) * n + r < best_turn)
        best = r, best_turn = (dist[r][sq] - 1) * n + r;
    if (best >= 0) first[best] |= attrition::bit(sq);
  }
  uint8_t* reach_planes = planes + size_t(board_planes) * 64;
  float* extra = scalars + 2 * n + 1;
  for (int r = 0; r < n; ++r) {
    uint8_t* p = reach_planes + size_t(r) * kReachPlanes * 64;
    int moves = 0;
    for (uint64_t b = reach[r]; b;) {
      const int sq = attrition::pop_lowest(b), d = dist[r][sq];
      if (d <= 3) p[(d - 1) * 64 + sq] = 1;
      p[3 * 64 + sq] = 1;
      moves += d == 1;
    }
    for (uint64_t b = first[r]; b;)
      reach_planes[(kReachPlanes * n + r) * 64 + attrition::pop_lowest(b)] = 1;
    extra[3 * r] = float(moves) / 8.0f;
    extra[3 * r + 1] = float(__builtin_popcountll(reach[r])) / 64.0f;
    extra[3 * r + 2] = float(__builtin_popcountll(first[r])) / 64.0f;
  }
  uint64_t others = 0;
  for (int r = 1; r < n; ++r) others |= pos_.knights[(me + r) % n];
  extra[3 * n] = (attrition::leaps_of_set(pos_.knights[me]) & others) != 0;
  // Knight leaps are symmetric, so "can be captured" always equals "can capture": a redundant
  // channel, kept because version 2's models read it (dropping it needs a version 3).
  extra[3 * n + 1] = extra[3 * n];
}

}  // namespace vzero
