// Parachute chess rules (rules/parachute.md): one test or more per rule id,
// each from a position where the rule decides, and each new piece alone.
#include <algorithm>
#include <catch.hpp>
#include <cctype>
#include <random>

#include "game/builtin/games.h"
#include "game/fairy/fairy_rules.h"
#include "game/variant.h"
#include "tests/rules_test_util.h"
#include "util/error.h"

using namespace vzero::testing;

namespace {

std::unique_ptr<vzero::GameState> parachute(const std::string& fen = "") {
  return state_of("parachute", fen);
}

const Moves kAround = {"d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"};

// CHECKs that in `fen` (Black to move) the black rook on a4 has exactly the moves of an open
// file up to a1..a7 and a rank stopped before d4: the piece on d4 blocks it.
void check_rook_a4_blocked_at_d4(const std::string& fen) {
  auto b = parachute(fen);
  CHECK(starting(*b, "a4") ==
        Moves{"a4a1", "a4a2", "a4a3", "a4a5", "a4a6", "a4a7", "a4b4", "a4c4"});
}

}  // namespace

TEST_CASE("PC-1 a 7x7 board, three pieces each on it, the rest in hand", "[parachute]") {
  auto s = parachute();
  const std::string fen = s->fen();
  const std::string board = fen.substr(0, fen.find('['));
  CHECK(std::count(board.begin(), board.end(), '/') == 6);
  CHECK_NOTHROW(parachute("7/7/7/7/7/7/K5k w - - 0 1"));
  CHECK_THROWS_AS(parachute("8/7/7/7/7/7/K5k w - - 0 1"), vzero::Error);
  CHECK(std::count_if(board.begin(), board.end(),
                      [](char c) { return std::isupper(c) && c != 'Y'; }) == 3);
  CHECK(std::count_if(board.begin(), board.end(), [](char c) { return std::islower(c); }) == 3);
}

TEST_CASE(
    "PC-2 each army: the chess pieces plus camel, rocket, elephant, dorje, joker; one yingyang",
    "[parachute]") {
  const std::string fen = parachute()->fen();
  const std::string pieces = fen.substr(0, fen.find(' '));
  const auto n = [&](char c) { return std::count(pieces.begin(), pieces.end(), c); };
  for (const char* side : {"KQRBNPMXEDJ", "kqrbnpmxedj"}) {
    const int expected[] = {1, 1, 2, 2, 2, 8, 1, 1, 1, 1, 1};
    for (int i = 0; i < 11; ++i) CHECK(n(side[i]) == expected[i]);
  }
  CHECK(n('Y') == 1);
  CHECK(n('y') == 0);
}

TEST_CASE("PC-3 the project's start position", "[parachute]") {
  CHECK(parachute()->fen() ==
        "2nkn2/7/7/3Y3/7/7/2NKN2[QRRBBPPPPPPPPMXEDJqrrbbppppppppmxedj] w - - 0 1");
}

TEST_CASE("PC-4 drops on the own first three ranks; captured pieces leave the game",
          "[parachute]") {
  auto s = parachute();
  const Moves rooks = starting(*s, "R@");
  CHECK(rooks.size() == 18);  // two rooks in hand, one action per square
  CHECK(has(*s, "R@a3"));
  CHECK(!has(*s, "R@a4"));
  CHECK(!has(*s, "R@d1"));  // occupied
  play(*s, {"R@a3"});
  CHECK(has(*s, "R@a5"));  // Black: ranks 5-7
  CHECK(!has(*s, "R@a4"));
  CHECK(starting(*s, "R@").size() == 18);
  // A capture puts nothing in a hand.
  auto c = parachute("6k/7/7/7/1n5/7/KR5 w - - 0 1");
  play(*c, {"b1b3"});
  CHECK(c->fen() == "6k/7/7/7/1R5/7/K6[] b - - 0 1 last:r-");
}

