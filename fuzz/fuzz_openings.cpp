// Fuzz target: openings files (mcts/openings.h). The first byte picks the
// variant (index into game_ids(), modulo), the rest is the file. read_openings
// must accept it or throw vzero::Error; every opening it accepts must play
// to a position that goes on, and its text() must read back to the same
// opening (matches write openings in their records and files).
#include <fstream>

#include "fuzz/fuzz_util.h"
#include "game/builtin/games.h"
#include "match/openings.h"

using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = fuzz::temp_file("openings.txt");
  static const std::vector<std::string> ids = game_ids();
  if (size < 1 || size > 4096) return 0;
  const Game& game = game_by_id(ids[data[0] % ids.size()]);
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
  std::vector<Opening> openings;
  try {
    openings = read_openings(game, path);
  } catch (const Error&) {
    return 0;
  }
  for (const Opening& o : openings) {
    const std::unique_ptr<GameState> end = play_opening(game, o);
    fuzz::require(!end->is_terminal(), "an accepted opening leaves a game to play");
    try {
      fuzz::require(parse_opening(game, o.text()) == o, "an opening's text reads back to it");
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: '%s' rejected: %s\n", o.text().c_str(), e.what());
      fuzz::require(false, "an opening's text reads back");
    }
  }
  return 0;
}
