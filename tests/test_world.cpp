// World chess rules (rules/world.md): one test or more per rule id, each
// from a position where the rule decides, and each new piece alone.
#include <algorithm>
#include <catch.hpp>

#include "game/builtin/games.h"
#include "tests/rules_test_util.h"
#include "util/error.h"

using namespace vzero::testing;

namespace {

std::unique_ptr<vzero::GameState> world(const std::string& fen = "") {
  return state_of("world", fen);
}

}  // namespace

TEST_CASE("WC-1 a 10x8 board and the project's setup, lances in hand", "[world]") {
  auto s = world();
  CHECK(s->fen() ==
        "omnbqjbnmo/r2gks3r/pppppppppp/10/10/PPPPPPPPPP/R2GKS3R/OMNBQJBNMO[Ll] w KQkq - 0 1");
  CHECK(s->text_to_action("j3j4") >= 0);
  CHECK_THROWS_AS(
      world("omnbqjbnmo/r2gks3r/pppppppppp/10/10/PPPPPPPPPP/R2GKS3R/OMNBQJBNM w - - 0 1"),
      vzero::Error);
}

TEST_CASE("WC-2 camel alone: the (3,1) leaps", "[world][pieces]") {
  auto s = world("k9/10/10/10/4M5/10/10/9K w - - 0 1");
  CHECK(starting(*s, "e4") ==
        Moves{"e4b3", "e4b5", "e4d1", "e4d7", "e4f1", "e4f7", "e4h3", "e4h5"});
}

TEST_CASE("WC-3 cannon alone: hops over exactly one screen", "[world][pieces]") {
  // The kings are the only screens: down over e2 to e1, up over e7 to e8.
  auto s = world("10/4k5/10/10/4O5/10/4K5/10 w - - 0 1");
  CHECK(starting(*s, "e4") == Moves{"e4e1", "e4e8"});
  // Captures the first piece beyond the screen (i4), never passes it (j4);
  // hops a screen of either colour (e6); no screen, no move (left, down).
  auto c = world("k9/10/4n5/10/4O1P1rP/10/10/9K w - - 0 1");
  CHECK(starting(*c, "e4") == Moves{"e4e7", "e4e8", "e4h4", "e4i4"});
}

TEST_CASE("WC-4 gold alone: one step but diagonally backwards", "[world][pieces]") {
  auto s = world("k9/10/10/10/4G5/10/10/9K w - - 0 1");
  CHECK(starting(*s, "e4") == Moves{"e4d4", "e4d5", "e4e3", "e4e5", "e4f4", "e4f5"});
  auto b = world("k9/10/10/4g5/10/10/10/9K b - - 0 1");  // Black's forward is down
  CHECK(starting(*b, "e5") == Moves{"e5d4", "e5d5", "e5e4", "e5e6", "e5f4", "e5f5"});
}

TEST_CASE("WC-5 silver alone: diagonal steps and straight forward", "[world][pieces]") {
  auto s = world("k9/10/10/10/4S5/10/10/9K w - - 0 1");
  CHECK(starting(*s, "e4") == Moves{"e4d3", "e4d5", "e4e5", "e4f3", "e4f5"});
}

TEST_CASE("WC-6 lance alone: slides forward, captures the first enemy", "[world][pieces]") {
  auto s = world("k9/10/10/10/4L5/10/10/9K w - - 0 1");
  CHECK(starting(*s, "e4") == Moves{"e4e5", "e4e6", "e4e7", "e4e8"});
  auto b = world("k9/10/10/4l5/10/10/10/9K b - - 0 1");
  CHECK(starting(*b, "e5") == Moves{"e5e1", "e5e2", "e5e3", "e5e4"});
  auto c = world("k9/4n5/10/10/4L5/10/10/9K w - - 0 1");
  CHECK(starting(*c, "e4") == Moves{"e4e5", "e4e6", "e4e7"});
}

TEST_CASE("WC-6a the starting lance drops only on the own first rank", "[world]") {
  auto s = world("4k5/10/10/10/10/10/10/4K5[Ll] w - - 0 1");
  CHECK(starting(*s, "L@") ==
        Moves{"L@a1", "L@b1", "L@c1", "L@d1", "L@f1", "L@g1", "L@h1", "L@i1", "L@j1"});
  play(*s, {"L@a1"});
  CHECK(s->fen() == "4k5/10/10/10/10/10/10/L3K5[l] b - - 1 1 last:l-");
  // Black's drops: its own first rank is rank 8.
  CHECK(starting(*s, "L@").size() == 9);
  CHECK(has(*s, "L@j8"));
}

