#pragma once
// The bootstrap generation played by a player spec instead of self-play
// (`loop.bootstrap_player`, e.g. "uci:path=fairy-stockfish,depth=2"): the
// player plays both seats; each game first plays loop.bootstrap_random_plies
// uniformly random plies (not recorded) so that a deterministic engine plays
// varied games; every position after them is a sample whose policy target is
// the action played and whose root value is the game's result (the player
// gives no search value). Written to shards like self-play, under the same
// game ids, so a killed run plays only the missing games. No LibTorch.
#include <cstdint>
#include <vector>

#include "selfplay/selfplay.h"
#include "training/run_config.h"

namespace vzero {

// Plays job.indices (job.game, job.selfplay.max_plies, job.meta, out_dir,
// file_prefix, first_game_id and seed as in self-play) with the player of
// spec; throws Error when the spec is bad or the player fails.
SelfplayStats play_bootstrap_games(const SelfplayJob& job, const std::string& spec,
                                   int random_plies, const SearchConfig& search);

}  // namespace vzero
