#pragma once
// The search tree: a node per reached position, values as vectors (one per
// seat), edges holding the prior and the child. A node's statistics are seen
// from every seat, so the parent's player to act reads its own entry,
// whoever acted before (several actions in a row by one player included).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace vzero {

constexpr int kMaxSeats = 4;
using Values = std::array<float, kMaxSeats>;

struct Node;

// The best value a seat can get: a proven child reaching it decides its parent.
inline bool is_win(const Values& v, int seat) { return v[seat] >= 1.0f - 1e-6f; }
inline bool is_loss(const Values& v, int seat) { return v[seat] <= -1.0f + 1e-6f; }
// A draw: nobody gains or loses (every seat's value 0).
inline bool is_draw(const Values& v) {
  for (float x : v)
    if (x > 1e-6f || x < -1e-6f) return false;
  return true;
}

struct Edge {
  int action = 0;
  float prior = 0.0f;
  std::unique_ptr<Node> child;  // null until first visited
};

struct Node {
  int8_t player = -1;           // seat to act here; -1 when terminal
  bool expanded = false;        // edges and priors known
  bool pending = false;         // waiting in a batch for its evaluation
  bool proven = false;          // exact holds the value (terminal, or solved from its children)
  bool repetition = false;      // a draw because it repeats a position of its path (two_fold_draw)
  int visits = 0;               // completed playouts through this node
  int in_flight = 0;            // playouts on their way (virtual loss)
  Values value_sum{};           // sum of backed-up values, per seat
  Values exact{};               // the value when proven
  float raw_value = 0.0f;       // the evaluator's value for player when expanded
  float moves_left_sum = 0.0f;  // sum of backed-up moves-left estimates (plies to the end)
  int draws = 0;                // completed playouts that ended in a proven draw (draw_score)
  std::vector<Edge> edges;      // in legal_actions() order

  // The mean value for seat s (0 when unvisited).
  float mean(int s) const { return visits ? value_sum[s] / float(visits) : 0.0f; }
  // The mean moves-left estimate (0 when unvisited).
  float moves_left() const { return visits ? moves_left_sum / float(visits) : 0.0f; }
};

}  // namespace vzero
