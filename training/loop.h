#pragma once
// The closed loop, generation after generation: self-play with the current
// model -> train -> arena of the new model against the current one (gated
// or always promoted), against generation 0 and against a fixed search
// baseline -> the promoted model plays the next self-play. The run folder
// holds config.toml (resolved), shards/, models/, metrics.csv and curve.png;
// started again on the same folder, it goes on where it stopped.
#include <iosfwd>
#include <string>

#include "mcts/arena.h"
#include "mcts/match_group.h"
#include "selfplay/selfplay.h"
#include "training/run_config.h"

namespace vzero {

// The self-play of the loop with model generation current (bootstrap: the
// network-free evaluator at loop.bootstrap_games and loop.bootstrap_visits):
// game, settings, search, shard identity, seed; the caller adds the folder,
// the ids and, without bootstrap, the evaluator.
SelfplayJob generation_job(const Game& game, const RunConfig& config, int current, bool bootstrap);
// Scores player a against b with the loop's arena settings (light root noise, moves by most visits);
// with a group (the gate's MPI ranks), each rank plays a share and every rank gets the whole result.
ArenaResult loop_match(const Game& game, const RunConfig& config, const std::string& a, const std::string& b,
                       int games, uint64_t seed, MatchGroup* group = nullptr);
// The player of a checkpoint searching visits per move: "net:model=PATH,sims=N".
std::string net_spec(const std::string& path, int visits);

// Runs config.loop.generations generations (0: until killed) in run_dir; progress goes to log.
void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log);

}  // namespace vzero
