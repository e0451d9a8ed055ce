#pragma once
// A small exact proof search for two-player games that end in a win or a loss: depth-first
// alpha-beta over win / loss / unknown, whose leaves are what the variant knows exactly (the end
// of the game, GameState::winning_action, GameState::solved_returns), under a node budget, trying
// first the actions that leave the opponent the fewest replies. Meant for endgames a few plies from
// a position the variant solves (attrition's knights about to part), where a small search with
// network values sees every line as about equally good.
#include <cstdint>

#include "game/game.h"

namespace vzero {

struct Proof {
  int winner = -1;    // the seat that wins with best play; -1 when not proven within the budget
  int action = -1;    // for a proven win of the seat to act: an action that keeps it; else -1
  int64_t nodes = 0;  // positions visited
};

// Proves who wins from state (2 players; draws are never proven) within `budget` positions;
// state is left as it was.
Proof prove(GameState& state, int64_t budget);

}  // namespace vzero
