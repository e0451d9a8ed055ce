#pragma once
// The gate: whether a candidate model replaces the promoted one. The loop
// and `vzero gate` both judge through gate_candidate, so that they promote
// alike. loop.gate chooses the rule:
//   always  promote every candidate (the match, if any, is only measured);
//   score   promote when the candidate scores at least loop.gate_threshold
//           over loop.arena_games games;
//   sprt    play a GSPRT (H0 elo = sprt_elo0 against H1 elo = sprt_elo1,
//           normalised Elo, sprt_alpha, sprt_beta) for at most arena_games
//           games, judged on game pairs; promote on H1, keep the current
//           model on H0 and when the games run out undecided.
// No LibTorch.
#include <optional>
#include <string>

#include "game/game.h"
#include "match/arena.h"
#include "match/match_group.h"
#include "training/run_config.h"
#include "training/run_dir.h"

namespace vzero {

struct GateOutcome {
  ArenaResult result;  // the candidate (A) against the current model (no games: arena_games 0)
  bool promote = false;
};

// The SPRT of the gate's match (gate = sprt), else none.
std::optional<SprtConfig> gate_sprt(const LoopConfig& loop);
// Whether loop.gate promotes a candidate that reached result (the rule above).
bool gate_promotes(const LoopConfig& loop, const ArenaResult& result);
// Plays generation `candidate` against generation `current` of the run
// (match "arena_prev", resumed from the records) and judges it; with a group
// (MPI ranks), every rank plays its share and gets the same outcome.
// With gate = "always" and measure false (loop.measure_every), no match is played.
GateOutcome gate_candidate(const RunContext& run, int candidate, int current,
                           MatchGroup* group = nullptr, bool measure = true);

}  // namespace vzero
