// Chivalrous Attrition (rules/attrition.md): one or more test cases per rule
// id CA-1..CA-12, built from positions in the attrition FEN
// (docs/fen-attrition.md), plus FEN, action and interface checks.
#include <algorithm>
#include <catch.hpp>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>

#include "game/attrition/attrition_solver.h"
#include "game/attrition/attrition_state.h"
#include "game/builtin/games.h"
#include "util/error.h"

namespace {

std::unique_ptr<vzero::GameState> at(const std::string& variant, const std::string& fen = "") {
  return vzero::game_by_id(variant).new_state(fen);
}

// The legal actions as sorted texts.
std::vector<std::string> legal_texts(const vzero::GameState& s) {
  std::vector<std::string> out;
  for (int a : s.legal_actions()) out.push_back(s.action_to_text(a));
  std::sort(out.begin(), out.end());
  return out;
}

bool is_legal(const vzero::GameState& s, const std::string& text) {
  const auto l = legal_texts(s);
  return std::find(l.begin(), l.end(), text) != l.end();
}

// Plays space-separated actions in the rules notation.
void play(vzero::GameState& s, const std::string& actions) {
  std::istringstream in(actions);
  std::string t;
  while (in >> t) s.apply(s.text_to_action(t));
}

double sum(const std::vector<double>& r) { return std::accumulate(r.begin(), r.end(), 0.0); }

}  // namespace

TEST_CASE("CA-1 pieces move only as knights, seats act in order", "[attrition]") {
  auto s = at("attrition", "8/8/8/8/3a4/8/8/7b 0 0 00 - 2");
  CHECK(s->current_player() == 0);
  CHECK(legal_texts(*s) ==
        std::vector<std::string>{"d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"});
  play(*s, "d4e6");
  CHECK(s->current_player() == 1);
  CHECK(legal_texts(*s) == std::vector<std::string>{"h1f2", "h1g3"});
  auto three = at("attrition-3p");
  for (int seat : {0, 1, 2}) {
    CHECK(three->current_player() == seat);
    three->apply(three->legal_actions().front());
  }
  CHECK(three->current_player() == 0);
}

TEST_CASE("CA-2 placement is the first turn; two knights are two actions by one player",
          "[attrition]") {
  auto one = at("attrition");
  CHECK(one->legal_actions().size() == 64);
  play(*one, "N@d4");
  CHECK(one->current_player() == 1);
  play(*one, "N@c3");
  CHECK(one->current_player() == 0);
  CHECK(legal_texts(*one).front() == "d4b3");  // now knight moves only

  auto two = at("attrition-2k");
  play(*two, "N@d4");
  CHECK(two->current_player() == 0);  // the same player places his second knight
  CHECK(two->fen() == "8/8/8/8/3a4/8/8/8 0 0 12 - 1");
  CHECK(two->legal_actions().size() == 63);
  play(*two, "N@e4");
  CHECK(two->current_player() == 1);
  play(*two, "N@a1");
  CHECK(two->current_player() == 1);
  play(*two, "N@b1");
  CHECK(two->current_player() == 0);
  CHECK(two->plies() == 4);
  CHECK(is_legal(*two, "d4c6"));
  CHECK(is_legal(*two, "e4c5"));
  CHECK(!is_legal(*two, "N@h8"));
}

TEST_CASE("CA-3 every landing square gets a marker, the placement square included", "[attrition]") {
  auto s = at("attrition");
  play(*s, "N@d4 N@h8");
  CHECK(s->fen() == "7b/8/8/8/3a4/8/8/8 0 0 00 - 2");
  play(*s, "d4e6 h8g6");
  CHECK(s->fen() == "7x/8/4a1b1/8/3x4/8/8/8 0 0 00 - 4");
  // The markers of d4 and h8 stay: e6 cannot go back to d4.
  CHECK(!is_legal(*s, "e6d4"));
  CHECK(is_legal(*s, "e6c5"));
}

TEST_CASE("CA-4 placement on empty unmarked squares; moves avoid markers; capture is optional",
          "[attrition]") {
  auto p = at("attrition-3p");
  play(*p, "N@d4");
  CHECK(p->legal_actions().size() == 63);
  CHECK_THROWS_AS(p->text_to_action("N@d4"), vzero::Error);
  // d4 reaches b3 and f5 (marked), e6 (an opponent knight), five free squares.
  auto s = at("attrition", "8/8/4b3/5x2/3a4/1x6/8/8 0 0 00 - 6");
  CHECK(legal_texts(*s) ==
        std::vector<std::string>{"d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3"});
  play(*s, "d4c6");  // not capturing is allowed
  CHECK(!s->is_terminal());
}