TEST_CASE("WC-6b a captured lance changes sides and drops anywhere but the last rank", "[world]") {
  auto s = world("4k5/10/10/10/4l5/10/10/R8K w - - 0 1");
  play(*s, {"a1a4", "e8d8", "a4e4"});
  CHECK(s->fen() == "3k6/10/10/10/4R5/10/10/9K[L] b - - 0 2 start:- last:rk");
  play(*s, {"d8c8"});
  // Ranks 1-7 (70 squares) less j1 and e4, less c1-c7 where it would attack the king (WC-6c).
  CHECK(starting(*s, "L@").size() == 61);
  CHECK(has(*s, "L@a7"));
  CHECK(!has(*s, "L@a8"));
  // With the starting lance and a won lance: a first-rank drop uses the starting one.
  auto t = world("4k5/10/10/10/10/10/10/4K5[LL] w - - 0 1");
  CHECK(starting(*t, "L@").size() == 63);  // ranks 1-7 less e1, less e2-e7 (WC-6c)
  play(*t, {"L@a1"});
  CHECK(t->fen() == "4k5/10/10/10/10/10/10/L3K5[L] b - - 1 1 start:- last:l-");
}

TEST_CASE("WC-6c a drop may not attack the enemy king", "[world]") {
  // The lance itself on the king's file.
  check_legal(*world("4k5/10/10/10/10/10/10/K9[L] w - - 0 1"), {"L@d1"}, {"L@e1"});
  // The (won) lance as a cannon's screen on the king's rank.
  check_legal(*world("10/O3k5/10/10/10/10/10/K9[L] w - - 0 1 start:-"), {"L@c6"},
              {"L@b7", "L@c7", "L@d7"});
}

TEST_CASE("WC-6d captured pieces go to their owner's pool; a capturing pawn promotes", "[world]") {
  auto s = world("4k5/10/10/10/10/n9/10/R3K5 w - - 0 1");
  play(*s, {"a1a3"});
  CHECK(s->fen() == "4k5/10/10/10/10/R9/10/4K5[] b - - 0 1 pool:n last:r-");
  // The pawn captures onto its promotion rank: it takes the queen from its pool,
  // the bishop joins Black's pool.
  auto p = world("k9/3b6/2P7/10/10/10/10/8K1 w - - 0 1 pool:Q");
  CHECK(starting(*p, "c6") == Moves{"c6c7q", "c6d7q"});
  play(*p, {"c6d7q"});
  CHECK(p->fen() == "k9/3Q6/10/10/10/10/10/8K1[] b - - 0 1 pool:b last:p-");
}

TEST_CASE("WC-7 joker copies the type of the opponent's last action", "[world][pieces]") {
  // Alone with the kings: no power before the opponent acted.
  auto none = world("k9/10/10/10/4J5/10/10/9K w - - 0 1");
  CHECK(starting(*none, "e4").empty());
  // Black's last action was a knight move: the joker leaps as a knight.
  auto n = world("k9/10/10/10/4J5/10/10/9K w - - 0 1 last:-n");
  CHECK(starting(*n, "e4") ==
        Moves{"e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5"});
  // A drop counts: after a lance drop the joker slides forward as a lance.
  auto l = world("k9/10/10/10/4J5/10/10/9K w - - 0 1 last:-l");
  CHECK(starting(*l, "e4") == Moves{"e4e5", "e4e6", "e4e7", "e4e8"});
  // Castling counts as the king: Black's joker then steps as a king.
  auto c = world("4j4k/10/10/10/10/10/R3K5/10 w Q - 0 1");
  CHECK(starting(*c, "e8").empty());
  play(*c, {"e2b2"});
  CHECK(c->fen() == "4j4k/10/10/10/10/10/1KR7/10[] b - - 1 1 last:k-");
  CHECK(starting(*c, "e8") == Moves{"e8d7", "e8d8", "e8e7", "e8f7", "e8f8"});
}

