#pragma once
// The self-play generator: many games in flight on TBB, every search sharing
// one evaluator (the batching inference server, or a network-free one), each
// position a training sample, each game a record, all written to HDF5 shards
// by one writer thread. Playout cap randomisation, root noise on full
// searches, temperature for early moves, resignation with a fraction of games
// played out to count false resignations, a length cap scored as a draw,
// no-progress endings adjudicated by the search's value.
// A game depends only on the job's seed, its game id and the evaluator, so a
// killed run resumes by playing the indices its shards lack.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "search/config.h"
#include "search/evaluator.h"
#include "selfplay/sample.h"

namespace vzero {

class TomlReader;

// The [selfplay] table.
struct SelfplayConfig {
  int games = 100;          // games to play
  int parallel_games = 32;  // games in flight at once
  int fiber_threads = -1;   // OS threads that run the games in flight as fibers (switched in user
                            // space while they wait on the evaluator); -1: one per hardware
                            // thread; 0: a thread per game instead (blocking while it waits)
  int games_per_shard = 50;
  int full_visits = 200;        // root visits of a full search (reused subtree included)
  int fast_visits = 32;         // root visits of a fast search (not a policy target)
  double full_fraction = 0.25;  // share of moves searched fully
  double resign_threshold =
      -0.95;  // a seat whose full-search value falls below resigns (2 players)
  double resign_playout_fraction = 0.1;  // games that never resign, to measure false resignations
  int max_plies = 0;                     // game-length cap (a draw); 0: the variant's
  int adjudicate_plies = 0;       // > 0: a two-player game that may resign ends once its fifty-move
                                  // clock reaches this many plies, scored by that search's value
  double adjudicate_value = 0.5;  // ... a win for the seat whose value is above this, else a draw
  bool end_dead_positions = false;  // true: a game ends as a draw (end reason "dead-position") once
                                    // nobody can win any more (GameState::dead_draw), before the
                                    // rules would end it: no searches, no samples of a dead draw
  std::string evaluator = "rollout";  // network-free evaluator when there is no model
  int opening_plies = 0;  // > 0: each game first plays 0..opening_plies plies drawn from the
                          // evaluator's priors (not recorded as samples), for varied starts
  double opening_temperature = 1.0;  // temperature on those priors
  double opening_balance = 1.0;      // redraw (up to 8 times) an opening whose value for the player
                                     // to act is beyond +-this (1: keep every opening)
  int fast_batch = 0;  // leaves in flight (search.batch) of a fast search; 0: search.batch
  std::string full_root = "reuse";  // a full search's root: "reuse" the tree of the moves before,
                                    // or start it "fresh" so that its noise reaches every playout
};
SelfplayConfig read_selfplay_config(TomlReader& in, SelfplayConfig defaults = {});

struct SelfplayStats {
  int games = 0;
  int64_t positions = 0, full_positions = 0;
  int64_t evaluations = 0;  // positions the searches asked the evaluator for
  double seconds = 0.0;
  int resigned = 0;            // games ended by resignation
  int would_resign = 0;        // played-out games in which a seat would have resigned
  int false_resignations = 0;  // ... and did not lose
  int decisive = 0, draws = 0, capped = 0;
  // Counts one finished game and its outcome (decisive or drawn, stopped at the cap).
  void add_game(const GameRecord& g) {
    ++games;
    draws += g.drawn();
    decisive += !g.drawn();
    capped += g.stopped_at_cap();
  }
  double positions_per_s() const { return seconds > 0 ? positions / seconds : 0.0; }
};

struct SelfplayJob {
  const Game* game = nullptr;
  SelfplayConfig selfplay;
  SearchConfig search;  // noise is switched on for full searches
  Evaluator* evaluator = nullptr;
  // When set, each game searches with its own evaluator made from the game's
  // seed instead (network-free evaluators: the game then repeats exactly,
  // whichever run or thread plays it).
  std::function<std::unique_ptr<Evaluator>(uint64_t seed)> evaluator_per_game;
  ShardMeta meta;  // identity written to every shard
  std::string out_dir;
  std::string file_prefix = "selfplay";
  uint64_t seed = 1;          // with the game id, seeds each game
  int64_t first_game_id = 0;  // game index i has id first_game_id + i
  std::optional<std::vector<int64_t>>
      indices;  // the game indices to play; unset: 0 .. selfplay.games - 1
  // Set (e.g. from progress): games not yet begun are left out; those in play finish and are
  // written.
  const std::atomic<bool>* stop = nullptr;
  // Called about every progress_seconds from the thread that called run_selfplay.
  std::function<void(const SelfplayStats&)> progress;
  double progress_seconds = 2.0;
};

// The identity of the shards of a game's self-play in encoding version `encoding` (0: the
// newest; the samples are written in it), config_hash: of the resolved run config.
ShardMeta shard_meta_for(const Game& game, int encoding, uint64_t config_hash, int generation);

// Plays the job's games (job.indices, or selfplay.games of them) and writes them; returns what
// happened.
SelfplayStats run_selfplay(const SelfplayJob& job);

// The games in the complete shards of dir whose file names start with prefix + "-".
struct WrittenGames {
  std::vector<int64_t> ids;  // ascending, each once
  int64_t positions = 0;     // samples of those games (a game written twice counts once)
  int shards = 0;
};
// Reads those shards (throws Error when one is unreadable); prefix empty: every shard.
WrittenGames written_games(const std::string& dir, const std::string& prefix);
// The indices in [0, games) whose ids first_game_id + index are not in written.
std::vector<int64_t> missing_indices(const WrittenGames& written, int64_t first_game_id, int games);

// Reserves games consecutive game ids in the shard folder dir and returns the
// first: ids after every id reserved there before (dir/game-ids.next, under
// the folder's lock; when it is absent, after the largest id in dir's
// shards), so that runs into one folder never share a game id.
int64_t reserve_game_ids(const std::string& dir, int games);

}  // namespace vzero