TEST_CASE("CA-5 mirror rule, one knight: no reflection of the first player's square",
          "[attrition]") {
  auto s = at("attrition");
  play(*s, "N@h1");
  CHECK(s->legal_actions().size() == 60);
  for (const char* banned : {"N@a1", "N@h8", "N@a8"}) {
    CHECK(!is_legal(*s, banned));
    CHECK_THROWS_WITH(s->text_to_action(banned), Catch::Contains("illegal action"));
  }
  CHECK(is_legal(*s, "N@b2"));
  // The rule follows the first seat, not seat 0.
  auto t = at("attrition", "8/8/8/8/8/8/8/8 1 1 11 - 0");
  play(*t, "N@b2");
  CHECK(t->current_player() == 0);
  CHECK(!is_legal(*t, "N@g2"));
  CHECK(!is_legal(*t, "N@b7"));
  CHECK(!is_legal(*t, "N@g7"));
  CHECK(t->legal_actions().size() == 60);
}

TEST_CASE("CA-5 mirror rule, two knights: the pair may not be a reflection of the first pair",
          "[attrition]") {
  // The designer's example: a1/a2 forbids h8/h7 (the 180-degree rotation).
  auto s = at("attrition-2k");
  play(*s, "N@a1 N@a2 N@h8");
  CHECK(s->current_player() == 1);
  CHECK(!is_legal(*s, "N@h7"));
  CHECK(s->legal_actions().size() == 60);  // 61 free squares, one banned
  // Single squares are not restricted: h8 itself was a legal first placement.
  auto u = at("attrition-2k");
  play(*u, "N@a1 N@a2");
  CHECK(u->legal_actions().size() == 62);
  play(*u, "N@a8");  // the top-bottom reflection of a1: a7 would complete {a8, a7}
  CHECK(!is_legal(*u, "N@a7"));
  play(*u, "N@b8");
  CHECK(u->current_player() == 0);
  // Brute-force count of the pair rule at depth 4: 64*63*62*61 less the reflected pairs.
  CHECK(at("attrition-2k")->perft(4) == 15225600);
}

TEST_CASE("CA-5 no mirror rule with 3 or 4 players", "[attrition]") {
  for (const char* id : {"attrition-3p", "attrition-4p"}) {
    auto s = at(id);
    play(*s, "N@h1");
    CHECK(s->legal_actions().size() == 63);
    CHECK(is_legal(*s, "N@a1"));
    CHECK(is_legal(*s, "N@a8"));
    CHECK(is_legal(*s, "N@h8"));
  }
}

TEST_CASE("CA-6 either knight may move, the same one any number of times", "[attrition]") {
  auto s = at("attrition-2k", "a7/8/8/8/3a4/8/8/6bb 0 0 00 - 4");
  CHECK(is_legal(*s, "a8b6"));
  CHECK(is_legal(*s, "d4e6"));
  play(*s, "d4e6 h1f2 e6g5 f2h3 g5e4");
  CHECK(!s->is_terminal());
  CHECK(s->current_player() == 1);
}

TEST_CASE("CA-7 the first seat is part of the position", "[attrition]") {
  auto start = at("attrition");
  CHECK(start->fen() == "8/8/8/8/8/8/8/8 0 0 11 - 0");
  CHECK(start->current_player() == 0);
  auto other = at("attrition", "8/8/8/8/8/8/8/8 1 1 11 - 0");
  CHECK(other->current_player() == 1);
  CHECK(other->hash() != start->hash());
  play(*other, "N@d4");
  CHECK(other->fen() == "8/8/8/8/3b4/8/8/8 0 1 10 - 1");
  auto three = at("attrition-3p", "8/8/8/8/8/8/8/8 2 2 111 - 0");
  for (int seat : {2, 0, 1, 2}) {
    CHECK(three->current_player() == seat);
    three->apply(three->legal_actions().front());
  }
  // The seat to act must follow the turn order from the first seat.
  CHECK_THROWS_AS(at("attrition", "8/8/8/8/8/8/8/8 0 1 11 - 0"), vzero::Error);
  CHECK_THROWS_AS(at("attrition-3p", "8/8/8/8/3a4/8/8/8 2 0 011 - 1"), vzero::Error);
}

TEST_CASE("CA-8 one knight: capturing the opponent's knight wins", "[attrition]") {
  auto s = at("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2");
  play(*s, "d4e6");
  CHECK(s->is_terminal());
  CHECK(s->current_player() == -1);
  CHECK(s->legal_actions().empty());
  CHECK(s->returns() == std::vector<double>{1.0, -1.0});
  CHECK(s->end_reason() == "capture");
  CHECK(s->fen() == "8/8/4a3/8/3x4/8/8/8 - 0 00 1c 3");
}

