#pragma once
// What the frontends (play, uci, serve) share: the engine behind a player
// (its evaluator and search settings, or a network-free search), and a
// search's root read as statistics for people and protocols.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "match/players.h"
#include "search/search.h"

namespace vzero {

// The network-free evaluator the frontends search with when a player has no
// evaluator of its own (random, uci:): cheap and sensible in every variant.
constexpr const char* kFallbackEvaluator = "heuristic";

// An evaluator and the search settings to use it with.
struct Engine {
  std::shared_ptr<Evaluator> evaluator;
  SearchConfig search;
};

// The engine of a player: its own evaluator and settings when it is a search
// player (mcts:, net:), else the fallback evaluator with `fallback` settings.
// Root noise and the temperature are turned off: analyses are deterministic.
Engine engine_of(const Player& player, const SearchConfig& fallback, uint64_t seed);
// A network-free engine with the named evaluator (rollout, heuristic, constant).
Engine basic_engine(const std::string& evaluator, const SearchConfig& search, uint64_t seed);

// Where shipped models (<variant>.pt) are looked for: $VZERO_MODELS alone when
// set, else models/ above the binary (build/cli/vzero, bin/vzero) and in the
// source tree the binary was built from.
std::vector<std::string> default_model_dirs();
// The shipped model of a variant: the first <dir>/<variant>.pt that exists; "" when none.
std::string shipped_model(const std::string& variant, const std::vector<std::string>& dirs);

// One root action after a search.
struct ActionStat {
  int action = -1;
  int visits = 0;
  float prior = 0.0f;
  std::vector<float> value;  // per seat: the child's mean (exact when proven); empty when unvisited
  bool proven = false;
  std::vector<int> pv;  // the principal variation starting with action (filled for the top lines)
};

// A search's root: the seat to act, its value and every legal action.
struct RootStats {
  int player = -1;
  int visits = 0;            // root visits
  std::vector<float> value;  // root value per seat (exact when proven)
  bool proven = false;
  // Best first: proven wins for the seat to act, then by visits (ties: higher
  // prior, then action), proven losses last.
  std::vector<ActionStat> actions;
};

// The statistics of a search's root; the first pv_lines actions get their
// principal variation (proven lines follow proven children to the end).
RootStats root_stats(const Search& search, int pv_lines);
// Adds the counts of another search of the same position (root parallelism):
// visits add up, values average by visits, each line keeps the deeper-searched pv.
void merge_root_stats(RootStats& into, const RootStats& other);
// The action to play: a proven win, else the most visited action that is not
// a proven loss (all proven losses: the most visited); the first of `actions`.
int best_action(const RootStats& stats);
// Searches state (not terminal) with `simulations` playouts and returns its root.
RootStats analyse(const Engine& engine, const GameState& state, int simulations, int pv_lines,
                  uint64_t seed);

}  // namespace vzero
