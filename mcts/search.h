#pragma once
// PUCT search (AlphaZero style) over the Game interface, for 2-4 players and
// any order of turns: c_puct growing with visits, FPU reduction, Dirichlet
// root noise, temperature, tree reuse, exact propagation of terminal results
// and batches of leaves gathered with virtual loss before one evaluator call.
// One Search is used by one thread; many Searches may share an Evaluator.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "game/game.h"
#include "mcts/config.h"
#include "mcts/evaluator.h"
#include "mcts/node.h"

namespace vzero {

// What a search says about its root.
struct SearchResult {
  std::vector<int> actions;   // the root's legal actions
  std::vector<int> visits;    // visits per action
  std::vector<float> policy;  // visits normalised (the training target)
  std::vector<float> value;   // root value per seat
  int player = -1;            // the seat to act at the root
  bool proven = false;        // the root's value is exact
  int best_action = -1;       // the most visited (or proven best) action
  int simulations = 0;        // playouts run by this call
  int evaluations = 0;        // positions sent to the evaluator by this call
};

class Search {
 public:
  Search(Evaluator& evaluator, const SearchConfig& config, uint64_t seed);
  ~Search();

  // Starts from a copy of state (with its history), dropping any tree.
  void set_root(const GameState& state);
  // Plays action at the root, keeping its subtree when tree reuse is on.
  void advance(int action);
  // Runs simulations playouts (config's when <= 0) from the root; the root must not be terminal.
  SearchResult run(int simulations = 0);
  // The action to play: proven best, else by visits with the temperature
  // that the config gives for the root's ply.
  int choose_action(const SearchResult& r);

  const GameState& root_state() const { return *state_; }
  const Node& root() const { return *root_; }
  const SearchConfig& config() const { return config_; }
  SearchConfig& mutable_config() { return config_; }

 private:
  struct Leaf {
    std::vector<Node*> path;  // root first
    std::unique_ptr<GameState> state;  // a copy of the leaf position (batches > 1)
  };
  // Walks from the root to a leaf, applying actions to state_ and adding
  // virtual loss; returns the path. The caller undoes the actions.
  std::vector<Node*> select();
  int select_edge(const Node& node, bool at_root) const;
  void expand(Node& node, const GameState& state, const Evaluation& e);
  void backup(const std::vector<Node*>& path, const Values& v);
  void remove_virtual_loss(const std::vector<Node*>& path);
  void mark_terminal(Node& node, const GameState& state);
  void apply_root_noise();
  void undo_to_root(size_t depth);
  float c_puct(int visits) const;

  Evaluator& evaluator_;
  SearchConfig config_;
  std::mt19937_64 rng_;
  std::unique_ptr<GameState> state_;  // the root position; playouts apply and undo on it
  std::unique_ptr<Node> root_;
  std::vector<float> root_noise_;     // per root edge, empty when noise is off
  int players_ = 2;
};

}  // namespace vzero
