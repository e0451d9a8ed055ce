#pragma once
// The exact answer to attrition's separated endgame (2 players, one knight each): once no square
// either knight can ever reach is a knight leap from a square the other can reach, the knights
// never meet again and each just walks its own region; the seat to act wins iff its longest knight
// path is longer than the other's (it moves first, so it runs out first on a tie).
#include <cstdint>
#include <optional>

#include "game/attrition/attrition_rules.h"

namespace vzero {

// Knight paths longer than a budget of search nodes (5,000) allows are left unsolved.
// The knights' longest paths in leaps: the shorter exactly, the longer at least as given (the
// search stops once it has found enough).
struct SeparatedPaths {
  int to_act = 0;  // the knight of the seat to act
  int other = 0;   // the other seat's knight
  // The seat that wins with best play: the one to act only with the longer path.
  int winner(int seat_to_act) const { return to_act > other ? seat_to_act : 1 - seat_to_act; }
};

// The number of knight leaps in the longest path from sq over the squares of free (sq itself
// excluded), each used at most once; nullopt when it is beyond the budget.
std::optional<int> attrition_longest_path(int sq, uint64_t free);

// Both knights' longest paths in a 2-player, one-knight position whose knights are separated (see
// above), where both are within the budget; nullopt otherwise (regions that touch, a knight not
// placed, a game over, a variant with more seats or knights).
std::optional<SeparatedPaths> attrition_separated_paths(const AttritionRules& rules,
                                                        const AttritionPos& p);

}  // namespace vzero