TEST_CASE("PC-5 chess pieces without castling, double step or en passant; promotion",
          "[parachute]") {
  auto s = parachute("6k/7/7/7/7/2P4/K6 w - - 0 1");
  CHECK(starting(*s, "c2") == Moves{"c2c3"});
  auto p = parachute("6k/1P5/7/7/7/7/K6 w - - 0 1");
  CHECK(starting(*p, "b6") == Moves{"b6b7b", "b6b7n", "b6b7q", "b6b7r"});
  CHECK_THROWS_AS(parachute("r2k2r/7/7/7/7/7/R2K2R w KQkq - 0 1"), vzero::Error);
  CHECK_THROWS_AS(parachute("3k3/7/7/2Pp3/7/7/3K3 w - d6 0 1"), vzero::Error);
  // Pawns drop on any of the three drop ranks, the first included.
  auto d = parachute("6k/7/7/7/7/7/K6[P] w - - 0 1");
  CHECK(starting(*d, "P@").size() == 20);
  CHECK(has(*d, "P@b1"));
  CHECK(has(*d, "P@g3"));
}

TEST_CASE("PC-6 camel, elephant and dorje alone; leapers jump the yingyang",
          "[parachute][pieces]") {
  auto m = parachute("6k/7/7/3M3/7/7/K6 w - - 0 1");
  CHECK(starting(*m, "d4") ==
        Moves{"d4a3", "d4a5", "d4c1", "d4c7", "d4e1", "d4e7", "d4g3", "d4g5"});
  auto e = parachute("6k/7/7/3E3/7/7/K6 w - - 0 1");
  CHECK(starting(*e, "d4") ==
        Moves{"d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2", "d4f6"});
  auto d = parachute("6k/7/7/3D3/7/7/K6 w - - 0 1");
  CHECK(starting(*d, "d4") ==
        Moves{"d4b4", "d4c4", "d4d2", "d4d3", "d4d5", "d4d6", "d4e4", "d4f4"});
  // The elephant leaps over the yingyang on e5 to f6, the dorje over it on d5 to d6.
  auto y = parachute("6k/7/7/3DY2/7/7/K6 w - - 0 1");
  CHECK(has(*y, "d4f4"));
  CHECK(!has(*y, "d4e4"));
  auto ye = parachute("6k/7/4Y2/3E3/7/7/K6 w - - 0 1");
  CHECK(has(*ye, "d4f6"));
  CHECK(!has(*ye, "d4e5"));
}

TEST_CASE("PC-7 rocket alone: steps, never captures, cannot be captured", "[parachute][pieces]") {
  auto s = parachute("6k/7/7/3X3/7/7/K6 w - - 0 1");
  CHECK(starting(*s, "d4") == kAround);
  // Next to an enemy knight: no capture; the enemy rook cannot capture it either.
  auto c = parachute("6k/7/4n2/r2X3/7/7/K6 w - - 0 1");
  CHECK(!has(*c, "d4e5"));
  CHECK(starting(*c, "d4").size() == 7);
  check_rook_a4_blocked_at_d4("6k/7/4n2/r2X3/7/7/K6 b - - 0 1");
}

TEST_CASE("PC-8 yingyang: either player steps it, not right after the opponent did",
          "[parachute][pieces]") {
  auto s = parachute("6k/7/7/3Y3/7/7/K6 w - - 0 1");
  CHECK(starting(*s, "d4") == kAround);
  play(*s, {"d4d5"});
  CHECK(s->fen() == "6k/7/3Y3/7/7/7/K6[] b - - 1 1 last:y-");
  CHECK(starting(*s, "d5").empty());  // Black may not move it now
  play(*s, {"g7g6"});
  CHECK(starting(*s, "d5").size() == 8);  // White may again
  play(*s, {"a1a2"});
  CHECK(starting(*s, "d5").size() == 8);  // and Black, after a White king move
  // It never captures, cannot be captured, and blocks sliders.
  auto c = parachute("6k/7/7/r2Yn2/7/7/K6 w - - 0 1");
  CHECK(!has(*c, "d4e4"));
  CHECK(has(*c, "d4e5"));
  check_rook_a4_blocked_at_d4("6k/7/7/r2Yn2/7/7/K6 b - - 0 1");
}

