// FIDE chess and Grand Chess rules (rules/chess.md, rules/grand.md).
#include <algorithm>
#include <catch.hpp>

#include "game/builtin/games.h"
#include "tests/test_util.h"
#include "util/error.h"

using vzero::testing::texts;

namespace {

std::unique_ptr<vzero::GameState> grand(const std::string& fen = "") {
  return vzero::game_by_id("grand").new_state(fen);
}

int count_prefix(const std::vector<std::string>& moves, const std::string& prefix) {
  return int(std::count_if(moves.begin(), moves.end(),
                           [&](const std::string& m) { return m.rfind(prefix, 0) == 0; }));
}

}  // namespace

TEST_CASE("CH-1 chess starts from the FIDE position", "[chess]") {
  CHECK(vzero::game_by_id("chess").new_state()->fen() ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST_CASE("GR-1 GR-2 a 10x10 board and Freeling's setup", "[grand]") {
  CHECK(grand()->fen() ==
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1");
  CHECK(grand()->text_to_action("j3j4") >= 0);
}

TEST_CASE("GR-3 marshal = rook + knight, cardinal = bishop + knight", "[grand]") {
  // 18 rook + 8 knight moves, plus 3 king moves.
  CHECK(grand("9k/10/10/10/4C5/10/10/10/10/K9 w - - 0 1")->perft(1) == 29);
  // 17 bishop + 8 knight moves, plus 3 king moves.
  CHECK(grand("9k/10/10/10/4A5/10/10/10/10/K9 w - - 0 1")->perft(1) == 28);
}

TEST_CASE("GR-4 pawns double-step from their start rank; en passant as in chess", "[grand]") {
  auto s = grand();
  CHECK(count_prefix(texts(*s), "e3") == 2);  // e3e4, e3e5
  auto ep = grand("r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3");
  const std::vector<std::string> moves = texts(*ep);
  CHECK(std::count(moves.begin(), moves.end(), "f6e7") == 1);
}

TEST_CASE("GR-5 promotion: optional on ranks 8-9, compulsory on 10, only to lost pieces",
          "[grand]") {
  // White has lost everything but the king: all six types are available.
  auto s = grand("4k5/10/6P3/10/10/10/10/10/4K5/10 w - - 0 1");
  CHECK(count_prefix(texts(*s), "g8g9") == 7);  // stay a pawn, or six promotions
  auto last = grand("4k5/6P3/10/10/10/10/10/10/4K5/10 w - - 0 1");
  CHECK(count_prefix(texts(*last), "g9g10") == 6);  // must promote
  CHECK_THROWS_AS(last->text_to_action("g9g10"), vzero::Error);
  // A full army except one rook: only the rook comes back.
  auto rook = grand("4k5/10/6P3/10/10/10/10/10/1NBQKCABN1/R9 w - - 0 1");
  const std::vector<std::string> moves = texts(*rook);
  CHECK(count_prefix(moves, "g8g9") == 2);
  CHECK(std::count(moves.begin(), moves.end(), "g8g9r") == 1);
}

TEST_CASE(
    "GR-6 a pawn with nothing to promote to may not reach the 10th rank, yet gives check there",
    "[grand]") {
  auto s = grand("4k5/P9/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1");
  CHECK(count_prefix(texts(*s), "a9") == 0);
  // The same pawn attacks b10: with White to move, Black would be in check.
  CHECK_THROWS_AS(grand("1k8/P9/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1"), vzero::Error);
}

TEST_CASE("GR-7 no castling; stalemate is a draw", "[grand]") {
  CHECK_THROWS_AS(
      grand("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w KQkq - 0 1"),
      vzero::Error);
  auto s = grand("k9/2Q7/10/10/10/10/10/10/10/9K b - - 0 1");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "stalemate");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
}
