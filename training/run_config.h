#pragma once
// The config of a run: the variant, the seed and one table per part
// ([search], [selfplay], [inference], [model], [train], [loop]), all typed
// with defaults and ranges; unknown keys and tables are errors. The resolved
// text (every value in force) is written next to a run's output and hashed
// into its shards. No LibTorch here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "net/spec/model_config.h"
#include "net/spec/server_config.h"
#include "search/config.h"
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
  int lr_decay_steps = 0;              // lr halves every this many steps; 0: constant after warm-up
  std::string lr_schedule = "step";    // step (halving every lr_decay_steps), cosine (lr to lr_min
                                       // over lr_decay_steps steps, then lr_min) or piecewise
  double lr_min = 0.0;                 // the floor of the cosine schedule
  std::vector<int64_t> lr_boundaries;  // piecewise: from step lr_boundaries[i] on (increasing),
  std::vector<double> lr_values;       // lr is lr_values[i]; before the first, lr
  double value_weight = 1.0;
  double root_value_weight =
      0.0;  // share of the search's root value in the value target (the rest: the result)
  std::string value_target = "mix";  // result, root (the search's value), mix (root_value_weight of
                                     // the root value), or phase (that share scaled by the part of
                                     // the game still to play: early positions lean on the search)
  std::string wdl_target =
      "mix";  // the win/draw/loss target: mix (the root value's share as a win or
              // loss by its sign, the rest of it a draw: D grows as |q| falls),
              // result (the game's result alone), or decisive (the root value's
              // share split (1 + q) / 2 win, (1 - q) / 2 loss: no draw from uncertainty)
  std::string capped_value =
      "draw";  // the value target of positions of games stopped at the length cap: draw (as any
               // game's: value_target's mix with the recorded draw) or root (their search's
               // value alone: a cap is no outcome, and scoring it a draw pulls values to 0)
  double fast_value_weight =
      1.0;  // weight of fast-search positions in the value loss (full ones: 1)
  double moves_left_weight = 0.5;  // weight of the moves-left loss (models with a moves-left head)
  bool window_growth = false;     // KataGo-style window: grows with the positions the run generated
                                  // (metrics.csv and its shards), up to window_positions
  int window_min = 25000;         // the window while fewer positions exist, and the growth's scale
  double window_exponent = 0.75;  // growth: min * (1 + slope * ((N / min)^exponent - 1) / exponent)
  double window_slope = 0.4;
  double bootstrap_share = 1.0;    // largest share of the window taken by generation-0 games
  double holdout_fraction = 0.05;  // share of games kept out of training for validation
  bool symmetries = true;          // augment with the variant's declared symmetries
  std::vector<std::string> extra_symmetries;  // and with these (names as in variant files): exact
                                              // symmetries of a variant whose file, and so whose
                                              // rules hash and shipped model, predate them
  int threads = 2;                            // intra-op threads of the training thread
};

// The [loop] table.
struct LoopConfig {
  int generations = 5;  // 0: until stopped
  int bootstrap_games =
      0;  // games of the first generation, played by the network-free evaluator (0: selfplay.games)
  int bootstrap_visits =
      0;  // full-search visits of those games (0: selfplay.full_visits; fast ones scale alike)
  std::string gate =
      "always";  // promotion (training/gate.h): always, score (>= gate_threshold) or sprt
  double gate_threshold = 0.55;
  double sprt_elo0 =
      0.0;  // gate = "sprt": H0 elo0 against H1 elo1, in normalised Elo (as arena --sprt)
  double sprt_elo1 = 50.0;
  double sprt_alpha = 0.05;
  double sprt_beta = 0.05;
  int arena_games = 40;  // per evaluation match (sprt: at most)
  int arena_visits = 200;
  std::string openings = "auto";  // auto (configs/openings/<variant>.txt when it exists), none,
                                  // random:N (plies) or a file
  std::string baseline = "mcts:sims=200,evaluator=rollout";  // fixed opponent for the curve
  int baseline_games = 40;
  std::vector<std::string>
      anchors;            // more fixed opponents (player specs), each played by every generation
  int anchor_games = 20;  // per anchor and generation
  std::string ratings_anchor =
      "gen-000";          // the player at Elo 0 in ratings.csv: gen-NNN, the baseline or an anchor
  int measure_every = 1;  // the measuring matches (and, with gate = always, the match against the
                          // previous model) every this many generations, and at the last one
  double saturated_score =
      0.0;  // > 0: a measuring match against generation 0 or the baseline whose last
            // score reached this plays only saturated_games games (0: off)
  int saturated_games = 10;
  std::string
      bootstrap_player;  // non-empty: a player spec ("uci:...") plays the bootstrap generation
                         // (training/bootstrap_player.h) instead of selfplay.evaluator
  int bootstrap_random_plies = 4;  // random plies before each of its games (not recorded)
  std::string init_model;  // non-empty: a checkpoint of the run's variant and [model] whose weights
                           // are generation 0 and the trainer's start; the first generation is
                           // then played by it, not by the network-free bootstrap
};
// Whether generation g, whose current model is `current`, is played without a network (the
// bootstrap: the first generation, unless loop.init_model gives it one).
bool network_free_generation(const LoopConfig& loop, int g, int current);
// Whether generation g plays the measuring matches under loop.measure_every.
bool measures_generation(const LoopConfig& loop, int g);
// The games of a measuring match of `games` whose opponent the last measured score (if any)
// was against: loop.saturated_games once that score reached loop.saturated_score (> 0).
int measuring_games(const LoopConfig& loop, const std::optional<double>& last_score, int games);

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
