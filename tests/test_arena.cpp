// Arena tests: seat rotation, scoring and the Elo line.
#include <catch.hpp>
#include <cmath>

#include "game/builtin/games.h"
#include "match/arena.h"
#include "match/players.h"

using namespace vzero;

TEST_CASE("arena: a search beats a random player at attrition, and the line has the promised form",
          "[arena]") {
  const Game& game = game_by_id("attrition");
  PlayerContext ctx;
  ctx.game = &game;
  ArenaConfig c;
  c.games = 20;
  c.progress = false;
  const ArenaResult r = play_arena(game, c, [&](int role, uint64_t seed) {
    PlayerContext p = ctx;
    p.seed = seed;
    return make_player(role == 0 ? "mcts:sims=200,evaluator=heuristic" : "random", p);
  });
  CHECK(r.games == 20);
  CHECK(r.wins + r.draws + r.losses == 20);
  CHECK(r.score >= 0.8);
  CHECK(r.elo > 100);
  CHECK(r.score_by_seat.size() == 2);
  const std::string line = r.summary();
  CHECK(line.rfind("score ", 0) == 0);
  CHECK(line.find(" wins ") != std::string::npos);
  CHECK(line.find(" elo ") != std::string::npos);
  CHECK(line.find(" +- ") != std::string::npos);
}

// Equal players: with the seats rotated, A's expected score is its fair
// share of the wins (ties shared) and its expected rank the middle one.
// Seeded, so the figures repeat; the bounds are about four standard errors.
TEST_CASE(
    "arena: equal players score one half (2 seats) or their share (3 seats), seeded runs repeat",
    "[arena]") {
  const auto run = [&](const std::string& variant, int games, int threads) {
    const Game& game = game_by_id(variant);
    ArenaConfig c;
    c.games = games;
    c.progress = false;
    c.threads = threads;
    return play_arena(game, c, [&](int, uint64_t seed) {
      PlayerContext p;
      p.game = &game;
      p.seed = seed;
      return make_player("random", p);
    });
  };
  const ArenaResult two = run("chess", 200, 2);
  CHECK(two.score == Approx(0.5).margin(0.1));
  CHECK(two.score_lo < 0.5);
  CHECK(two.score_hi > 0.5);
  CHECK(std::abs(two.elo) < two.margin * 2);
  CHECK(two.by_seat[0].games() == 100);
  CHECK(two.by_seat[1].games() == 100);

  const ArenaResult three = run("attrition-3p", 300, 2), again = run("attrition-3p", 300, 1);
  CHECK(three.summary() == again.summary());
  CHECK(three.report() == again.report());
  REQUIRE(three.score_by_seat.size() == 3);
  // Random players seldom tie at attrition: A wins about a third of the games.
  CHECK(three.score == Approx(1.0 / 3.0).margin(0.11));
  CHECK(three.average_rank == Approx(2.0).margin(0.2));
  for (const Trinomial& seat : three.by_seat) CHECK(seat.games() == 100);
}

TEST_CASE("players: specs are checked", "[arena]") {
  const Game& game = game_by_id("chess");
  PlayerContext p;
  p.game = &game;
  CHECK_NOTHROW(make_player("random", p));
  CHECK_NOTHROW(make_player("mcts:sims=10,evaluator=heuristic,cpuct=2", p));
  CHECK_THROWS_WITH(make_player("nobody", p), Catch::Contains("unknown player"));
  CHECK_THROWS_WITH(make_player("mcts:sims=0", p), Catch::Contains("simulations"));
  CHECK_THROWS_WITH(make_player("mcts:simz=10", p), Catch::Contains("unknown key 'simz'"));
  CHECK_THROWS_WITH(make_player("mcts:evaluator=magic", p), Catch::Contains("unknown evaluator"));
  CHECK_THROWS_WITH(make_player("mcts:sims", p), Catch::Contains("key=value"));
  CHECK_THROWS_WITH(make_player("random:x=1", p), Catch::Contains("no options"));
}