TEST_CASE("attrition winning_action: a capture or a cornering move that ends the game",
          "[attrition]") {
  // Wins at once: the played action ends the game with the player to act as the winner.
  auto wins = [](const vzero::GameState& s, int action) {
    auto c = s.clone();
    const int me = c->current_player();
    c->apply(action);
    return c->is_terminal() && c->returns()[size_t(me)] == 1.0;
  };
  auto capture = at("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2");
  CHECK(capture->action_to_text(capture->winning_action()) == "d4e6");
  CHECK(at("attrition", "8/8/8/8/3a4/8/8/7b 0 0 00 - 2")->winning_action() == -1);
  CHECK(at("attrition")->winning_action() == -1);
  // Seat 1's knight on a1 has no free leap: any move of seat 0 leaves it stuck.
  auto cornered = at("attrition", "7a/8/8/8/8/1x6/2x5/b7 0 0 00 - 4");
  REQUIRE(cornered->winning_action() >= 0);
  CHECK(wins(*cornered, cornered->winning_action()));
  // One free leap left (c2): taking it puts seat 0's knight where a1 captures it.
  CHECK(at("attrition", "7x/8/8/8/3a4/1x6/8/b7 0 0 00 - 4")->winning_action() == -1);
  // Two knights: under ending both one capture is not a win, under ending one it is.
  CHECK(at("attrition-2k", "a7/8/4b3/8/3a4/5b2/8/8 0 0 00 - 8")->winning_action() == -1);
  auto sudden = at("attrition-2k-sudden", "a7/8/4b3/8/3a4/5b2/8/8 0 0 00 - 8");
  REQUIRE(sudden->winning_action() >= 0);
  CHECK(wins(*sudden, sudden->winning_action()));
  // Three players: a capture that leaves a third seat in play does not end the game.
  CHECK(at("attrition-3p", "7c/8/4b3/8/3a4/8/8/8 0 0 000 - 3")->winning_action() == -1);
  // Over or capped: none.
  auto over = at("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2");
  play(*over, "d4e6");
  CHECK(over->winning_action() == -1);
}

TEST_CASE("CA-8 one knight: a player with no legal move at his turn loses", "[attrition]") {
  // Seat 1's knight on a1 sees only the markers on b3 and c2.
  auto s = at("attrition", "7a/8/8/8/8/1x6/2x5/b7 0 0 00 - 4");
  CHECK(!s->is_terminal());
  play(*s, "h8g6");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "no-move");
  CHECK(s->returns() == std::vector<double>{1.0, -1.0});
  CHECK(s->plies() == 1);  // the loss is automatic, not a ply
  CHECK(s->fen() == "7x/8/6a1/8/8/1x6/2x5/b7 - 0 00 1m 5");
  // The same from a FEN with seat 1 to act: settled on reading.
  auto t = at("attrition", "7a/8/8/8/8/1x6/2x5/b7 1 0 00 - 4");
  CHECK(t->is_terminal());
  CHECK(t->fen() == "7a/8/8/8/8/1x6/2x5/b7 - 0 00 1m 4");
  CHECK(t->returns() == std::vector<double>{1.0, -1.0});
  // A capture is a legal move: a knight that can only capture is not stuck.
  auto u = at("attrition", "7x/8/8/8/8/1x6/2a5/b7 1 0 00 - 4");
  CHECK(legal_texts(*u) == std::vector<std::string>{"a1c2"});
}

TEST_CASE("CA-9 two knights, ending both: one capture is not enough", "[attrition]") {
  auto s = at("attrition-2k", "a7/8/4b3/8/3a4/5b2/8/8 0 0 00 - 8");
  play(*s, "d4e6");
  CHECK(!s->is_terminal());
  CHECK(s->current_player() == 1);
  CHECK(s->fen() == "a7/8/4a3/8/3x4/5b2/8/8 1 0 00 - 9");
  play(*s, "f3g5 e6g5");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "capture");
  CHECK(s->returns() == std::vector<double>{1.0, -1.0});
}

TEST_CASE("CA-9 two knights, ending both: a player with no move for any knight loses",
          "[attrition]") {
  // Seat 1: a1 is stuck (b3, c2 marked), h1 still has g3.
  auto s = at("attrition-2k", "a2a4/8/8/8/8/1x6/2x2x2/b6b 1 0 00 - 12");
  CHECK(!s->is_terminal());
  CHECK(legal_texts(*s) == std::vector<std::string>{"h1g3"});
  auto t = at("attrition-2k", "a2a4/8/8/8/8/1x4x1/2x2x2/b6b 1 0 00 - 12");
  CHECK(t->is_terminal());
  CHECK(t->end_reason() == "no-move");
  CHECK(t->returns() == std::vector<double>{1.0, -1.0});
}

