// Fuzz target: FEN and action text of every built-in variant. The first byte
// picks the variant (index into game_ids(), modulo), the first line is a FEN
// (empty: the start position), each further line an action in the rules
// notation applied when legal. Bad text must throw vzero::Error; whatever is
// accepted must keep the invariants of fuzz_util.h. The seeds (one per
// variant and a few positions of random games) name variants by index, so a
// new variant shifts the ones after it: the seeds stay valid inputs.
#include "fuzz/fuzz_util.h"
#include "game/builtin/games.h"

using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> ids = game_ids();
  if (size < 1 || size > 1024) return 0;
  const Game& game = game_by_id(ids[data[0] % ids.size()]);
  const std::vector<std::string> lines = fuzz::lines_of(data + 1, size - 1, 9);
  std::unique_ptr<GameState> s;
  try {
    s = game.new_state(lines[0]);
  } catch (const Error&) {
    return 0;
  }
  const std::string start = s->fen();
  fuzz::check_state(*s);
  int applied = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    int action = -1;
    try {
      action = s->text_to_action(lines[i]);
    } catch (const Error&) {
      continue;
    }
    const auto& legal = s->legal_actions();
    fuzz::require(std::binary_search(legal.begin(), legal.end(), action),
                  "text_to_action gives a legal action");
    s->apply(action);
    ++applied;
    fuzz::check_state(*s);
  }
  for (; applied > 0; --applied) s->undo();
  fuzz::require(s->fen() == start, "undoing every action restores the start");
  return 0;
}
