#include "game/game.h"

#include <cctype>
#include <map>
#include <mutex>

#include "game/attrition_game.h"
#include "game/chess_game.h"
#include "game/fairy_game.h"

namespace vzero {

std::unique_ptr<Game> make_game(const Variant& v) {
  if (v.hook == "attrition") return make_attrition_game(v);
  if (v.hook == "fairy") return make_fairy_game(v);
  return std::make_unique<ChessGame>(v);
}

const Game& game_by_id(const std::string& id) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Game>> games;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = games[id];
  if (!slot) {
    try {
      slot = make_game(builtin_variant(id));
    } catch (...) {
      games.erase(id);
      throw;
    }
  }
  return *slot;
}

std::vector<std::string> game_ids() { return builtin_variant_ids(); }

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

}  // namespace vzero
