// Fuzz target: variant TOML. Bad text must throw vzero::Error. Text that
// parse_variant accepts must make a game whose start position (if its FEN is
// accepted) keeps the invariants of fuzz_util.h (not the strict ones), along
// a few plies chosen by the text's hash.
#include "fuzz/fuzz_util.h"
#include "game/builtin/games.h"
#include "game/zobrist.h"

using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Variant v;
  std::unique_ptr<Game> game;
  std::unique_ptr<GameState> s;
  try {
    v = parse_variant(text, "fuzz");
    game = make_game(v);
    s = game->new_state();
  } catch (const Error&) {
    return 0;
  }
  uint64_t rng = v.hash;
  for (int ply = 0; ply < 4 && !s->is_terminal(); ++ply) {
    fuzz::check_state(*s, false);
    const auto& legal = s->legal_actions();
    s->apply(legal[splitmix64(rng) % legal.size()]);
  }
  fuzz::check_state(*s, false);
  return 0;
}
