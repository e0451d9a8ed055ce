#pragma once
// The loop's matches and its ratings ladder. Every match of generation g
// plays the run's openings, each once in every seat order, and appends its
// games to records/gen-NNN.jsonl of the run folder, from which a killed match resumes.
// Models are named gen-NNN, fixed opponents (the baseline, the anchors) by
// their player specs; after each generation every recorded game is fitted
// into ratings.csv and drawn, with the validation curves, into
// curve.png. Used by the loop and by `vzero gate`. No LibTorch.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "game/game.h"
#include "match/arena.h"
#include "match/match_group.h"
#include "match/ratings.h"
#include "training/run_config.h"
#include "training/run_dir.h"

namespace vzero {

// The player of a checkpoint searching visits per move: "net:model=PATH,sims=N".
std::string net_spec(const std::string& path, int visits);

// The openings of the run's matches. loop.openings "random:N" draws N random
// plies per opening; any other source is read once, at the run's first match,
// and kept as the run folder's openings.txt, which every later match reads: "auto" is
// configs/openings/<variant>.txt (from the working folder) when it exists,
// else none; "none" starts every game from the start position; anything else
// is a file. Throws Error naming the file and line of a bad opening.
struct LoopOpenings {
  std::vector<Opening> openings;
  int random_plies = 0;
};
LoopOpenings loop_openings(const RunContext& run);

// Checks a run's matches before it starts, writing nothing: gate = sprt
// needs 2 players, the openings must read, and each fixed opponent that plays
// (baseline, anchors) must start a game (throws Error naming the one that
// cannot). Call before the run folder takes the config.
void prepare_loop_matches(const RunContext& run);

// One match of generation g's model (player A) against an opponent.
struct LoopMatch {
  std::string key;            // the match within the generation ("arena_prev", "anchor_1", ...)
  std::string opponent;       // its player spec
  std::string opponent_name;  // its name in records and ratings
  int games = 0;              // > 0
  uint64_t salt = 0;          // tells the seeds of a generation's matches apart
  std::optional<SprtConfig> sprt;
};
// The matches that measure generation g after the gate's: against generation
// 0 ("arena_gen0", loop.arena_games), the baseline ("arena_base",
// loop.baseline_games) and each anchor ("anchor_K", loop.anchor_games); a
// match of 0 games is not played.
std::vector<LoopMatch> measuring_matches(const RunContext& run);

// Plays the match (light root noise, moves by most visits, loop.arena_visits
// for the model), or resumes it from the generation's records. With a group
// (the gate's MPI ranks), each rank plays a share and every rank gets the
// whole result; rank 0 alone writes the records.
ArenaResult play_loop_match(const RunContext& run, int g, const LoopMatch& match,
                            MatchGroup* group = nullptr);

// Fits every player of records/*.jsonl into one Elo scale, with
// loop.ratings_anchor at 0 when it has played (else the mean is 0 and the log
// says so), and writes it to ratings.csv.
RatingsTable refit_ratings(const RunContext& run);

// Draws curve.png with gnuplot: the ladder of the table (Elo by
// generation with 95% error bars, fixed opponents as horizontal lines) over
// generations 0 to `generations`, above the validation curves of metrics.csv
// when the folder has one (the loop's; a roles run has none). A note in the
// log when gnuplot fails.
void draw_curve(const RunContext& run, int generations, const RatingsTable& ratings);

}  // namespace vzero
