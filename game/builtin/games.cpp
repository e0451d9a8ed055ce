// The games built into vzero: each variant's rules core chosen by its hook.
#include "game/builtin/games.h"

#include <map>
#include <mutex>

#include "game/attrition/attrition_game.h"
#include "game/chess/chess_game.h"
#include "game/fairy/fairy_game.h"

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

}  // namespace vzero
