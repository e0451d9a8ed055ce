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

namespace {

// Reference for attrition's version 2: knight-move distances by (file, rank)
// arithmetic over the unmarked squares, read from version 1's board planes.
std::vector<int> knight_distances_reference(const std::vector<uint8_t>& marked,
                                            const std::vector<int>& from) {
  std::vector<int> dist(64, -1);
  std::vector<int> frontier = from;
  for (int s : from) dist[size_t(s)] = 0;
  while (!frontier.empty()) {
    std::vector<int> next;
    for (int s : frontier)
      for (auto [df, dr] :
           {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}) {
        const int f = s % 8 + df, r = s / 8 + dr, t = r * 8 + f;
        if (f < 0 || f > 7 || r < 0 || r > 7 || marked[size_t(t)] || dist[size_t(t)] >= 0) continue;
        dist[size_t(t)] = dist[size_t(s)] + 1;
        next.push_back(t);
      }
    frontier = next;
  }
  for (int s : from) dist[size_t(s)] = -1;  // a knight's own square is not reached
  return dist;
}

}  // namespace

TEST_CASE("encoding: attrition version 2 adds each seat's knight reach (a reference BFS agrees)",
          "[encoding]") {
  for (const char* id : {"attrition", "attrition-2k", "attrition-3p", "attrition-4p"}) {
    INFO(id);
    const Game& game = game_by_id(id);
    REQUIRE(game.encoding_versions() == 2);
    const EncodingSpec &v1 = game.encoding(1), &v2 = game.encoding(2);
    REQUIRE(&game.encoding() == &v2);
    const int n = game.num_players();
    REQUIRE(v2.planes == v1.planes + 5 * n);
    REQUIRE(v2.scalars == v1.scalars + 3 * n + 2);
    std::mt19937_64 rng(7);
    for (int round = 0; round < 20; ++round) {
      auto s = game.new_state();
      const int plies = int(rng() % 40);
      for (int ply = 0; ply < plies && !s->is_terminal(); ++ply) {
        const auto& legal = s->legal_actions();
        s->apply(legal[rng() % legal.size()]);
      }
      std::vector<uint8_t> p1(size_t(v1.planes) * 64), p2(size_t(v2.planes) * 64);
      std::vector<float> s1(size_t(v1.scalars)), s2(size_t(v2.scalars));
      s->encode(p1.data(), s1.data(), 0, 1);
      s->encode(p2.data(), s2.data(), 0, 2);
      // Version 2 begins with version 1, planes and scalars alike.
      REQUIRE(std::equal(p1.begin(), p1.end(), p2.begin()));
      REQUIRE(std::equal(s1.begin(), s1.end(), s2.begin()));
      const std::vector<uint8_t> marked(p1.begin(), p1.begin() + 64);
      std::vector<std::vector<int>> dist;
      std::vector<std::vector<int>> knights(static_cast<size_t>(n));
      for (int r = 0; r < n; ++r) {
        for (int sq = 0; sq < 64; ++sq)
          if (p1[size_t((1 + r) * 64 + sq)]) knights[size_t(r)].push_back(sq);
        dist.push_back(knight_distances_reference(marked, knights[size_t(r)]));
      }
      const auto plane = [&](int index, int sq) {
        return int(p2[size_t((v1.planes + index) * 64 + sq)]);
      };
      const float* extra = s2.data() + v1.scalars;
      for (int r = 0; r < n; ++r) {
        int moves = 0, reach = 0, first = 0;
        for (int sq = 0; sq < 64; ++sq) {
          const int d = dist[size_t(r)][size_t(sq)];
          for (int k = 1; k <= 3; ++k) REQUIRE(plane(4 * r + k - 1, sq) == (d == k));
          REQUIRE(plane(4 * r + 3, sq) == (d > 0));
          // First to arrive: seat r comes d moves away on turn (d - 1) * n + r.
          int best = -1, best_turn = 1 << 30;
          for (int q = 0; q < n; ++q) {
            const int dq = dist[size_t(q)][size_t(sq)];
            if (dq > 0 && (dq - 1) * n + q < best_turn) best = q, best_turn = (dq - 1) * n + q;
          }
          REQUIRE(plane(4 * n + r, sq) == (best == r));
          moves += d == 1, reach += d > 0, first += best == r;
        }
        CHECK(extra[3 * r] == float(moves) / 8.0f);
        CHECK(extra[3 * r + 1] == float(reach) / 64.0f);
        CHECK(extra[3 * r + 2] == float(first) / 64.0f);
      }
      // Capture flags: a knight leap between the player to act's knights and the others'.
      const auto leap = [](int a, int b) {
        const int df = std::abs(a % 8 - b % 8), dr = std::abs(a / 8 - b / 8);
        return (df == 1 && dr == 2) || (df == 2 && dr == 1);
      };
      bool can = false;
      for (int a : knights[0])
        for (int r = 1; r < n; ++r)
          for (int b : knights[size_t(r)]) can = can || leap(a, b);
      CHECK(extra[3 * n] == float(can));
      CHECK(extra[3 * n + 1] == float(can));  // knight leaps are symmetric
    }
  }
}

TEST_CASE("encoding: attrition version 1 stays as the shipped model reads it", "[encoding]") {
  const Game& game = game_by_id("attrition");
  // The hash models of version 1 carry (the attrition model shipped until session 56).
  CHECK(encoding_hash(game, 1) == 0xeb16955f84f7d11cull);
  CHECK(encoding_hash(game) == encoding_hash(game, 2));
  CHECK(encoding_hash(game, 1) != encoding_hash(game, 2));
  // After N@a1 N@g8 the player to act (seat 0) reaches b3 and c2 in one move,
  // nine squares in two; seat 1 e7, f6 and h6 in one.
  auto s = game.new_state();
  testing::play(*s, {"N@a1", "N@g8"});
  const Encoded x = encode(*s);
  const EncodingSpec& e = game.encoding();
  CHECK(count(x, e, "free squares 1 knight move from player to act") == 2);
  CHECK(count(x, e, "free squares 2 knight moves from player to act") == 9);
  CHECK(count(x, e, "free squares 1 knight move from seat +1") == 3);
  CHECK(count(x, e, "free squares reachable by player to act") == 62);
  CHECK_THROWS_WITH(game.encoding(3), Catch::Contains("no encoding version 3"));
  std::vector<uint8_t> planes(size_t(e.planes) * 64);
  std::vector<float> scalars(size_t(e.scalars));
  CHECK_THROWS_WITH(s->encode(planes.data(), scalars.data(), 0, 0), Catch::Contains("version 0"));
  for (const std::string& id : game_ids())
    if (game_by_id(id).variant().hook != "attrition")
      CHECK(game_by_id(id).encoding_versions() == 1);
}