TEST_CASE("PC-9 joker power: the last used type, none after rocket, joker or yingyang",
          "[parachute][pieces]") {
  // Alone with the kings, Black's last action a dorje drop: the joker moves as a dorje.
  auto d = parachute("6k/7/7/3J3/7/7/K6 w - - 0 1 last:-d");
  CHECK(starting(*d, "d4") ==
        Moves{"d4b4", "d4c4", "d4d2", "d4d3", "d4d5", "d4d6", "d4e4", "d4f4"});
  for (const char* none : {"", " last:-x", " last:-j", " last:-y"}) {
    auto n = parachute(std::string("6k/7/7/3J3/7/7/K6 w - - 0 1") + none);
    CHECK(starting(*n, "d4").empty());
  }
  // Imitating a pawn: forward for its owner, never promotes.
  auto p = parachute("6k/7/7/3J3/7/7/K6 w - - 0 1 last:-p");
  CHECK(starting(*p, "d4") == Moves{"d4d5"});
  auto bp = parachute("6k/7/7/3j3/7/7/K6 b - - 0 1 last:p-");
  CHECK(starting(*bp, "d4") == Moves{"d4d3"});
  auto top = parachute("6k/3J3/7/7/7/7/K6 w - - 0 1 last:-p");
  CHECK(starting(*top, "d6") == Moves{"d6d7"});
  // A sequence: a king move gives Black's joker a king's steps; its move
  // leaves White's joker without power.
  auto s = parachute("6k/7/7/3j3/7/7/K2J3 w - - 0 1 last:-q");
  CHECK(starting(*s, "d1").size() == 14);  // as a queen
  play(*s, {"a1a2"});
  CHECK(starting(*s, "d4") == kAround);
  play(*s, {"d4d5"});
  CHECK(starting(*s, "d1").empty());
  // Dropping one's own joker is always allowed, whatever the last action.
  auto j = parachute("6k/7/7/7/7/7/K6[J] w - - 0 1 last:jj");
  CHECK(starting(*j, "J@").size() == 20);
}

TEST_CASE("PC-10 capturing the king wins; mate only when a turn starts in check", "[parachute]") {
  // A move may leave one's own king attacked ...
  auto s = parachute("1r4k/7/7/7/7/7/K6 w - - 0 1");
  CHECK(has(*s, "a1b1"));
  play(*s, {"a1b1"});
  // ... and capturing it wins at once.
  play(*s, {"b7b1"});
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "king-captured");
  CHECK(s->returns() == std::vector<double>{-1.0, 1.0});
  CHECK(s->current_player() == -1);
  // In check with no action that escapes: checkmate at the start of the turn.
  auto m = parachute("6k/7/7/7/3n3/1q5/K6 w - - 0 1");
  CHECK(m->is_terminal());
  CHECK(m->end_reason() == "checkmate");
  CHECK(m->returns() == std::vector<double>{-1.0, 1.0});
  // Capturing the enemy king is an escape: every action stays legal.
  auto e = parachute("6k/7/7/7/3n3/1q5/K5R w - - 0 1");
  CHECK(!e->is_terminal());
  CHECK(has(*e, "g1g7"));
  CHECK(has(*e, "a1a2"));  // still attacked afterwards, but allowed
  // A joker that gets the king's power by the king's own move counts: the
  // king on a1 steps to b1 next to a joker that then steps as a king.
  auto j = parachute("6k/7/7/7/7/2j4/K6 w - - 0 1 last:-q");
  play(*j, {"a1b1", "c2b1"});
  CHECK(j->end_reason() == "king-captured");
}

TEST_CASE("PC-11 no action at all draws; drops reset the 50-move clock", "[parachute]") {
  // The king is walled in by its own blocked pawns and the yingyang Black just moved.
  auto s = parachute("6k/7/7/7/xx5/PP5/KY5 w - - 0 1 last:-y");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "stalemate");
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
  auto d = parachute("6k/7/7/7/7/7/K6[P] w - - 99 60");
  play(*d, {"P@b2"});
  CHECK(d->fen() == "6k/7/7/7/7/1P5/K6[] b - - 0 60 last:p-");
  auto f = parachute("6k/7/7/7/7/7/K6[P] w - - 99 60");
  play(*f, {"a1a2"});
  CHECK(f->is_terminal());
  CHECK(f->end_reason() == "fifty-move");
}

TEST_CASE("PC-12 perft from the start, depth 1: 181", "[parachute]") {
  auto s = parachute();
  CHECK(s->perft(1) == 181);
  const Moves all = texts(*s);
  CHECK(std::count_if(all.begin(), all.end(), [](const std::string& m) { return m[1] == '@'; }) ==
        162);
  CHECK(starting(*s, "c1").size() + starting(*s, "e1").size() == 8);
  CHECK(starting(*s, "d1").size() == 3);
  CHECK(starting(*s, "d4").size() == 8);
}

