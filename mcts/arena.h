#pragma once
// Matches between two players: seats alternate (rotate with 3-4 players, the
// other seats taken by B), each group of games shares a random opening, games
// run in parallel on TBB, and the result is a score with an Elo interval.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"
#include "mcts/players.h"

namespace vzero {

struct ArenaConfig {
  int games = 20;
  int threads = 1;
  uint64_t seed = 1;
  int opening_plies = 0;  // random plies played first, the same for each group of seat rotations
  bool progress = true;   // a progress line on stderr
};

struct ArenaResult {
  int games = 0, wins = 0, draws = 0, losses = 0;  // for player A
  double score = 0.0;  // (wins + draws / 2) / games
  double elo = 0.0;    // Elo difference A - B
  double margin = 0.0;  // half the width of the 95% interval on elo
  double score_lo = 0.0, score_hi = 1.0;  // the 95% interval on score
  double mean_plies = 0.0;
  std::vector<double> score_by_seat;  // A's score when seated at each seat
  // The line "score S wins W draws D losses L elo E +- M".
  std::string summary() const;
};

// Makes player A (role 0) or B (role 1) for one game; seed differs per game.
using PlayerFactory = std::function<std::unique_ptr<Player>(int role, uint64_t seed)>;

// Plays the match; A's result is a win when A alone has the best return,
// a draw when A shares the best, else a loss.
ArenaResult play_arena(const Game& game, const ArenaConfig& config, const PlayerFactory& make);

// Elo difference of a score in (0, 1), clamped to +-1200.
double elo_of_score(double score);

}  // namespace vzero
