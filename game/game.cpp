// is_action_syntax: the shape of an action in the rules notation; game_end: how a game ended
// (game.h).
#include "game/game.h"

#include <cctype>

#include "util/error.h"

namespace vzero {

bool is_action_syntax(const std::string& t) {
  const auto square_at = [&](size_t& i) {
    if (i >= t.size() || t[i] < 'a' || t[i] > 'z') return false;
    ++i;
    const size_t start = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) && i - start < 2) ++i;
    return i > start;
  };
  size_t i = 0;
  if (t.size() >= 2 && std::isupper(static_cast<unsigned char>(t[0])) && t[1] == '@') {
    i = 2;
    return square_at(i) && i == t.size();
  }
  if (!square_at(i) || !square_at(i)) return false;
  if (i < t.size() && (std::islower(static_cast<unsigned char>(t[i])) || t[i] == '+'))
    ++i;  // e7e8q, b8h2+
  return i == t.size();
}

GameEnd game_end(const GameState& state) {
  if (state.is_terminal()) return {state.returns(), state.end_reason()};
  check(state.dead_draw(), "game_end: the game goes on");
  return {std::vector<double>(size_t(state.num_players()), 0.0), "dead-position"};
}

}  // namespace vzero
