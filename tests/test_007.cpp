// 007 Chess and 007-detente: one test per rule (rules/007.md).
#include <algorithm>
#include <catch.hpp>
#include <random>

#include "game/builtin/games.h"
#include "game/chess/chess_game.h"
#include "tests/test_util.h"
#include "util/error.h"

using vzero::testing::play;
using vzero::testing::texts;

namespace {

std::unique_ptr<vzero::GameState> state(const char* variant, const std::string& fen = "") {
  return vzero::game_by_id(variant).new_state(fen);
}

const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

}  // namespace

TEST_CASE("OO-1 three moves a turn: the chooser differs from the colour to move", "[007]") {
  auto s = state("007");
  const char* moves[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3"};
  const int chooser[] = {0, 0, 0, 1, 1, 1, 0};
  for (int i = 0; i < 7; ++i) {
    CHECK(s->current_player() == chooser[i]);
    play(*s, {moves[i]});
  }
  CHECK(s->fen() == "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 4 turn:w2");
}

TEST_CASE("OO-2 every single move is chess-legal for the colour moved", "[007]") {
  // Move 2 (a black piece, chosen by White) must answer the check given on move 1.
  const std::string fen = "rnbqkbnr/ppp2ppp/3p4/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3";
  auto s = state("007", fen);
  play(*s, {"h5f7"});
  auto chess = state("chess", fen);
  play(*chess, {"h5f7"});
  CHECK(texts(*s) == texts(*chess));
  CHECK(texts(*s) == std::vector<std::string>{"e8f7"});
  CHECK(s->current_player() == 0);
}

TEST_CASE("OO-3 pawns keep their direction; the chooser picks the promotion", "[007]") {
  auto s = state("007", "4k3/8/8/8/8/8/1p6/4K3 b - - 0 1 turn:w2");
  CHECK(s->current_player() == 0);
  const std::vector<std::string> moves = texts(*s);
  for (const char* m : {"b2b1q", "b2b1r", "b2b1b", "b2b1n"})
    CHECK(std::count(moves.begin(), moves.end(), m) == 1);
}

TEST_CASE("OO-4 a colour with no move and not in check: stalemate draw, on any move", "[007]") {
  auto s = state("007", "k7/8/1Q6/8/8/8/8/7K b - - 0 1 turn:w2");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "stalemate");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
}

TEST_CASE("OO-5 the owner of the mated colour loses, also by self-mate on move 2", "[007]") {
  // White chooses move 2 and mates his own king with Black's queen: White loses.
  auto s = state("007", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2 turn:w2");
  play(*s, {"d8h4"});
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "checkmate");
  CHECK(s->returns() == std::vector<double>{-1.0, 1.0});
  // Mate on move 1 of White's turn wins for White.
  auto w = state("007", "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 turn:w1");
  play(*w, {"d1h5"});
  CHECK(w->returns() == std::vector<double>{1.0, -1.0});
}

