// Ascending the Throne: one test per rule (rules/ascending.md).
#include <catch.hpp>

#include "game/builtin/games.h"
#include "tests/rules_test_util.h"
#include "util/error.h"

using namespace vzero::testing;

namespace {

std::unique_ptr<vzero::GameState> at(const std::string& fen = "") {
  return state_of("ascending", fen);
}

}  // namespace

TEST_CASE("AT-1 no check rule: a king may walk into attack, and mate does not end the game",
          "[ascending]") {
  const std::string fen = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1";
  CHECK_NOTHROW(at(fen)->text_to_action("e1d1"));
  CHECK_THROWS_AS(vzero::game_by_id("chess").new_state(fen)->text_to_action("e1d1"), vzero::Error);
  auto s = at();
  play(*s, {"f2f3", "e7e5", "g2g4", "d8h4"});  // fool's mate in chess
  CHECK_FALSE(s->is_terminal());
  CHECK(s->current_player() == 0);
}

TEST_CASE("AT-2 a lone successor ascends at once; the capturer stays", "[ascending]") {
  auto s = at("4k3/8/8/8/8/8/8/R3K2q b - - 0 1");
  play(*s, {"h1e1"});
  CHECK(s->fen() == "4k3/8/8/8/8/8/8/K3q3 w - - 0 2");
  CHECK(s->current_player() == 0);
  s->undo();
  CHECK(s->fen() == "4k3/8/8/8/8/8/8/R3K2q b - - 0 1");
}

TEST_CASE("AT-3 two candidates: the victim names the successor as an action", "[ascending]") {
  auto s = at("4k3/8/8/8/8/8/4q3/R3K2R b - - 0 1");
  play(*s, {"e2e1"});
  CHECK(texts(*s) == std::vector<std::string>{"K@a1", "K@h1"});
  CHECK(s->current_player() == 0);
  CHECK(s->fen() == "4k3/8/8/8/8/8/8/R3q2R w - - 0 2 succession");
  CHECK(at(s->fen())->hash() == s->hash());
  play(*s, {"K@h1"});
  CHECK(s->fen() == "4k3/8/8/8/8/8/8/R3q2K w - - 0 2");
  CHECK(s->current_player() == 0);  // the victim moves next, after his choice
  s->undo();
  CHECK(s->perft(1) == 2);
}

TEST_CASE("AT-2a castling rights go with the king; a pawn promotes as it captures the king",
          "[ascending]") {
  auto s = at("r3k2r/8/8/8/8/8/4q3/R3K2R b KQkq - 0 1");
  play(*s, {"e2e1"});
  CHECK(s->fen() == "r3k2r/8/8/8/8/8/8/R3q2R w kq - 0 2 succession");
  CHECK(fen_after(at("3k4/8/8/8/8/8/1p6/R1K5 b - - 0 1"), {"b2c1n"}) ==
        "3k4/8/8/8/8/8/8/K1n5 w - - 0 2");
}

TEST_CASE("AT-4 pawns never ascend; a promoted piece counts at once", "[ascending]") {
  auto s = at("4k3/8/8/8/8/8/PP6/N3K2q b - - 0 1");
  play(*s, {"h1e1"});
  CHECK(s->fen() == "4k3/8/8/8/8/8/PP6/K3q3 w - - 0 2");
  auto promoted = at("4k3/P7/8/8/8/8/8/N3K2q w - - 0 1");
  play(*promoted, {"a7a8q", "h1e1"});
  CHECK(promoted->fen() ==
        "K3k3/8/8/8/8/8/8/N3q3 w - - 0 2");  // the new queen ascends, not the knight
}

TEST_CASE("AT-5 a king captured with nothing to ascend loses", "[ascending]") {
  auto s = at("4k3/8/8/8/8/8/PP6/4K2q b - - 0 1");
  play(*s, {"h1e1"});
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "king-captured");
  CHECK(s->returns() == std::vector<double>{-1.0, 1.0});
}

TEST_CASE("AT-6 castling only with the original king, under the FIDE conditions", "[ascending]") {
  auto s = at("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  const std::vector<std::string> moves = texts(*s);
  CHECK(std::count(moves.begin(), moves.end(), "e1c1") == 1);
  CHECK(std::count(moves.begin(), moves.end(), "e1g1") == 0);  // f1 attacked
  CHECK(std::count(moves.begin(), moves.end(), "e1f1") == 1);  // walking into attack is fine
  // An ascended king stands where castling rights cannot be claimed.
  CHECK_THROWS_AS(at("4k3/8/8/8/8/8/8/K6R w K - 0 1"), vzero::Error);
}

TEST_CASE("AT-7 no legal move is a stalemate draw", "[ascending]") {
  auto s = at("knb5/pb1p4/p1pP4/P1P5/8/8/8/7K b - - 0 1");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "stalemate");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
}

TEST_CASE("AT-8 perft from the start", "[ascending][perft]") {
  const uint64_t expected[] = {20, 400, 8902, 197742, 4897256};
  for (int d = 1; d <= 5; ++d) CHECK(at()->perft(d) == expected[d - 1]);
}
