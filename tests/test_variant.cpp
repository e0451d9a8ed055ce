// Variant files: typed keys, unknown keys rejected, Betza parsing.
#include <catch.hpp>

#include "game/builtin/games.h"
#include "game/variant.h"
#include "util/error.h"

TEST_CASE("variant files reject unknown keys and bad values", "[variant]") {
  const std::string base =
      "id = \"x\"\nstart = \"k7/8/8/8/8/8/8/K7 w - - 0 1\"\n"
      "[[piece]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
  CHECK_NOTHROW(vzero::parse_variant(base, "test"));
  CHECK_THROWS_AS(vzero::parse_variant(base + "colour = 3\n", "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant("files = 40\n" + base, "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant("files = \"8\"\n" + base, "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant("id = ", "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant(base + "[[piece]]\nletter = \"k\"\nbetza = \"K\"\n", "test"),
                  vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant(base + "[[piece]]\nletter = \"q\"\nbetza = \"Y\"\n", "test"),
                  vzero::Error);
}

TEST_CASE("Betza atoms and modifiers", "[variant]") {
  const vzero::PieceMoves knight = vzero::parse_betza("N");
  CHECK(knight.quiet_leaps.size() == 8);
  CHECK(knight.capture_leaps.size() == 8);
  const vzero::PieceMoves pawn = vzero::parse_betza("mfWcfF");
  REQUIRE(pawn.quiet_leaps.size() == 1);
  CHECK(pawn.quiet_leaps[0].dy == 1);
  CHECK(pawn.capture_leaps.size() == 2);
  const vzero::PieceMoves queen = vzero::parse_betza("Q");
  CHECK(queen.quiet_slides == 0xFF);
  CHECK(vzero::parse_betza("pR").hop_slides == vzero::kOrthogonal);
  CHECK(vzero::parse_betza("fR").quiet_slides == 1);         // north only
  CHECK(vzero::parse_betza("WfF").quiet_leaps.size() == 6);  // gold
  CHECK(vzero::parse_betza("FfW").quiet_leaps.size() == 5);  // silver
  CHECK(vzero::parse_betza("C").quiet_leaps.size() == 8);    // camel
  CHECK_THROWS_AS(vzero::parse_betza("x"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_betza("NN"), vzero::Error);
}

TEST_CASE("action spaces are compact and fixed", "[variant]") {
  const vzero::Game& chess = vzero::game_by_id("chess");
  CHECK(chess.num_actions() < 2500);
  const vzero::Game& grand = vzero::game_by_id("grand");
  CHECK(grand.num_actions() < 6000);
  CHECK_THROWS_AS(vzero::game_by_id("nonesuch"), vzero::Error);
}