TEST_CASE("CA-10 two knights, ending one: losing one knight loses", "[attrition]") {
  auto s = at("attrition-2k-sudden", "a7/8/4b3/8/3a4/5b2/8/8 0 0 00 - 8");
  play(*s, "d4e6");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "capture");
  CHECK(s->returns() == std::vector<double>{1.0, -1.0});
  CHECK(s->fen() == "a7/8/4a3/8/3x4/5b2/8/8 - 0 00 1c 9");
}

TEST_CASE("CA-10 two knights, ending one: a stuck knight at the start of his turn loses",
          "[attrition]") {
  // The same position under ending both goes on (CA-9 test above).
  auto s = at("attrition-2k-sudden", "a2a4/8/8/8/8/1x6/2x2x2/b6b 1 0 00 - 12");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "no-move");
  CHECK(s->returns() == std::vector<double>{1.0, -1.0});
  // Checked at the start of his turn only: while seat 0 acts, nothing happens.
  auto t = at("attrition-2k-sudden", "a2a4/8/8/8/8/1x6/2x2x2/b6b 0 0 00 - 12");
  CHECK(!t->is_terminal());
  CHECK(t->current_player() == 0);
  play(*t, "a8b6");
  CHECK(t->is_terminal());
  CHECK(t->plies() == 1);
  CHECK(t->returns() == std::vector<double>{1.0, -1.0});
  // With two knights placed and free, play goes on.
  auto u = at("attrition-2k-sudden");
  play(*u, "N@d4 N@e4 N@c6 N@f6");
  CHECK(!u->is_terminal());
  // In perft: under ending one every line ends at seat 1's turn.
  const std::string fen = "a2a4/8/8/8/8/1x6/2x2x2/b6b 0 0 00 - 12";
  CHECK(at("attrition-2k-sudden", fen)->perft(2) == 0);
  CHECK(at("attrition-2k", fen)->perft(2) == at("attrition-2k", fen)->perft(1));
}

TEST_CASE("CA-11 three players: capture puts a seat out, turns skip it, returns +1 0 -1",
          "[attrition]") {
  auto s = at("attrition-3p", "8/8/4b3/8/3a1c2/8/8/8 0 0 000 - 3");
  play(*s, "d4e6");
  CHECK(!s->is_terminal());
  CHECK(s->current_player() == 2);  // seat 1 is out
  CHECK(s->fen() == "8/8/4a3/8/3x1c2/8/8/8 2 0 000 1c 4");
  play(*s, "f4g6");
  CHECK(s->current_player() == 0);  // 2 -> 0, skipping seat 1
  s->undo();
  play(*s, "f4e6");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "last-standing");
  CHECK(s->fen() == "8/8/4c3/8/3x1x2/8/8/8 - 0 000 1c0c 5");
  const std::vector<double> r = s->returns();
  CHECK(r == std::vector<double>{0.0, -1.0, 1.0});
  CHECK(sum(r) == Approx(0.0));
}

TEST_CASE("CA-11 four players: no move at one's turn is out, knights leave, markers stay",
          "[attrition]") {
  // Seats 1 (a1) and 2 (h1) are stuck; seat 0 moves, then both go out in turn.
  auto s = at("attrition-4p", "8/8/8/8/3a1d2/1x4x1/2x2x2/b6c 0 0 0000 - 8");
  play(*s, "d4e6");
  CHECK(s->current_player() == 3);
  CHECK(s->plies() == 1);
  CHECK(s->fen() == "8/8/4a3/8/3x1d2/1x4x1/2x2x2/x6x 3 0 0000 1m2m 9");
  play(*s, "f4e6");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "last-standing");
  const std::vector<double> r = s->returns();
  REQUIRE(r.size() == 4);
  CHECK(r[1] == Approx(-1.0));
  CHECK(r[2] == Approx(-1.0 / 3));
  CHECK(r[0] == Approx(1.0 / 3));
  CHECK(r[3] == Approx(1.0));
  CHECK(sum(r) == Approx(0.0));
  // Undo restores the seats out exactly.
  s->undo();
  s->undo();
  CHECK(s->fen() == "8/8/8/8/3a1d2/1x4x1/2x2x2/b6c 0 0 0000 - 8");
}

TEST_CASE("CA-11 four players: the last seat left wins after a chain of eliminations",
          "[attrition]") {
  // Seat 0 captures seat 3; seats 1 and 2 are stuck: seat 0 is left alone.
  auto s = at("attrition-4p", "8/8/4d3/8/3a4/1x4x1/2x2x2/b6c 0 0 0000 - 8");
  play(*s, "d4e6");
  CHECK(s->is_terminal());
  CHECK(s->fen() == "8/8/4a3/8/3x4/1x4x1/2x2x2/x6x - 0 0000 3c1m2m 9");
  const std::vector<double> r = s->returns();
  CHECK(r[3] == Approx(-1.0));
  CHECK(r[1] == Approx(-1.0 / 3));
  CHECK(r[2] == Approx(1.0 / 3));
  CHECK(r[0] == Approx(1.0));
}

