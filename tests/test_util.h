#pragma once
// Small helpers shared by the rule tests.
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero::testing {

// The legal actions of a state as text, in action order.
inline std::vector<std::string> texts(const GameState& s) {
  std::vector<std::string> out;
  for (int a : s.legal_actions()) out.push_back(s.action_to_text(a));
  return out;
}

// Applies actions given in the rules notation.
inline void play(GameState& s, std::initializer_list<const char*> moves) {
  for (const char* m : moves) s.apply(s.text_to_action(m));
}

}  // namespace vzero::testing
