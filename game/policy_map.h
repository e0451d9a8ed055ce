#pragma once
// Where a convolutional policy head reads each action's logit: its output is
// `planes` planes over the board, and action a's logit is plane[a] at square
// square[a] (rank * files + file, a1 first, the squares of the encoding).
// Distinct actions have distinct (plane, square) pairs.
#include <optional>
#include <string>
#include <vector>

namespace vzero {

class Game;

struct PolicyMap {
  int planes = 0;
  std::vector<int> plane, square;  // per action
};

// The map of an action space whose texts are moves "<from><to>[suffix]"
// (e7e8q, b8h2+) or drops "<piece>@<square>" (N@d4): a move's plane is that
// of its (file step, rank step, suffix) at its from square, a drop's that of
// its piece at its target square; planes are numbered in order of first use
// over the actions. nullopt when some text has neither shape or names a
// square off the variant's board.
std::optional<PolicyMap> policy_map_of_texts(const Game& game);

// Promises an empty string when map is a valid map of game's action space:
// one entry per action, planes and squares in range, no (plane, square) pair
// used twice; else what is wrong.
std::string policy_map_problem(const Game& game, const PolicyMap& map);

}  // namespace vzero