TEST_CASE("CA-12 perft of attrition from the empty board", "[attrition][perft]") {
  auto s = at("attrition");
  const uint64_t expected[] = {64, 3840, 20160, 101184, 484968};
  for (int d = 1; d <= 5; ++d) CHECK(s->perft(d) == expected[d - 1]);
  CHECK(s->perft(0) == 1);
}

TEST_CASE("attrition FEN: positions round-trip with the same hash", "[attrition][fen]") {
  const std::pair<const char*, const char*> cases[] = {
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 0"},
      {"attrition", "8/8/8/8/3b4/8/8/8 0 1 10 - 1"},
      {"attrition", "7x/8/6a1/8/8/1x6/2x5/b7 - 0 00 1m 5"},
      {"attrition-3p", "8/8/4a3/8/3x1c2/8/8/8 2 0 000 1c 4"},
      {"attrition-4p", "8/8/4a3/8/3x1d2/1x4x1/2x2x2/x6x 3 0 0000 1m2m 9"},
      {"attrition-2k", "8/8/8/8/3a4/8/8/8 0 0 12 - 1"},
      {"attrition-2k", "a7/8/4a3/8/3x4/5b2/8/8 1 0 00 - 9"},
      {"attrition-2k-sudden", "a7/8/4a3/8/3x4/5b2/8/8 - 0 00 1c 9"},
  };
  for (const auto& [id, fen] : cases) {
    INFO(id << " " << fen);
    auto s = at(id, fen);
    CHECK(s->fen() == fen);
    CHECK(at(id, s->fen())->hash() == s->hash());
  }
  // The hash tells apart seat to act, first seat, placements and seats out,
  // but not the ply counter.
  const auto h = [](const char* id, const char* fen) { return at(id, fen)->hash(); };
  CHECK(h("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2") !=
        h("attrition", "8/8/4b3/8/3a4/8/8/8 1 0 00 - 2"));
  CHECK(h("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2") !=
        h("attrition", "8/8/4b3/8/3a4/8/8/8 0 1 00 - 2"));
  CHECK(h("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 2") ==
        h("attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 - 7"));
  CHECK(h("attrition-2k", "8/8/8/8/3a4/8/8/8 0 0 12 - 1") !=
        h("attrition-2k", "8/8/8/8/4a3/8/8/8 0 0 12 - 1"));
  CHECK(h("attrition-4p", "8/8/4a3/8/3x1d2/1x4x1/2x2x2/x6x 3 0 0000 1m2m 9") !=
        h("attrition-4p", "8/8/4a3/8/3x1d2/1x4x1/2x2x2/x6x 3 0 0000 2m1m 9"));
}

