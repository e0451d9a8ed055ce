// Regressions found by the fuzz targets of fuzz/ (game core; the checkpoint
// ones live in test_net.cpp): each input that crashed, made into a test.
#include <catch.hpp>
#include <optional>

#include "game/builtin/games.h"
#include "game/variant.h"
#include "util/error.h"

namespace {

// text with its first occurrence of from replaced by to.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("fuzz: a variant living where a dead one lived gets its own geometry",
          "[fuzz][variant]") {
  // fuzz_variant: Geometry::of cached the board geometry by the variant's
  // address alone, so a 7-file variant parsed into the storage of an 8-file
  // one got the 8-file geometry (a heap overflow in ActionMap under ASan,
  // wrong moves without it).
  const std::string eight = vzero::builtin_variant("chess").source;
  std::string seven = replaced(eight, "files = 8", "files = 7");
  seven = replaced(seven, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                   "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w -");
  std::optional<vzero::Variant> slot;
  slot.emplace(vzero::parse_variant(eight, "eight"));
  {
    const auto game = vzero::make_game(*slot);
    CHECK(game->new_state()->perft(2) == 400);
  }
  slot.reset();
  slot.emplace(vzero::parse_variant(seven, "seven"));  // the same address
  const auto reused = vzero::make_game(*slot);
  const vzero::Variant elsewhere = vzero::parse_variant(seven, "seven");
  const auto fresh = vzero::make_game(elsewhere);
  CHECK(reused->num_actions() == fresh->num_actions());
  CHECK(reused->new_state()->perft(3) == fresh->new_state()->perft(3));
  const auto start = reused->new_state();
  for (int a : start->legal_actions()) CHECK(reused->action_text(a).find('h') == std::string::npos);
}