TEST_CASE("OO-6 repetition counts single moves and includes the turn phase", "[007]") {
  auto s = state("007"), c = state("chess");
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  for (int i = 0; i < 8; ++i) {
    play(*s, {cycle[i % 4]});
    play(*c, {cycle[i % 4]});
  }
  CHECK(c->end_reason() == "repetition");
  CHECK_FALSE(s->is_terminal());  // same board, other phase
  CHECK(state("007", s->fen())->hash() !=
        state("007", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")->hash());
  for (int i = 8; i < 24; ++i) play(*s, {cycle[i % 4]});
  CHECK(s->end_reason() == "repetition");
}

TEST_CASE("OO-7 007 perft equals chess perft in every phase", "[007][perft]") {
  for (int d = 1; d <= 5; ++d) CHECK(state("007")->perft(d) == state("chess")->perft(d));
  const uint64_t kiwi4 = 4085603;
  CHECK(state("007", kKiwipete)->perft(4) == kiwi4);
  CHECK(state("007", std::string(kKiwipete) + " turn:b2")->perft(4) == kiwi4);
  CHECK(state("007", std::string(kKiwipete) + " turn:w3")->perft(3) == 97862);
}

TEST_CASE("OD-1 the piece moved on move 2 may not be captured on move 3", "[007-detente]") {
  auto s = state("007-detente", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
  play(*s, {"g1f3", "d7d5"});
  std::vector<std::string> moves = texts(*s);
  CHECK(std::count(moves.begin(), moves.end(), "e5d6") == 0);  // en passant counts too
  auto plain = state("007", "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
  play(*plain, {"g1f3", "d7d5"});
  moves = texts(*plain);
  CHECK(std::count(moves.begin(), moves.end(), "e5d6") == 1);
  CHECK(s->fen() ==
        "rnbqkbnr/ppp1pppp/8/3pP3/8/5N2/PPPP1PPP/RNBQKB1R w KQkq d6 0 2 turn:w3 moved:f3 "
        "protected:d5");
  CHECK(state("007-detente", s->fen())->hash() == s->hash());
}

TEST_CASE("OD-2 the move-1 piece may not move again on move 3, unless nothing else can",
          "[007-detente]") {
  auto s = state("007-detente");
  play(*s, {"g1f3", "a7a6"});
  for (const std::string& m : texts(*s)) CHECK(m.substr(0, 2) != "f3");
  // The white king has no move: the rook moved on move 1 may move again.
  auto alone = state("007-detente", "8/7R/8/4k3/8/1q6/8/K7 w - - 0 1");
  play(*alone, {"h7h6", "e5f5"});
  REQUIRE_FALSE(alone->legal_actions().empty());
  for (const std::string& m : texts(*alone)) CHECK(m.substr(0, 2) == "h6");
}

TEST_CASE("OD-3 when the restrictions leave nothing, both are lifted", "[007-detente]") {
  auto s = state("007-detente", "k7/8/8/8/6n1/4B3/P5PP/6RK w - - 0 1");
  play(*s, {"a2a3", "g4f2"});  // the protected knight gives check
  CHECK(texts(*s) == std::vector<std::string>{"e3f2"});
}

TEST_CASE("OD perft: detente is strictly smaller than 007", "[007-detente][perft]") {
  for (int d = 3; d <= 4; ++d) CHECK(state("007-detente")->perft(d) < state("007")->perft(d));
  CHECK(state("007-detente")->perft(2) == 400);
}

TEST_CASE("007 FEN fields are checked", "[007][fen]") {
  CHECK_THROWS_AS(state("007", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 turn:w2"), vzero::Error);  // chooser
  CHECK_THROWS_AS(state("007", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 turn:w4"), vzero::Error);
  CHECK_THROWS_AS(state("007", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 turn:w1 turn:w1"), vzero::Error);
  CHECK_THROWS_AS(state("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 turn:w1"), vzero::Error);
  CHECK_THROWS_AS(state("007-detente", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 turn:w1 moved:e1"),
                  vzero::Error);
  CHECK(state("007", "4k3/8/8/8/8/8/8/4K3 b - - 0 1 turn:w2")->fen() ==
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1 turn:w2");
}

TEST_CASE("a dead position is known to the game, though 007 plays on to the fifty-move rule",
          "[007]") {
  // rules/007.md keeps chess's end rules without chess's insufficient-material choice: a 007 game
  // of bare kings goes on. GameState::dead_draw still knows that only a draw can follow, so
  // self-play and matches stop there (selfplay.end_dead_positions).
  for (const char* variant : {"chess", "007", "007-detente"}) {
    INFO(variant);
    for (const char* fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
                            "4k3/8/8/8/8/8/8/3BK3 w - - 0 1", "3bk3/8/8/8/8/8/8/4K3 w - - 0 1"}) {
      INFO(fen);
      auto s = state(variant, fen);
      CHECK(s->dead_draw());
      CHECK(s->is_terminal() == (std::string(variant) == "chess"));
      CHECK(s->perft(1) == state("chess", fen)->perft(1));
    }
    // A rook, a pawn or two minors can still mate.
    for (const char* fen : {"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1",
                            "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "3nk3/8/8/8/8/8/8/3BK3 w - - 0 1"})
      CHECK_FALSE(state(variant, fen)->dead_draw());
    CHECK_FALSE(state(variant)->dead_draw());
  }
  auto s = state("007", "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1 turn:w1");
  CHECK(texts(*s) == std::vector<std::string>{"e1e2"});
  play(*s, {"e1e2"});
  CHECK(s->dead_draw());
  CHECK_FALSE(s->is_terminal());
  // Where a king can be captured or ascend (Ascending the Throne), bare kings are not dead.
  CHECK_FALSE(
      vzero::game_by_id("ascending").new_state("4k3/8/8/8/8/8/8/4K3 w - - 0 1")->dead_draw());
}

namespace {

// Whether the chooser can end the game in its favour within `plies` more moves of its own choice
// (plain search over the game interface).
bool chooser_wins_within(vzero::GameState& s, int chooser, int plies) {
  const std::vector<int> legal = s.legal_actions();
  for (int a : legal) {
    s.apply(a);
    const bool wins = s.is_terminal() ? s.returns()[size_t(chooser)] > 0
                                      : plies > 1 && s.current_player() == chooser &&
                                            chooser_wins_within(s, chooser, plies - 1);
    s.undo();
    if (wins) return true;
  }
  return false;
}

// The move of the turn (1, 2, 3) from a 007 FEN's turn field ("turn:w2").
int turn_move(const vzero::GameState& s) {
  const std::string fen = s.fen();
  return fen[fen.find("turn:") + 6] - '0';
}

}  // namespace

TEST_CASE("007 solved_returns: a mate the chooser gives within its turn", "[007][solve]") {
  // Move 3: Rh8 mates at once.
  auto s = state("007", "k7/8/1K6/8/8/8/8/7R w - - 0 1 turn:w3");
  CHECK(s->solved_returns() == std::vector<double>{1.0, -1.0});
  // Move 2: White moves the black king to b8, then Rh8 mates; not in chess, which has no turns.
  const char* two = "k7/p7/2K5/8/8/8/8/7R b - - 0 1";
  CHECK(state("007", std::string(two) + " turn:w2")->solved_returns() ==
        std::vector<double>{1.0, -1.0});
  CHECK_FALSE(state("chess", two)->solved_returns());
  // Move 1 looks at a mate at once only; the tree finds the 3-move ones one ply down. Here, from
  // random play, Black mates within this turn but not at once.
  auto first =
      state("007", "rnbqkbnr/pppp1ppp/8/4p3/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2 turn:b1");
  CHECK_FALSE(first->solved_returns());
  int winning = 0;
  const std::vector<int> actions = first->legal_actions();
  for (int a : actions) {
    first->apply(a);
    winning += first->solved_returns() == std::vector<double>{-1.0, 1.0};
    first->undo();
  }
  CHECK(winning > 0);
  // Black chooses here: no mate of White's king within the turn, and none by White counts.
  CHECK_FALSE(state("007", "k7/8/1K6/8/8/8/8/7R b - - 0 1 turn:b1")->solved_returns());
}

TEST_CASE("007 solved_returns agrees with plain search over random games", "[007][solve]") {
  // Every position of random games: solved iff the chooser wins within its turn's remaining moves
  // (move 1: the move itself only), and then for the chooser.
  std::mt19937 rng(59);
  int solved = 0, positions = 0;
  for (const char* variant : {"007", "007-detente"})
    for (int game = 0; game < 60; ++game) {
      auto s = state(variant);
      for (int ply = 0; ply < 80 && !s->is_terminal(); ++ply) {
        const int chooser = s->current_player();
        const int move = turn_move(*s);
        const bool expected = chooser_wins_within(*s, chooser, move == 1 ? 1 : 4 - move);
        const auto r = s->solved_returns();
        INFO(variant << " " << s->fen());
        REQUIRE(bool(r) == expected);
        if (r) CHECK((*r)[size_t(chooser)] == 1.0);
        solved += expected;
        ++positions;
        const std::vector<int>& legal = s->legal_actions();
        s->apply(legal[rng() % legal.size()]);
      }
    }
  INFO(solved << " of " << positions);
  CHECK(solved >= 20);
}

TEST_CASE("Position::may_give_check: exact for plain moves, never a missed check", "[007][solve]") {
  std::mt19937 rng(5);
  int checks = 0;
  for (const char* variant : {"007", "chess"})
    for (int game = 0; game < 40; ++game) {
      auto s = state(variant);
      for (int ply = 0; ply < 100 && !s->is_terminal(); ++ply) {
        vzero::Position pos = dynamic_cast<const vzero::ChessState&>(*s).position();
        vzero::MoveList moves;
        pos.legal_moves(moves);
        for (int i = 0; i < moves.size; ++i) {
          const vzero::Move m = moves.moves[i];
          const bool may = pos.may_give_check(m);
          pos.do_move(m);
          const bool gives = pos.in_check();
          pos.undo_move();
          INFO(variant << " " << s->fen() << " " << pos.move_text(m));
          if (m.kind() == vzero::MoveKind::kNormal)
            REQUIRE(may == gives);
          else
            REQUIRE((may || !gives));
          checks += gives;
        }
        REQUIRE(pos.fen() == s->fen());
        const std::vector<int>& legal = s->legal_actions();
        s->apply(legal[rng() % legal.size()]);
      }
    }
  CHECK(checks > 100);
}
