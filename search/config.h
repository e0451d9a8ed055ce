#pragma once
// The options of one search, read from the [search] table of a TOML config
// (typed, with ranges; unknown keys are errors) and overridable from the CLI.
#include <cstdint>
#include <string>

namespace vzero {

class TomlReader;

struct SearchConfig {
  int simulations = 200;      // playouts per move (leaf evaluations or terminal hits)
  double cpuct = 1.25;        // exploration constant at few visits
  double cpuct_base = 19652;  // c(N) = cpuct + cpuct_growth * log((N + base + 1) / base)
  double cpuct_growth = 1.0;
  double fpu_reduction = 0.25;  // unvisited child: parent value minus this * sqrt(visited prior)
  double fpu_reduction_root = 0.0;
  double policy_temperature = 1.0;  // priors as p^(1/T), renormalised (lc0's policy softmax
                                    // temperature; > 1 flattens them)
  bool root_noise = false;          // Dirichlet noise on the root priors (self-play)
  double dirichlet_alpha = 10.0;    // total alpha: each action gets alpha / number of legal actions
  double noise_fraction = 0.25;
  double temperature = 1.0;  // for the first temperature_plies plies of the game
  int temperature_plies = 0;
  double final_temperature = 0.0;       // afterwards; 0 picks the most visited action
  double temperature_halflife = 0.0;    // > 0: temperature decays towards final_temperature
                                        // with this half-life in plies (temperature_plies unused)
  double forced_playouts = 0.0;         // k of KataGo's forced playouts at a noised root (0: off)
  bool policy_target_pruning = false;   // remove forced playouts from the policy target
  std::string root_selection = "puct";  // "puct", or "gumbel": Gumbel top-k with sequential halving
  int gumbel_actions = 16;              // m: actions sampled at the root (gumbel)
  double gumbel_c_visit = 50.0;         // sigma(q) = (c_visit + max visits) * c_scale * q
  double gumbel_c_scale = 1.0;
  double moves_left_slope =
      0.0;  // > 0: prefer shorter wins and longer losses by the moves-left estimate
  double moves_left_cap = 0.2;        // largest utility change from moves left
  double moves_left_threshold = 0.8;  // |Q| above which moves left start to count (fully at 1)
  int batch = 8;                      // leaves gathered (with virtual loss) per evaluator call
  bool pipeline = false;  // gather the next batch while the evaluator works on the last one (2
                          // batches in flight; a lone search keeps the network busy)
  double virtual_loss = 1.0;
  bool reuse_tree = true;
  bool two_fold_draw =
      false;                // lc0: a position repeating one on its path from the root scores a draw
  double draw_score = 0.0;  // lc0's draw score: what a proven draw is worth to the seat to act at
                            // the root (the other seats share its negation); < 0 avoids draws.
                            // Only choices change: the reported values stay the game's own
  bool win_in_one = true;   // a position whose player to act can win at once (capture the king,
                            // GameState::winning_action) is a proven win, seen on arrival
  // Positions a proof search of the root may visit before the playouts (proof.h; a proven win is
  // played at once); -1: the position's own budget (GameState::proof_budget: attrition 20,000 from
  // the 18th marker on); 0: none (self-play's default; play's is -1).
  int proof_nodes = 0;
  bool solve_endgames = true;  // a position the variant solves exactly (GameState::solved_returns:
                               // attrition's separated knights) is proven on arrival
};

// The search that play starts from (vzero arena without --config, play, serve,
// uci; a config file's [search] and a spec's options go over it): one leaf per
// evaluator call and a policy temperature of 1.5, each measured stronger at 400
// visits on Los Alamos (search/README.md), and the position's own proof budget
// (proof_nodes = -1: attrition's endgames). Self-play keeps SearchConfig's own
// defaults.
SearchConfig play_search_config();

// Reads a [search] table over the given defaults (throws Error on unknown keys or bad values).
SearchConfig read_search_config(TomlReader& in, SearchConfig defaults = {});
// Applies one override "key=value" with the same names and ranges as the TOML keys.
void set_search_option(SearchConfig& c, const std::string& key, const std::string& value);
// Throws Error when a field is out of its range.
void validate(const SearchConfig& c);

}  // namespace vzero