TEST_CASE("WC-7a a joker imitated passes its power; no third joker move in a row", "[world]") {
  // Black just moved a bishop.
  auto s = world("k9/10/10/4j5/10/10/4J5/9K w - - 0 1 last:-b");
  CHECK(has(*s, "e2d3"));  // as a bishop
  play(*s, {"e2d3"});
  CHECK(s->fen() == "k9/10/10/4j5/10/3J6/10/9K[] b - - 1 1 last:bb streak:1");
  CHECK(has(*s, "e5f4"));  // Black's joker moves as the bishop too
  play(*s, {"e5f4"});
  CHECK(s->fen() == "k9/10/10/10/5j4/3J6/10/9K[] w - - 2 2 last:bb streak:2");
  CHECK(starting(*s, "d3").empty());  // no joker move now
  play(*s, {"j1j2"});
  CHECK(!starting(*s, "f4").empty());  // Black's joker: a king now
  CHECK(starting(*s, "f4").size() == 8);
}

TEST_CASE("WC-7b joker as a pawn: steps, captures, double step from rank 1, en passant",
          "[world]") {
  auto s = world("k9/10/10/10/10/10/3n6/2J6K w - - 0 1 last:-p");
  CHECK(starting(*s, "c1") == Moves{"c1c2", "c1c3", "c1d2"});
  play(*s, {"c1c3"});
  CHECK(s->fen() ==
        "k9/10/10/10/10/2J7/3n6/9K[] b - - 1 1 last:pp streak:1");  // no en-passant square
  // En passant right after an enemy pawn's double step past the square in front.
  auto e = world("k9/10/3p6/10/2J7/10/10/9K b - - 0 1 last:-p");
  play(*e, {"d6d4"});
  CHECK(e->fen() == "k9/10/10/10/2Jp6/10/10/9K[] w - d5 0 2 last:-p");
  CHECK(has(*e, "c4d5"));
  play(*e, {"c4d5"});
  CHECK(e->fen() == "k9/10/10/3J6/10/10/10/9K[] b - - 0 2 last:pp streak:1");
  // It never promotes: on its penultimate rank it simply stands.
  auto p = world("k9/10/3J6/10/10/10/10/9K w - - 0 1 last:-p");
  CHECK(starting(*p, "d6") == Moves{"d6d7"});
}

TEST_CASE("WC-7c joker as cannon hops, as lance slides to the enemy, as king is not royal",
          "[world]") {
  auto o = world("k9/10/10/10/4J1P3/10/10/9K w - - 0 1 last:-o");
  CHECK(starting(*o, "e4") == Moves{"e4h4", "e4i4", "e4j4"});
  auto l = world("k9/10/10/4j5/10/10/10/9K b - - 0 1 last:l-");
  CHECK(starting(*l, "e5") == Moves{"e5e1", "e5e2", "e5e3", "e5e4"});
  // As a king it may step onto an attacked square (f5 is attacked by the rook).
  auto k = world("k4r4/10/10/10/4J5/10/10/9K w - - 0 1 last:-k");
  CHECK(has(*k, "e4f5"));
  CHECK(starting(*k, "e4").size() == 8);
}

TEST_CASE("WC-7d a captured joker leaves the game", "[world]") {
  auto s = world("1k8/10/10/10/4j5/10/10/R8K w - - 0 1");
  play(*s, {"a1a4", "b8c8", "a4e4"});
  CHECK(s->fen() == "2k7/10/10/10/4R5/10/10/9K[] b - - 0 2 last:rk");
}

TEST_CASE("WC-8 the joker gives check with its updated power", "[world]") {
  // White's joker on d6 is a knight's leap from e8: any Black knight move
  // would make it a knight and leave Black's king attacked.
  auto s = world("4k5/10/3J6/10/10/10/n9/9K b - - 0 1 last:-r");
  CHECK(starting(*s, "a2").empty());
  CHECK(has(*s, "e8f8"));
  // In check from a joker (a rook now): after a king move it is a king, so
  // d7, e7 and f7 next to it are attacked too.
  auto c = world("4k5/10/4J5/10/10/10/10/9K b - - 0 1 last:-r");
  CHECK(texts(*c) == Moves{"e8d8", "e8f8"});
  // Checkmate and stalemate.
  auto m = world("4k5/3JRJ4/10/10/10/10/10/9K b - - 0 1 last:-q");
  check_ended(*m, "checkmate");
  CHECK(m->returns() == std::vector<double>{1.0, -1.0});
  check_ended(*world("k9/2Q7/1K8/10/10/10/10/10 b - - 0 1"), "stalemate");
}