TEST_CASE("attrition FEN: malformed and hostile text is rejected", "[attrition][fen]") {
  const std::pair<const char*, std::string> bad[] = {
      {"attrition", " "},
      {"attrition", "8/8/8/8/8/8/8 0 0 11 - 0"},            // 7 ranks
      {"attrition", "8/8/8/8/8/8/8/8/8 0 0 11 - 0"},        // 9 ranks
      {"attrition", "8/8/8/8/8/8/8/7 0 0 11 - 0"},          // short rank
      {"attrition", "8/8/8/8/8/8/8/9 0 0 11 - 0"},          // 9 empties
      {"attrition", "8/8/8/8/8/8/8/x8 0 0 11 - 0"},         // long rank
      {"attrition", "8/8/8/8/8/8/8/08 0 0 11 - 0"},         // zero count
      {"attrition", "8/8/8/8/8/8/8/44 0 0 11 - 0"},         // two digits in a row
      {"attrition", "8/8/8/8/3y4/8/8/8 0 0 11 - 0"},        // unknown letter
      {"attrition", "8/8/8/8/3c4/8/8/7b 0 0 00 - 2"},       // seat 2 in a 2-player game
      {"attrition", "aa6/8/8/8/8/8/8/7b 0 0 00 - 3"},       // two knights for seat 0
      {"attrition-2k", "aaa5/8/8/8/8/8/8/6bb 0 0 00 - 5"},  // three knights
      {"attrition", "8/8/8/8/8/8/8/8 5 0 11 - 0"},          // seat to act
      {"attrition", "8/8/8/8/8/8/8/8 x 0 11 - 0"},
      {"attrition", "8/8/8/8/8/8/8/8 0 2 11 - 0"},   // first seat
      {"attrition", "8/8/8/8/8/8/8/8 0 0 111 - 0"},  // knights to place per seat
      {"attrition", "8/8/8/8/8/8/8/8 0 0 21 - 0"},   // 2 knights in a 1-knight game
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - -1"},  // ply
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 01"},
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 99999999999999999999"},
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 9999999"},
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 -"},          // missing field
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 0 extra"},  // extra field
      {"attrition", "8/8/8/8/8/8/8/8  0 0 11 - 0"},       // double space
      {"attrition", "8/8/8/8/8/8/8/8 0 0 11 - 0 \xff\xfe"},
      {"attrition", "////////"},
      {"attrition", "8/8/8/8/8/8/8/8/ 0 0 11 - 0"},
      {"attrition", std::string(5000, '8')},
      {"attrition", "x7/8/8/8/8/8/8/8 0 0 11 - 0"},            // marker before any move
      {"attrition", "8/8/8/8/3a4/8/8/8 0 0 01 - 1"},           // seat 0 to act after placing
      {"attrition", "8/8/8/8/8/8/8/7b 0 0 00 - 3"},            // seat 0 in play without a knight
      {"attrition", "8/8/4b3/8/3a4/8/8/8 0 0 00 1c 2"},        // out but game not over
      {"attrition", "8/8/4b3/8/3a4/8/8/8 - 0 00 - 2"},         // over but nobody out
      {"attrition", "8/8/4a3/8/3x4/8/8/8 - 0 00 1x 3"},        // bad way out
      {"attrition", "8/8/4a3/8/3x4/8/8/8 - 0 00 1c1c 3"},      // out twice
      {"attrition-3p", "8/8/4a3/8/3x1b2/8/8/8 2 0 000 1c 4"},  // out seat still on the board
      {"attrition-3p", "8/8/4a3/8/3x1c2/8/8/8 1 0 000 1c 4"},  // out seat to act
      {"attrition-3p", "8/8/8/8/3d4/8/8/8 0 0 111 - 0"},       // seat 3 of 3
      {"attrition-2k-sudden", "a7/8/8/8/3x4/5b2/8/8 1 0 00 - 9"},  // in play with one knight
  };
  for (const auto& [id, fen] : bad) {
    INFO(id << " '" << fen << "'");
    CHECK_THROWS_AS(at(id, fen), vzero::Error);
  }
  CHECK_THROWS_WITH(at("attrition", "8/8/8/8/8/8/8/7 0 0 11 - 0"), Catch::Contains("rank 1"));
}

TEST_CASE("attrition actions: a fixed numbering and clear errors for bad text", "[attrition]") {
  const vzero::Game& g = vzero::game_by_id("attrition");
  CHECK(g.num_actions() == 400);
  CHECK(g.action_text(0) == "N@a1");
  CHECK(g.action_text(27) == "N@d4");
  CHECK(g.action_text(63) == "N@h8");
  CHECK(g.action_text(64) == "a1c2");
  CHECK(g.action_text(65) == "a1b3");
  CHECK(g.action_text(399) == "h8f7");
  for (int a = 0; a < g.num_actions(); ++a)
    CHECK(vzero::AttritionRules::action_of_name(g.action_text(a)) == a);
  CHECK(vzero::game_by_id("attrition-4p").action_text(200) == g.action_text(200));

  auto s = at("attrition", "8/8/8/8/3a4/8/8/7b 0 0 00 - 2");
  CHECK(s->text_to_action("d4e6") == vzero::AttritionRules::move_action(27, 44));
  CHECK_THROWS_WITH(s->text_to_action(""), Catch::Contains("malformed action"));
  CHECK_THROWS_WITH(s->text_to_action("d4"), Catch::Contains("malformed action"));
  CHECK_THROWS_WITH(s->text_to_action("N@"), Catch::Contains("malformed action"));
  CHECK_THROWS_WITH(s->text_to_action("d4-e6"), Catch::Contains("malformed action"));
  CHECK_THROWS_WITH(s->text_to_action("Q@d4"), Catch::Contains("illegal action"));
  CHECK_THROWS_WITH(s->text_to_action("d4d5"), Catch::Contains("illegal action"));
  CHECK_THROWS_WITH(s->text_to_action("d4e6q"), Catch::Contains("illegal action"));
  CHECK_THROWS_WITH(s->text_to_action("i4j6"), Catch::Contains("illegal action"));
  CHECK_THROWS_WITH(s->text_to_action("N@d9"), Catch::Contains("illegal action"));
  CHECK_THROWS_WITH(s->text_to_action("N@e5"), Catch::Contains("illegal action"));  // not placing
  CHECK_THROWS_WITH(s->text_to_action("h1g3"),
                    Catch::Contains("illegal action"));  // not his knight
  CHECK_THROWS_AS(s->apply(vzero::AttritionRules::move_action(7, 22)), vzero::Error);
  CHECK_THROWS_AS(s->apply(-1), vzero::Error);
  CHECK_THROWS_AS(s->apply(400), vzero::Error);
  CHECK_THROWS_AS(g.action_text(400), vzero::Error);
}

