// The action space of attrition: placements and knight moves, numbered and named.
#include <string>

#include "game/attrition/attrition_rules.h"
#include "game/attrition/attrition_tables.h"

namespace vzero {

using namespace attrition;

int AttritionRules::move_from(int action) { return tables().from[action - kAttritionPlacements]; }
int AttritionRules::move_to(int action) { return tables().to[action - kAttritionPlacements]; }
int AttritionRules::move_action(int from, int to) { return tables().action[from][to]; }

std::string AttritionRules::square_name(int sq) {
  return std::string(1, char('a' + sq % 8)) + char('1' + sq / 8);
}

std::string AttritionRules::action_name(int action) {
  if (action < kAttritionPlacements) return "N@" + square_name(action);
  return square_name(move_from(action)) + square_name(move_to(action));
}

int AttritionRules::action_of_name(const std::string& t) {
  const auto square = [&](size_t i) {
    return t[i] >= 'a' && t[i] <= 'h' && t[i + 1] >= '1' && t[i + 1] <= '8'
               ? (t[i + 1] - '1') * 8 + (t[i] - 'a')
               : -1;
  };
  if (t.size() != 4) return -1;
  if (t[0] == 'N' && t[1] == '@') return square(2);
  const int from = square(0), to = square(2);
  return from < 0 || to < 0 ? -1 : move_action(from, to);
}

}  // namespace vzero
