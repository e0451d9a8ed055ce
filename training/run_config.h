#pragma once
// The config of a run: the variant, the seed and one table per part
// ([search], [selfplay], [inference], [model], [train], [loop]), all typed
// with defaults and ranges; unknown keys and tables are errors. The resolved
// text (every value in force) is written next to a run's output and hashed
// into its shards. No LibTorch here.
#include <cstdint>
#include <string>
#include <vector>

#include "search/config.h"
#include "net/spec/model_config.h"
#include "net/spec/server_config.h"
#include "selfplay/selfplay.h"

namespace vzero {

// The [train] table.
struct TrainConfig {
  int window_positions = 200000;  // replay buffer: the most recent shards holding this many samples
  int batch_size = 256;
  int steps = 0;                  // steps per generation; 0: sample_reuse * new positions / batch
  double sample_reuse = 2.0;      // how often each new sample is trained on, on average
  std::string optimizer = "sgd";  // sgd (with momentum) or adamw
  double lr = 0.02;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  int lr_warmup_steps = 100;
  int lr_decay_steps = 0;         // lr halves every this many steps; 0: constant after warm-up
  double value_weight = 1.0;
  double root_value_weight = 0.0;  // share of the search's root value in the value target (the rest: the result)
  std::string value_target = "mix";  // result, root (the search's value), mix (root_value_weight of
                                     // the root value), or phase (that share scaled by the part of
                                     // the game still to play: early positions lean on the search)
  double moves_left_weight = 0.5;  // weight of the moves-left loss (models with a moves-left head)
  bool window_growth = false;     // KataGo-style window: grows with the positions generated, up to window_positions
  int window_min = 25000;         // the window while fewer positions exist, and the growth's scale
  double window_exponent = 0.75;  // growth: min * (1 + slope * ((N / min)^exponent - 1) / exponent)
  double window_slope = 0.4;
  double bootstrap_share = 1.0;   // largest share of the window taken by generation-0 games
  double holdout_fraction = 0.05; // share of games kept out of training for validation
  bool symmetries = true;         // augment with the variant's declared symmetries
  int threads = 2;                // intra-op threads of the training thread
};

// The [loop] table.
struct LoopConfig {
  int generations = 5;            // 0: until stopped
  int bootstrap_games = 0;        // games of the first generation, played by the network-free evaluator (0: selfplay.games)
  int bootstrap_visits = 0;       // full-search visits of those games (0: selfplay.full_visits; fast ones scale alike)
  std::string gate = "always";    // promotion (training/gate.h): always, score (>= gate_threshold) or sprt
  double gate_threshold = 0.55;
  double sprt_elo0 = 0.0;         // gate = "sprt": H0 elo0 against H1 elo1, in normalised Elo (as arena --sprt)
  double sprt_elo1 = 50.0;
  double sprt_alpha = 0.05;
  double sprt_beta = 0.05;
  int arena_games = 40;           // per evaluation match (sprt: at most)
  int arena_visits = 200;
  std::string openings = "auto";  // auto (configs/openings/<variant>.txt when it exists), none, random:N (plies) or a file
  std::string baseline = "mcts:sims=200,evaluator=rollout";  // fixed opponent for the curve
  int baseline_games = 40;
  std::vector<std::string> anchors;       // more fixed opponents (player specs), each played by every generation
  int anchor_games = 20;                  // per anchor and generation
  std::string ratings_anchor = "gen-000"; // the player at Elo 0 in ratings.csv: gen-NNN, the baseline or an anchor
};

struct RunConfig {
  std::string variant = "attrition";
  uint64_t seed = 1;
  std::string device = "cpu";  // cpu or cuda:N: where the trainer and the inference servers run
  SearchConfig search;
  SelfplayConfig selfplay;
  ServerConfig inference;
  ModelConfig model;
  TrainConfig train;
  LoopConfig loop;
  std::string resolved;  // the TOML text of every value in force
  uint64_t hash = 0;     // of resolved
};

// Reads a config file (empty path: all defaults) with overrides "table.key=value" applied after it.
RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides = {});
// Reads TOML text (origin names it in errors).
RunConfig parse_run_config(const std::string& text, const std::string& origin);

}  // namespace vzero