TEST_CASE("attrition state: undo, clone, cap and the diagram", "[attrition]") {
  auto s = at("attrition");
  CHECK_THROWS_AS(s->undo(), vzero::Error);
  play(*s, "N@d4 N@f4");
  auto c = s->clone();
  play(*c, "d4c6");
  CHECK(s->fen() == "8/8/8/8/3a1b2/8/8/8 0 0 00 - 2");
  CHECK(c->plies() == 3);
  c->undo();
  CHECK(c->fen() == s->fen());
  CHECK(c->hash() == s->hash());

  // The cap counts the game's plies, the FEN's counter included, and is a draw.
  s->set_max_plies(3);
  play(*s, "d4c6");
  CHECK(s->is_terminal());
  CHECK(s->end_reason() == "cap");
  CHECK(s->current_player() == -1);
  CHECK(s->legal_actions().empty());
  CHECK(s->returns() == std::vector<double>{0.0, 0.0});
  CHECK_THROWS_AS(s->apply(s->text_to_action("f4e2")), vzero::Error);
  CHECK(s->perft(1) > 0);  // the cap does not cut perft short
  s->undo();
  CHECK(!s->is_terminal());
  auto late = at("attrition", "8/8/8/8/3ab3/8/8/8 0 0 00 - 199");
  play(*late, "d4c6");
  CHECK(late->end_reason() == "cap");
  auto four = at("attrition-4p");
  four->set_max_plies(2);
  play(*four, "N@a1 N@b1");
  CHECK(four->returns() == std::vector<double>{0.0, 0.0, 0.0, 0.0});

  const std::string text =
      at("attrition-4p", "8/8/4a3/8/3x1d2/1x4x1/2x2x2/x6x 3 0 0000 1m2m 9")->to_text();
  CHECK_THAT(text, Catch::Contains("Seat 3 to act"));
  CHECK_THAT(text, Catch::Contains("seat 1 (no move)"));
  CHECK_THAT(text, Catch::Contains("6 . . . . 0 . . ."));
  CHECK_THAT(at("attrition-2k")->to_text(), Catch::Contains("2 still to place"));
}

