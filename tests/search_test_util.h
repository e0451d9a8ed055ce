#pragma once
// Small helpers shared by the search tests.
#include <cstdint>
#include <initializer_list>
#include <memory>

#include "search/search.h"

namespace vzero::testing {

// Search settings of sims simulations in batches of batch leaves, all else default.
inline SearchConfig search_config(int sims, int batch) {
  SearchConfig c;
  c.simulations = sims;
  c.batch = batch;
  return c;
}

// The result of one search under config c and seed, from a fresh tree at root.
inline SearchResult search_once(Evaluator& eval, const SearchConfig& c, uint64_t seed,
                                const GameState& root) {
  Search search(eval, c, seed);
  search.set_root(root);
  return search.run();
}

// The state of game after the given actions from its start.
inline std::unique_ptr<GameState> state_after(const Game& game,
                                              std::initializer_list<int> actions) {
  std::unique_ptr<GameState> s = game.new_state();
  for (int a : actions) s->apply(a);
  return s;
}

}  // namespace vzero::testing
