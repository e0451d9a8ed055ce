#pragma once
// The closed loop, generation after generation: self-play with the current
// model -> train -> the gate's match of the new model against the current
// one (training/gate.h), matches against generation 0, the baseline and the
// anchors (training/arenas.h) -> the promoted model plays the next
// self-play. The run folder holds config.toml (resolved), shards/, models/,
// records/, metrics.csv, ratings.csv and curve.png; started again on the
// same folder, it goes on where it stopped.
#include <iosfwd>
#include <string>

#include "selfplay/selfplay.h"
#include "training/run_config.h"
#include "training/run_dir.h"

namespace vzero {

// The generation a shard's games are labelled with: 0 for network-free games (the bootstrap,
// whose share of a window [train] bootstrap_share caps), else the playing model's, at least 1.
int shard_generation(bool network, int model_generation);

// The self-play of the loop with model generation current (bootstrap: the
// network-free evaluator at loop.bootstrap_games and loop.bootstrap_visits):
// game, settings, search, shard identity, seed; the caller adds the folder,
// the ids and, without bootstrap, the evaluator.
SelfplayJob generation_job(const Game& game, const RunConfig& config, int current, bool bootstrap);

// Runs config.loop.generations generations (0: until killed) in the run's
// folder, holding its lock, going on where it stopped; progress goes to the log.
void run_loop(const RunContext& run);

}  // namespace vzero
