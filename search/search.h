#pragma once
// PUCT search (AlphaZero style) over the Game interface, for 2-4 players and
// any order of turns: c_puct growing with visits, FPU reduction, Dirichlet
// root noise, forced playouts with policy target pruning, temperature (a step
// or a decay), tree reuse, exact propagation of terminal results, a
// moves-left utility, and batches of leaves gathered with virtual loss before
// one evaluator call. The root may instead use Gumbel top-k sampling with
// sequential halving (Danihelka et al. 2022), whose policy target is the
// improved policy of completed Q-values.
// One Search is used by one thread; many Searches may share an Evaluator.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "game/game.h"
#include "search/config.h"
#include "search/evaluator.h"
#include "search/node.h"

namespace vzero {

// What a search says about its root.
struct SearchResult {
  std::vector<int> actions;   // the root's legal actions
  std::vector<int> visits;    // visits per action
  std::vector<float> policy;  // the training target: visits normalised (pruned when configured),
                              // the improved policy of a Gumbel root, or all on the best action of
                              // a root proven won
  std::vector<float> value;   // root value per seat
  float moves_left = -1.0f;  // the root's moves-left estimate; negative when the evaluator has none
  int player = -1;           // the seat to act at the root
  bool proven = false;       // the root's value is exact
  int best_action = -1;      // the most visited (or proven best) action
  int simulations = 0;       // playouts run by this call
  int evaluations = 0;       // positions sent to the evaluator by this call
};

// When a search counts as a caller of its evaluator (Evaluator::attach): for
// its whole life (self-play, where a game's next search follows at once; the
// UCI engine's searches, which have their server to themselves), or only
// inside run() (match players, which wait between moves for an opponent that
// may share their server), so that a batching evaluator never waits for a
// search that is not searching.
enum class Attach { Lifetime, WhileRunning };

class Search {
 public:
  Search(Evaluator& evaluator, const SearchConfig& config, uint64_t seed,
         Attach attach = Attach::Lifetime);
  ~Search();

  // Starts from a copy of state (with its history), dropping any tree.
  void set_root(const GameState& state);
  // Plays action at the root, keeping its subtree when tree reuse is on.
  void advance(int action);
  // Runs simulations playouts (config's when <= 0) from the root; the root must not be terminal.
  SearchResult run(int simulations = 0);
  // The action to play: proven best, the winner of a Gumbel root, else by
  // visits with the temperature that the config gives for the root's ply.
  int choose_action(const SearchResult& r);
  // The temperature the config gives for a ply of the game.
  double temperature_at(int ply) const;

  const GameState& root_state() const { return *state_; }
  const Node& root() const { return *root_; }
  const SearchConfig& config() const { return config_; }
  SearchConfig& mutable_config() { return config_; }

 private:
  struct Leaf {
    std::vector<Node*> path;           // root first
    std::unique_ptr<GameState> state;  // a copy of the leaf position (batches > 1)
  };
  // Walks from the root to a leaf (through root edge forced_edge when >= 0),
  // applying actions to state_ and adding virtual loss; returns the path.
  // The caller undoes the actions.
  std::vector<Node*> select(int forced_edge = -1);
  int select_edge(const Node& node, bool at_root) const;
  // Runs count playouts in batches; playout i goes through root edge
  // forced[i % forced.size()], or where PUCT leads when forced is empty.
  // Pipelined (config pipeline), the next batch is gathered while the
  // evaluator works on the last.
  void playouts(int count, const std::vector<int>& forced, SearchResult& r);
  // Finds a root action that wins at once: winning_child (config solve_endgames), else, with two
  // players and a proof budget (config proof_nodes, or the game's), one proof.h's search proves;
  // that child is marked proven and visited once, which proves the root and ends the search.
  void prove_root(SearchResult& r);
  // A root action whose position the variant solves (GameState::solved_returns) as won for the
  // root's player, or, where the variant calls the root itself won, that ends the game in its
  // favour; with that position's returns; -1 if none.
  int winning_child(std::vector<double>* returns);
  // Selects up to config batch leaves to evaluate (marked pending), while
  // done + in_flight + their number < count: proven leaves are backed up at
  // once and counted in done; with batch 1 each leaf is evaluated in place.
  // Stops early at a leaf already pending.
  std::vector<Leaf> gather(int count, int in_flight, const std::vector<int>& forced,
                           SearchResult& r, int& done);
  // Expands and backs up evaluated leaves (then cleared), counting them in done.
  void finish(std::vector<Leaf>& leaves, const std::vector<Evaluation>& evals, SearchResult& r,
              int& done);
  // Spends simulations by sequential halving over Gumbel-sampled root actions; returns the winner's
  // edge.
  int run_gumbel(int simulations, SearchResult& r);
  // The root's completed, normalised Q of each edge for its player (gumbel).
  std::vector<float> completed_q() const;
  // Fills r from the root: visits, policy target, value, best action.
  void report(SearchResult& r, int gumbel_best) const;
  // Visit counts with forced playouts taken out (policy target pruning).
  std::vector<int> pruned_visits(int best) const;
  float moves_left_utility(const Node& node, const Node& child, float parent_q) const;
  void expand(Node& node, const GameState& state, const Evaluation& e);
  // Adds one playout's values (and, when it ended in a proven draw, a draw) to every node of path.
  void backup(const std::vector<Node*>& path, const Values& v, float moves_left, bool draw = false);
  // What a proven draw is worth to seat under config draw_score (0 when it is off).
  float draw_value(int seat) const;
  // A child's value for seat as the choice of an action sees it: exact when proven, else its mean,
  // with its draws valued by draw_value.
  float choice_value(const Node& child, int seat) const;
  void remove_virtual_loss(const std::vector<Node*>& path);
  void mark_terminal(Node& node, const GameState& state);
  // Proves node with these returns per seat (a terminal position's, or a variant's exact answer).
  void mark_exact(Node& node, const std::vector<double>& returns);
  static void mark_draw(Node& node);  // a proven draw: every seat's value 0
  void apply_root_noise();
  void undo_to_root(size_t depth);
  float c_puct(int visits) const;

  Evaluator& evaluator_;
  Attach attach_;
  SearchConfig config_;
  std::mt19937_64 rng_;
  std::unique_ptr<GameState> state_;  // the root position; playouts apply and undo on it
  std::unique_ptr<Node> root_;
  std::vector<float> root_noise_;  // per root edge, empty when noise is off
  std::vector<float> gumbel_;      // per root edge: Gumbel noise plus log prior (gumbel roots)
  bool moves_left_known_ = false;  // the evaluator gives moves-left estimates
  int players_ = 2;
};

}  // namespace vzero
