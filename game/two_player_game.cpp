// The legal-move cache of the two-player board games (two_player_game.h).
#include "game/two_player_game.h"

#include <algorithm>

#include "util/error.h"

namespace vzero {

int LegalMoves::index_of(int action) const {
  const auto it = std::lower_bound(actions.begin(), actions.end(), action);
  return it == actions.end() || *it != action ? -1 : int(it - actions.begin());
}

std::vector<double> LegalMoves::returns() const {
  std::vector<double> out(2, 0.0);
  if (result == 0 || result == 1) {
    out[size_t(result)] = 1.0;
    out[size_t(1 - result)] = -1.0;
  }
  return out;
}

void LegalMoves::check_action_syntax(const std::string& text) {
  if (!is_action_syntax(text)) throw Error("malformed action '" + text + "'");
}

void LegalMoves::throw_illegal(int action, const std::string& fen) {
  throw Error("illegal action " + std::to_string(action) + " in " + fen);
}

void LegalMoves::throw_illegal(const std::string& text, const std::string& fen) {
  throw Error("illegal action '" + text + "' in position " + fen);
}

}  // namespace vzero
