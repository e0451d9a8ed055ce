// Board symmetries: names, square and action maps, and a conformance run over
// every variant that declares symmetries: mapped games are legal games with
// mapped inputs and the same results.
#include <algorithm>
#include <catch.hpp>
#include <random>
#include <set>

#include "game/builtin/games.h"
#include "game/symmetry.h"
#include "game/variant.h"
#include "util/error.h"

using namespace vzero;

namespace {

int action_of(const Game& g, const std::string& text) {
  for (int a = 0; a < g.num_actions(); ++a)
    if (g.action_text(a) == text) return a;
  return -1;
}

std::string image(const Game& g, const std::string& sym, const std::string& action) {
  for (const BoardSymmetry& s : board_symmetries(g))
    if (s.name == sym) return g.action_text(s.action[size_t(action_of(g, action))]);
  return "";
}

// Plays `games` random games of g and their images under s side by side, move for mapped move:
// the image of the legal actions is the legal action set of the image, the inputs map, the
// results agree.
void check_twin_games(const Game& g, const BoardSymmetry& s, int games, std::mt19937& rng) {
  const EncodingSpec& e = g.encoding();
  const size_t area = size_t(e.plane_size());
  for (int game = 0; game < games; ++game) {
    auto a = g.new_state(), b = g.new_state();
    std::vector<uint8_t> pa(size_t(e.planes) * area), pb(pa.size());
    std::vector<uint8_t> mapped_planes(pa.size());
    std::vector<float> sa(size_t(e.scalars)), sb(sa.size());
    while (!a->is_terminal()) {
      std::set<int> mapped;
      for (int x : a->legal_actions()) mapped.insert(s.action[size_t(x)]);
      const std::set<int> legal(b->legal_actions().begin(), b->legal_actions().end());
      REQUIRE(mapped == legal);
      REQUIRE(a->current_player() == b->current_player());
      a->encode(pa.data(), sa.data());
      b->encode(pb.data(), sb.data());
      REQUIRE(sa == sb);
      map_planes(s, e, pa.data(), mapped_planes.data());
      REQUIRE(mapped_planes == pb);
      const std::vector<int>& moves = a->legal_actions();
      const int x = moves[rng() % moves.size()];
      a->apply(x);
      b->apply(s.action[size_t(x)]);
    }
    REQUIRE(b->is_terminal());
    REQUIRE(a->returns() == b->returns());
  }
}

}  // namespace

TEST_CASE("symmetry: square maps", "[symmetry]") {
  const auto at = [](const std::string& name, int f, int r) {
    map_square(name, 8, 8, f, r);
    return std::string(1, char('a' + f)) + std::to_string(r + 1);
  };
  CHECK(at("mirror-files", 1, 0) == "g1");
  CHECK(at("mirror-ranks", 1, 0) == "b8");
  CHECK(at("rotate-180", 1, 0) == "g8");
  CHECK(at("transpose", 1, 0) == "a2");
  CHECK(at("anti-transpose", 1, 0) == "h7");
  CHECK(at("rotate-90", 0, 0) == "a8");  // clockwise
  CHECK(at("rotate-90", 7, 0) == "a1");
  CHECK(at("rotate-270", 0, 0) == "h1");
  // On a 10 x 8 board the file mirror maps a to j.
  int f = 0, r = 2;
  map_square("mirror-files", 10, 8, f, r);
  CHECK((f == 9 && r == 2));
}

TEST_CASE("symmetry: variant files declare them, bad declarations are errors", "[symmetry]") {
  // CA-5: the mirror-rule set is closed under every board symmetry, so attrition declares all
  // seven.
  for (const char* id :
       {"attrition", "attrition-2k", "attrition-2k-sudden", "attrition-3p", "attrition-4p"})
    CHECK(builtin_variant(id).symmetries.size() == 7);
  for (const char* id : {"chess", "grand", "ascending", "007", "007-detente", "world", "parachute"})
    CHECK(builtin_variant(id).symmetries.empty());
  const std::string base =
      "id = \"t\"\nfiles = 10\nranks = 8\nstart = \"10/10/10/10/10/10/10/10 w - - 0 1\"\n";
  const std::string piece = "[[piece]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
  CHECK(parse_variant(base + "symmetries = [\"mirror-files\"]\n" + piece, "t").symmetries.size() ==
        1);
  CHECK_THROWS_AS(parse_variant(base + "symmetries = [\"transpose\"]\n" + piece, "t"),
                  Error);  // not square
  CHECK_THROWS_AS(parse_variant(base + "symmetries = [\"flip\"]\n" + piece, "t"), Error);
  CHECK_THROWS_AS(parse_variant(base + "symmetries = [1]\n" + piece, "t"), Error);
  CHECK_THROWS_AS(
      parse_variant(base + "symmetries = [\"mirror-files\", \"mirror-files\"]\n" + piece, "t"),
      Error);
}

TEST_CASE("symmetry: attrition actions map through their squares", "[symmetry]") {
  const Game& g = game_by_id("attrition");
  CHECK(image(g, "transpose", "N@b1") == "N@a2");
  CHECK(image(g, "mirror-files", "N@h1") == "N@a1");
  CHECK(image(g, "rotate-180", "a1b3") == "h8g6");
  CHECK(image(g, "rotate-90", "a1c2") == "a8b6");
  for (const BoardSymmetry& s : board_symmetries(g)) {
    std::vector<int> sorted = s.action;
    std::sort(sorted.begin(), sorted.end());
    for (int a = 0; a < g.num_actions(); ++a) REQUIRE(sorted[size_t(a)] == a);  // a permutation
  }
}

TEST_CASE("symmetry: conformance over every variant that declares symmetries",
          "[symmetry][conformance]") {
  for (const std::string& id : game_ids()) {
    const Game& g = game_by_id(id);
    const std::vector<BoardSymmetry> syms = board_symmetries(g);
    if (syms.empty()) continue;
    REQUIRE(g.encoding().height == g.variant().ranks);
    REQUIRE(g.encoding().width == g.variant().files);
    std::mt19937 rng(7);
    for (const BoardSymmetry& s : syms) {
      INFO(id << " " << s.name);
      check_twin_games(g, s, 12, rng);
    }
  }
}

TEST_CASE("symmetry: Parachute's left-right mirror (train.extra_symmetries) is exact",
          "[symmetry]") {
  // Not declared by the variant file (that would change its rules hash), used by the Parachute
  // runs: the start (2nkn2 on 7 files, the same hands) is its own image, no castling, no en
  // passant, and the joker's imitation maps with the board.
  const Game& g = game_by_id("parachute");
  const std::vector<BoardSymmetry> syms = board_symmetries(g, {"mirror-files"});
  REQUIRE(syms.size() == 1);
  std::mt19937 rng(13);
  check_twin_games(g, syms[0], 30, rng);
}