TEST_CASE("WC-9 pawns double step from rank 3 and promote on rank 7 from the pool", "[world]") {
  auto s = world("k9/10/10/10/10/4P5/10/9K w - - 0 1");
  CHECK(starting(*s, "e3") == Moves{"e3e4", "e3e5"});
  auto p = world("k9/10/4P5/10/10/10/10/9K w - - 0 1 pool:QMm");
  CHECK(starting(*p, "e6") == Moves{"e6e7m", "e6e7q"});
  play(*p, {"e6e7m"});
  CHECK(p->fen() == "k9/4M5/10/10/10/10/10/9K[] b - - 0 1 pool:Qm last:p-");
  // En passant by a pawn.
  auto f = world("k9/10/3p6/10/4P5/10/10/9K b - - 0 1");
  play(*f, {"d6d4"});
  CHECK(has(*f, "e4d5"));
}

TEST_CASE("WC-9a the action names the piece when the pool has one, else none", "[world]") {
  auto with = world("k9/10/2P7/10/10/10/10/9K w - - 0 1 pool:R");
  CHECK(starting(*with, "c6") == Moves{"c6c7r"});
  auto without = world("k9/10/2P7/10/10/10/10/9K w - - 0 1 pool:r");
  CHECK(starting(*without, "c6") == Moves{"c6c7"});
}

TEST_CASE("WC-10 a waiting pawn cannot move, capture, attack or be captured", "[world]") {
  // White's pawn waits on c7 (no pool piece): it may not capture b8 or d8.
  auto s = world("kn1r6/2P7/10/10/10/10/10/9K w - - 0 1");
  CHECK(starting(*s, "c7").empty());
  // It attacks nothing (the king on c8 may go to b8 and d8), cannot be
  // captured (by the king or the rook) and blocks the rook's way to b7.
  auto b = world("2k7/2P1r5/10/10/10/10/10/9K b - - 0 1");
  CHECK(starting(*b, "c8") == Moves{"c8b7", "c8b8", "c8d7", "c8d8"});
  CHECK(starting(*b, "e7") == Moves{"e7d7", "e7e1", "e7e2", "e7e3", "e7e4", "e7e5", "e7e6", "e7e8",
                                    "e7f7", "e7g7", "e7h7", "e7i7", "e7j7"});
  // A cannon hops over it (c4c8), but cannot capture it (screen c5, c6 empty).
  auto o = world("1k8/2P7/10/10/2o7/10/10/9K b - - 0 1");
  CHECK(starting(*o, "c4") == Moves{"c4c8"});
  auto x = world("1k8/2P7/10/2n7/2o7/10/10/9K b - - 0 1");
  CHECK(starting(*x, "c4") == Moves{"c4c6"});
  // Later, with a piece in the pool: promotion in place, one action per type.
  auto l = world("k9/2P7/10/10/10/10/10/9K w - - 0 1 pool:QR");
  CHECK(starting(*l, "c7") == Moves{"c7c7q", "c7c7r"});
  play(*l, {"c7c7q"});
  CHECK(l->fen() == "k9/2Q7/10/10/10/10/10/9K[] b - - 0 1 pool:R last:p-");
  // In check it is legal only if it ends the check: against a rook it cannot ...
  auto c = world("k9/2P7/10/10/10/10/10/r8K w - - 0 1 pool:N");
  CHECK(starting(*c, "c7").empty());
  // ... but against a joker it does: the joker then imitates the pawn.
  auto j = world("k9/2P7/10/10/10/10/10/j8K w - - 0 1 pool:N last:-q");
  CHECK(starting(*j, "c7") == Moves{"c7c7n"});
}

TEST_CASE("WC-11 castling on rank 2 to the middle of the wing", "[world]") {
  const std::string fen = "4k5/10/10/10/10/10/R3K4R/10 w KQ - 0 1";
  auto s = world(fen);
  CHECK(has(*s, "e2b2"));
  CHECK(has(*s, "e2i2"));
  play(*s, {"e2b2"});
  CHECK(s->fen() == "4k5/10/10/10/10/10/1KR6R/10[] b - - 1 1 last:k-");
  // A wing square attacked (a2 by the rook on a8): no queenside castling.
  check_legal(*world("r3k5/10/10/10/10/10/R3K4R/10 w KQ - 0 1"), {"e2i2"}, {"e2b2"});
  // g2 and i2 attacked by a black knight on h4: no kingside castling.
  check_legal(*world("4k5/10/10/10/7n2/10/R3K4R/10 w KQ - 0 1"), {"e2b2"}, {"e2i2"});
  // In check: no castling.
  check_legal(*world("4k5/4r5/10/10/10/10/R3K4R/10 w KQ - 0 1"), {}, {"e2b2", "e2i2"});
  // Black castles on its rank 2 (rank 7).
  auto b = world("10/r3k4r/10/10/10/10/10/4K5 b kq - 0 1");
  CHECK(has(*b, "e7b7"));
  CHECK(has(*b, "e7i7"));
  play(*b, {"e7i7"});
  CHECK(b->fen() == "10/r6rk1/10/10/10/10/10/4K5[] w - - 1 2 last:-k");
  // A moved rook loses its right.
  auto m = world(fen);
  play(*m, {"j2j1", "e8d8"});
  CHECK(m->fen().find(" Q ") != std::string::npos);
}