TEST_CASE("parachute FEN round-trips hands and the last actions", "[parachute][fen]") {
  for (const char* fen : {"2nkn2/7/7/3Y3/7/7/2NKN2[QRRBBPPPPPPPPMXEDJqrrbbppppppppmxedj] w - - 0 1",
                          "6k/7/7/3j3/7/7/K2J3[Qq] b - - 7 12 last:yj"}) {
    CHECK(parachute(fen)->fen() == fen);
  }
  CHECK_THROWS_AS(parachute("6k/7/7/3y3/7/7/K6 w - - 0 1"), vzero::Error);  // the yingyang is 'Y'
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6[K] w - - 0 1"), vzero::Error);
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6[Y] w - - 0 1"), vzero::Error);
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6 w - - 0 1 last:-z"), vzero::Error);
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6 w - - 0 1 streak:1"), vzero::Error);
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6 w - - 0 1 pool:Q"), vzero::Error);
  CHECK_THROWS_AS(parachute("6k/7/7/7/7/7/K6[Q w - - 0 1"), vzero::Error);
  CHECK_THROWS_AS(parachute("7/7/7/7/7/7/K6 w - - 0 1"),
                  vzero::Error);                         // Black, not to act, has no king
  CHECK_NOTHROW(parachute("6k/7/7/7/7/7/7 w - - 0 1"));  // White's king was just captured
}

TEST_CASE("fairy variant keys are typed and checked", "[parachute][variant]") {
  const std::string base =
      "id = \"x\"\nhook = \"fairy\"\nstart = \"k6/7/7/7/7/7/K6 w - - 0 1\"\nfiles = 7\nranks = 7\n";
  const std::string king = "[[piece]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
  const std::string joker = "[[piece]]\nletter = \"j\"\njoker = true\n";
  CHECK_NOTHROW(vzero::parse_variant(base + "[drops]\nranks = 3\n" + king + joker, "test"));
  CHECK_THROWS_AS(vzero::parse_variant(base + "[drops]\nrank = 3\n" + king, "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant(base + "[drops]\nranks = 9\n" + king, "test"), vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant(base + "[drops]\nstart_piece = \"z\"\n" + king, "test"),
                  vzero::Error);
  CHECK_THROWS_AS(vzero::parse_variant(base + "[joker]\nchains = true\n" + king, "test"),
                  vzero::Error);
  CHECK_THROWS_AS(
      vzero::parse_variant(base + king + "[[piece]]\nletter = \"j\"\njoker = true\nbetza = \"K\"\n",
                           "test"),
      vzero::Error);
  CHECK_THROWS_AS(
      vzero::parse_variant(
          base + king + "[[piece]]\nletter = \"y\"\nbetza = \"mK\"\nshared = \"yes\"\n", "test"),
      vzero::Error);
  // The action spaces stay compact.
  CHECK(vzero::game_by_id("parachute").num_actions() < 3000);
  CHECK(vzero::game_by_id("world").num_actions() < 6000);
}

TEST_CASE("PC-10 a king is attacked exactly when an enemy action could capture it", "[parachute]") {
  // Over random games: the attack test agrees with the enemy's own actions.
  const vzero::FairyRules rules(vzero::builtin_variant("parachute"));
  std::mt19937_64 rng(7);
  int checks = 0;
  for (int game = 0; game < 40; ++game) {
    vzero::FairyPos p = rules.start();
    for (int ply = 0; ply < 120; ++ply) {
      vzero::MoveList moves;
      rules.legal_moves(p, moves);
      if (rules.outcome(p, moves, nullptr) >= 0) break;
      const vzero::Move m = moves.moves[rng() % moves.size];
      const vzero::FairyPos next = rules.play(p, m);
      const int king = next.king[p.stm];
      if (king >= 0 && next.king[next.stm] >= 0) {  // (a captured king ends the game)
        vzero::MoveList replies;
        rules.legal_moves(next, replies);
        bool captured = false;
        for (const vzero::Move r : replies)
          captured |= r.to() == king && r.kind() != vzero::MoveKind::kDrop;
        INFO(rules.fen(next));
        CHECK(rules.attacked(next, king, next.stm) == captured);
        checks += captured;
      }
      p = next;
    }
  }
  CHECK(checks > 0);
}
