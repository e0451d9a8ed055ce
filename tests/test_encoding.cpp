// Encoding tests: shapes for every variant, the view of the player to act.
#include <catch.hpp>
#include <random>

#include "game/builtin/games.h"
#include "game/encoding.h"
#include "test_util.h"

using namespace vzero;

namespace {

struct Encoded {
  std::vector<uint8_t> planes;
  std::vector<float> scalars;
};

Encoded encode(const GameState& s) {
  const EncodingSpec& e = s.game().encoding();
  Encoded out{std::vector<uint8_t>(size_t(e.planes) * e.plane_size()),
              std::vector<float>(e.scalars)};
  s.encode(out.planes.data(), out.scalars.data());
  return out;
}

int count(const Encoded& x, const EncodingSpec& e, const std::string& plane) {
  for (int p = 0; p < e.planes; ++p)
    if (e.plane_names[p] == plane) {
      int n = 0;
      for (int i = 0; i < e.plane_size(); ++i) n += x.planes[p * e.plane_size() + i];
      return n;
    }
  FAIL("no plane " << plane);
  return -1;
}

}  // namespace

TEST_CASE("encoding: every variant has one, with names for every plane and scalar", "[encoding]") {
  for (const std::string& id : game_ids()) {
    INFO(id);
    const Game& game = game_by_id(id);
    const EncodingSpec& e = game.encoding();
    CHECK(e.planes > 0);
    CHECK(int(e.plane_names.size()) == e.planes);
    CHECK(int(e.scalar_names.size()) == e.scalars);
    CHECK(e.height == game.variant().ranks);
    CHECK(e.width == game.variant().files);
    // Along a random game: planes hold 0/1 and scalars are finite.
    std::mt19937_64 rng(1);
    auto s = game.new_state();
    for (int ply = 0; ply < 60 && !s->is_terminal(); ++ply) {
      const Encoded x = encode(*s);
      for (uint8_t b : x.planes) REQUIRE(b <= 1);
      for (float f : x.scalars) REQUIRE(std::isfinite(f));
      const auto& legal = s->legal_actions();
      s->apply(legal[rng() % legal.size()]);
    }
  }
  // Encodings of different variants hash apart.
  CHECK(encoding_hash(game_by_id("chess")) != encoding_hash(game_by_id("007")));
  CHECK(encoding_hash(game_by_id("attrition")) != encoding_hash(game_by_id("attrition-3p")));
}

TEST_CASE("encoding: chess planes are the player to act's first", "[encoding]") {
  const Game& game = game_by_id("chess");
  const EncodingSpec& e = game.encoding();
  auto s = game.new_state();
  testing::play(*s, {"e2e4"});
  const Encoded x = encode(*s);  // Black to act: "mine" are Black's pieces
  const int area = e.plane_size();
  int pawn = -1;
  for (int p = 0; p < e.planes; ++p)
    if (e.plane_names[p] == "mine pawn") pawn = p;
  REQUIRE(pawn >= 0);
  for (int f = 0; f < 8; ++f) CHECK(x.planes[pawn * area + 6 * 8 + f] == 1);  // rank 7
  CHECK(count(x, e, "theirs pawn") == 8);
  CHECK(x.scalars[0] == 0.0f);  // white to act
}

TEST_CASE("encoding: attrition seats are rotated so that the player to act comes first",
          "[encoding]") {
  const Game& game = game_by_id("attrition-3p");
  const EncodingSpec& e = game.encoding();
  auto s = game.new_state();
  testing::play(*s, {"N@a1", "N@h8"});  // seat 2 to place
  const Encoded x = encode(*s);
  CHECK(count(x, e, "marked") == 2);
  CHECK(count(x, e, "knights of player to act") == 0);
  CHECK(count(x, e, "knights of seat +1") == 1);  // seat 0
  CHECK(x.planes[2 * 64 + 0] == 1);               // seat 0's knight on a1
  CHECK(x.planes[3 * 64 + 63] == 1);              // seat 1's knight on h8
  CHECK(x.scalars[0] == 1.0f);                    // the player to act still places
}