TEST_CASE("WC-12 perft from the start, depth 1: 32", "[world]") {
  auto s = world();
  CHECK(s->perft(1) == 32);
  const Moves all = texts(*s);
  const auto from_rank = [&](char rank) {
    return std::count_if(all.begin(), all.end(),
                         [&](const std::string& m) { return m[1] == rank; });
  };
  CHECK(from_rank('3') == 20);                                        // pawns
  CHECK(starting(*s, "b1").size() + starting(*s, "i1").size() == 4);  // camels
  CHECK(starting(*s, "a2").size() + starting(*s, "j2").size() == 5);  // rooks
  CHECK(starting(*s, "d1").size() + starting(*s, "g1").size() == 2);  // bishops
  CHECK(starting(*s, "d2").size() == 1);                              // gold
}

TEST_CASE("world FEN round-trips hands, pool, lance flags, joker memory and streak",
          "[world][fen]") {
  for (const char* fen :
       {"omnbqjbnmo/r2gks3r/pppppppppp/10/10/PPPPPPPPPP/R2GKS3R/OMNBQJBNMO[Ll] w KQkq - 0 1",
        "10/r3k4r/2P2p4/3o6/4J5/10/R3K4R/10[Ll] w KQkq - 0 1 pool:Qn start:- last:-b",
        "k9/10/10/10/5j4/3J6/10/9K[] w - - 2 2 last:bb streak:2",
        "4k5/10/10/10/10/10/10/L3K5[LLl] b - - 1 1 start:l last:l-"}) {
    auto s = world(fen);
    CHECK(s->fen() == fen);
    CHECK(world(s->fen())->hash() == s->hash());
  }
  // The joker memory and the streak are part of the position.
  CHECK(world("k9/10/10/10/4J5/10/10/9K w - - 0 1")->hash() !=
        world("k9/10/10/10/4J5/10/10/9K w - - 0 1 last:-n")->hash());
  CHECK(world("k9/10/10/10/5j4/3J6/10/9K w - - 2 2 last:bb streak:1")->hash() !=
        world("k9/10/10/10/5j4/3J6/10/9K w - - 2 2 last:bb streak:2")->hash());
  // Without a joker on the board the memory changes nothing: repetition ignores it.
  CHECK(world("k9/10/10/10/10/10/10/9K w - - 0 1")->hash() ==
        world("k9/10/10/10/10/10/10/9K w - - 0 1 last:-n")->hash());
  for (const char* bad :
       {"k9/10/10/10/10/10/10/9K[J] w - - 0 1",       // a joker never in hand
        "k9/10/10/10/10/10/10/9K w - - 0 1 pool:L",   // nor a lance in the pool
        "k9/10/10/10/10/10/10/9K w - - 0 1 start:L",  // a flag without a lance
        "k9/10/10/10/10/10/10/9K w - - 0 1 last:-j",  // a joker move writes its power
        "k9/10/10/10/10/10/10/9K w - - 0 1 last:-b streak:3",
        "k9/10/10/10/10/10/10/9K w - - 0 1 streak:1",  // a streak needs a last action
        "k9/10/10/10/10/10/10/9K w - - 0 1 pool:Q pool:Q", "k9/10/10/10/10/10/10/9K[L w - - 0 1",
        "k9/10/10/10/10/10/10/4P4K w - - 0 1 bogus",
        "k2P6/10/10/10/10/10/10/9K w - - 0 1",  // a pawn on its last rank
        "k9/10/10/10/10/10/10/10 w - - 0 1",    // no White king
        "R3k5/10/10/10/10/10/10/9K w - - 0 1",  // the side not to move in check
        "k9/10/10/10/10/10/10/9K w K - 0 1"}) {
    INFO(bad);
    CHECK_THROWS_AS(world(bad), vzero::Error);
  }
}
