// FEN parsing: malformed and hostile input is rejected with a clear Error.
#include <catch.hpp>
#include <sstream>
#include <tuple>

#include "game/builtin/games.h"
#include "util/error.h"

namespace {

void rejects(const char* variant, const std::string& fen) {
  INFO(variant << " '" << fen << "'");
  CHECK_THROWS_AS(vzero::game_by_id(variant).new_state(fen.empty() ? " " : fen), vzero::Error);
}

}  // namespace

TEST_CASE("FEN: the start positions round-trip", "[fen]") {
  CHECK(vzero::game_by_id("chess").new_state()->fen() ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  CHECK(vzero::game_by_id("grand").new_state()->fen() ==
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1");
}

TEST_CASE("FEN: malformed and hostile text is rejected", "[fen]") {
  rejects("chess", "");
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");             // 7 ranks
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1");  // 9 ranks
  rejects("chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");     // short rank
  rejects("chess", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");   // long rank
  rejects("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");    // 9 empties
  rejects("chess", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");   // zero count
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");    // unknown letter
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1");    // grand letter
  rejects("chess", "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w kq - 0 1");   // two white kings
  rejects("chess", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");     // no black king
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");   // side
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1");  // castling twice
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1");   // castling letter
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1");  // K right, no rook
  rejects("chess",
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1");  // ep w/o double step
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1");  // ep not a square
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -3 1");  // negative clock
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1");
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999");
  rejects("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra");
  rejects("chess", "rnbqkbnr/pppppppp/99999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
  rejects("chess", "P7/8/8/8/8/8/8/k6K w - - 0 1");  // pawn on rank 8
  rejects("chess", "4k3/8/8/8/8/8/8/4K2R w - - 0 1 \xff\xfe");
  rejects("chess", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1");  // side not to move in check
  rejects("chess", "////////");
  rejects("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R9R w - - 0 1");
  rejects("grand", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");  // chess board
  rejects("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w KQ - 0 1");
  rejects("grand", "4P5/4k5/10/10/10/10/10/10/4K5/10 w - - 0 1");  // pawn on the 10th rank
}

TEST_CASE("FEN: a rejected FEN leaves nothing half set", "[fen]") {
  auto state = vzero::game_by_id("chess").new_state();
  CHECK_THROWS_AS(vzero::game_by_id("chess").new_state("8/8/8 w - - 0 1"), vzero::Error);
  CHECK(state->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST_CASE("FEN: optional counters and en passant normalisation", "[fen]") {
  auto s = vzero::game_by_id("chess").new_state("4k3/8/8/8/8/8/8/4K3 w - -");
  CHECK(s->fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  // After 1. e4 no black pawn can take en passant: the square is not kept.
  auto e4 = vzero::game_by_id("chess").new_state(
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  CHECK(e4->fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST_CASE("FEN: the no-progress clock is the halfmove field, reset by captures and pawn moves",
          "[fen]") {
  // The chess core (chess, 007) and the fairy core (grand, Los Alamos) keep the clock; shogi,
  // without the fifty-move rule, reports none.
  for (const auto& [variant, fen, quiet, reset] :
       {std::tuple<const char*, const char*, const char*, const char*>{
            "chess", "4k3/8/8/8/8/8/4P3/4K1N1 w - - 37 60", "g1f3", "e2e4"},
        {"007", "4k3/8/8/8/8/8/4P3/4K1N1 w - - 37 60", "g1f3", "e2e4"},
        {"losalamos", "2k3/6/6/6/1P4/2K1N1 w - - 37 60", "e1d3", "b2b3"}}) {
    INFO(variant);
    auto s = vzero::game_by_id(variant).new_state(fen);
    CHECK(s->no_progress_plies() == 37);
    s->apply(s->text_to_action(quiet));
    CHECK(s->no_progress_plies() == 38);
    s->undo();
    s->apply(s->text_to_action(reset));
    CHECK(s->no_progress_plies() == 0);
  }
  CHECK(vzero::game_by_id("grand").new_state()->no_progress_plies() == 0);
  auto shogi = vzero::game_by_id("shogi").new_state();
  shogi->apply(shogi->legal_actions().front());
  CHECK(shogi->no_progress_plies() == 0);
}

TEST_CASE("actions: malformed and illegal text is rejected", "[actions]") {
  auto s = vzero::game_by_id("chess").new_state();
  CHECK(s->action_to_text(s->text_to_action("e2e4")) == "e2e4");
  for (const char* bad :
       {"", "e2", "e2e9x", "E2E4", "e2-e4", "Q@", "e2e4qq", "i1i2", "e2e5", "e7e5", "e1g1"})
    CHECK_THROWS_AS(s->text_to_action(bad), vzero::Error);
}

TEST_CASE("Los Alamos: move texts and FEN as fairy-stockfish writes them", "[fen][losalamos]") {
  const vzero::Game& g = vzero::game_by_id("losalamos");
  auto s = g.new_state();
  CHECK(s->fen() == "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1");
  // A random game's moves as fairy-stockfish takes them (UCI_Variant losalamos),
  // with a promotion to a knight and a check; its FEN after them (`d`).
  std::istringstream moves(
      "f2f3 e6d4 e1d3 d4e6 f1e1 c5c4 d3b4 c4c3 e1f1 c3d2 f1f2 c6c2 d1c2 d2c1n b2b3 c1b3 f2f1 b3d4 "
      "c2d2 d4b3");
  for (std::string m; moves >> m;) s->apply(s->text_to_action(m));
  CHECK(s->fen() == "rn1knr/pp1ppp/1N4/1n3P/P2KP1/RN3R w - - 4 11");
  // No double step, no castling, no bishop; promotion to queen, rook or knight only.
  auto start = g.new_state();
  CHECK_THROWS_AS(start->text_to_action("a2a4"), vzero::Error);
  auto promo = g.new_state("4k1/1P4/6/6/6/2K3 w - - 0 1");
  for (const char* m : {"b5b6q", "b5b6r", "b5b6n"}) CHECK_NOTHROW(promo->text_to_action(m));
  for (const char* m : {"b5b6", "b5b6b", "b5b6k"})
    CHECK_THROWS_AS(promo->text_to_action(m), vzero::Error);
  rejects("losalamos", "rnbknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1");  // no bishop in this variant
  rejects("losalamos", "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w KQkq - 0 1");  // no castling
  rejects("losalamos", "rnqknr/pppp1p/6/4p1/PPPPPP/RNQKNR w - e4 0 2");  // no en passant
}
