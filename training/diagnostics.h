#pragma once
// What a generation's self-play games say about where its compute went and
// what its targets pull towards: how the games ended, the draw share, the
// mean |root value| and |value target| of its positions. Read from the
// generation's shards, so a resumed generation reports all of its games.
// No LibTorch.
#include <cstdint>
#include <string>

#include "selfplay/sample.h"
#include "training/run_config.h"

namespace vzero {

struct GenerationDiagnostics {
  int64_t games = 0, positions = 0;
  // Shares of the games (each in [0, 1], summing to 1 when there are games).
  double end_mate = 0;        // a win by the rules: checkmate, king capture (attrition: capture,
                              // no move, last standing)
  double end_repetition = 0;  // repetition, perpetual check
  double end_cap = 0;         // the game-length cap
  double end_resign = 0;      // resignation
  double end_other = 0;       // stalemate, fifty-move rule, material, ...
  double draws = 0;           // games whose result is 0 for every seat
  double mean_abs_root_value = 0;    // |search value| of the player to act, over positions
  double mean_abs_value_target = 0;  // |value target| of the player to act under config.train
};

// The class of an end reason: "mate", "repetition", "cap", "resign" or "other".
std::string end_reason_class(const GameRecord& game);

// The diagnostics of the games in dir's complete shards whose names start with
// prefix + "-" (throws Error when one is unreadable); every game counts once.
GenerationDiagnostics generation_diagnostics(const std::string& dir, const std::string& prefix,
                                             const RunConfig& config);

}  // namespace vzero