TEST_CASE("attrition FEN: mutated FENs are rejected or read into positions that round-trip",
          "[attrition][fen]") {
  std::mt19937_64 rng(2024);
  const std::string alphabet = "abcdexy0123456789/- cm";
  for (const char* id :
       {"attrition", "attrition-3p", "attrition-4p", "attrition-2k", "attrition-2k-sudden"}) {
    // FENs along a random game, then random one-character edits of them.
    std::vector<std::string> fens;
    auto s = at(id);
    while (!s->is_terminal()) {
      fens.push_back(s->fen());
      s->apply(s->legal_actions()[rng() % s->legal_actions().size()]);
    }
    fens.push_back(s->fen());
    for (int i = 0; i < 400; ++i) {
      std::string f = fens[rng() % fens.size()];
      const size_t pos = rng() % f.size();
      switch (rng() % 3) {
        case 0:
          f[pos] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          f.erase(pos, 1);
          break;
        default:
          f.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
      INFO(id << " '" << f << "'");
      std::unique_ptr<vzero::GameState> m;
      try {
        m = at(id, f);
      } catch (const vzero::Error&) {
        continue;
      }
      auto again = at(id, m->fen());
      CHECK(again->fen() == m->fen());
      CHECK(again->hash() == m->hash());
      CHECK(m->is_terminal() == m->legal_actions().empty());
    }
  }
}

namespace {

// The return of seat with best play by both, by exhaustive search (2 players, +1 or -1 only).
double best_return(vzero::GameState& s, int seat) {
  if (s.is_terminal()) return s.returns()[size_t(seat)];
  const int mover = s.current_player();
  const std::vector<int> actions = s.legal_actions();
  for (int a : actions) {
    s.apply(a);
    const double v = best_return(s, mover);
    s.undo();
    if (v > 0) return mover == seat ? 1.0 : -1.0;  // the mover wins with a
  }
  return mover == seat ? -1.0 : 1.0;
}

// The longest knight path from sq over free by plain depth-first search.
int plain_longest_path(int sq, uint64_t free) {
  int best = 0;
  for (int to = 0; to < 64; ++to) {
    const int df = std::abs(to % 8 - sq % 8), dr = std::abs(to / 8 - sq / 8);
    if ((free >> to & 1) && df * dr == 2)
      best = std::max(best, 1 + plain_longest_path(to, free & ~(uint64_t(1) << to)));
  }
  return best;
}

// Knight d4 (seat 0) walks the lower left (longest path 6; d4e2 is a dead end), knight h8
// (seat 1) the upper right (f7 h6 g8: 3); no square of either is a leap from the other's.
const char* kSeparated = "xxxxxx1b/xxxxx1xx/x1xx1xx1/xx1xxxxx/1xxaxxxx/x1xxxxxx/xx1x1xxx/1xxxxxxx";

}  // namespace

TEST_CASE("attrition solver: separated knights, the longer path wins, a tie loses for the mover",
          "[attrition][solver]") {
  using vzero::attrition_longest_path;
  auto s = at("attrition", std::string(kSeparated) + " 0 0 00 - 53");
  CHECK(s->solved_returns() == std::vector<double>{1.0, -1.0});
  CHECK(best_return(*s, 0) == 1.0);
  auto seat1 = at("attrition", std::string(kSeparated) + " 1 0 00 - 53");  // 3 < 6: seat 1 loses
  CHECK(seat1->solved_returns() == std::vector<double>{1.0, -1.0});
  CHECK(best_return(*seat1, 1) == -1.0);
  // d4e2 leaves seat 0 no path: seat 1 to act wins with f7.
  auto dead_end = s->clone();
  play(*dead_end, "d4e2");
  CHECK(dead_end->solved_returns() == std::vector<double>{-1.0, 1.0});
  // d4b3 leaves seat 0 a path of 3 (b3 c5 a4 b6) against seat 1's 3: seat 1 to act runs out first.
  auto tie = s->clone();
  play(*tie, "d4b3");
  CHECK(tie->solved_returns() == std::vector<double>{1.0, -1.0});
  play(*tie, "h8f7");
  CHECK(tie->solved_returns() == std::vector<double>{1.0, -1.0});  // 3 against 2
  play(*tie, "b3a1");  // 1 (a1 c2) against 2: seat 1 to act now wins
  CHECK(tie->solved_returns() == std::vector<double>{-1.0, 1.0});
  CHECK(best_return(*tie, 1) == 1.0);

  // Knights that can still meet, unplaced knights, a game over, other variants: nothing solved.
  CHECK(!at("attrition")->solved_returns());
  CHECK(!at("attrition", "8/8/8/8/3a4/8/8/7b 0 0 00 - 2")->solved_returns());
  CHECK(!at("attrition", "8/8/8/8/3a4/8/8/8 1 0 01 - 1")->solved_returns());
  auto over = at("attrition", std::string(kSeparated) + " 0 0 00 - 53");
  play(*over, "d4e2 h8f7");
  REQUIRE(over->is_terminal());
  CHECK(!over->solved_returns());
  CHECK(!at("attrition-3p")->solved_returns());
  // The cap would come before the end: left to the search.
  auto near_cap = at("attrition", std::string(kSeparated) + " 0 0 00 - 53");
  near_cap->set_max_plies(59);
  CHECK(!near_cap->solved_returns());
  near_cap->set_max_plies(60);
  CHECK(near_cap->solved_returns() == std::vector<double>{1.0, -1.0});

  // Longest paths against plain search on random sparse regions.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    uint64_t region = 0;
    const int squares = 4 + int(rng() % 13);
    while (__builtin_popcountll(region) < squares) region |= uint64_t(1) << (rng() % 64);
    const int sq = int(rng() % 64);
    region &= ~(uint64_t(1) << sq);
    INFO("square " << sq << " region " << region);
    const std::optional<int> l = attrition_longest_path(sq, region);
    REQUIRE(l);
    CHECK(*l == plain_longest_path(sq, region));
  }
}

TEST_CASE("attrition solver: every separated position of random games agrees with full search",
          "[attrition][solver]") {
  std::mt19937_64 rng(11);
  int checked = 0, seen_wins_for_mover = 0;
  for (int game = 0; game < 2000; ++game) {
    auto s = at("attrition");
    while (!s->is_terminal()) {
      const std::vector<int>& legal = s->legal_actions();
      s->apply(legal[rng() % legal.size()]);
      const auto solved = s->solved_returns();
      if (!solved || s->is_terminal()) continue;
      // Exhaustive search is cheap only near the end.
      const std::string fen = s->fen();
      int free_squares = 0;
      for (char c : fen.substr(0, fen.find(' ')))
        if (c >= '1' && c <= '8') free_squares += c - '0';
      if (free_squares > 22) continue;
      INFO(fen);
      const int mover = s->current_player();
      CHECK((*solved)[size_t(mover)] == best_return(*s, mover));
      seen_wins_for_mover += (*solved)[size_t(mover)] > 0;
      ++checked;
    }
  }
  CHECK(checked > 200);
  CHECK(seen_wins_for_mover > 20);
  CHECK(checked - seen_wins_for_mover > 20);
}
