// Arena tests: seat rotation, scoring and the Elo line.
#include <catch.hpp>

#include "mcts/arena.h"
#include "mcts/players.h"

using namespace vzero;

TEST_CASE("arena: a search beats a random player at attrition, and the line has the promised form", "[arena]") {
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

TEST_CASE("arena: equal players on a symmetric start score one half, seeded runs repeat", "[arena]") {
  const Game& game = game_by_id("attrition-3p");
  ArenaConfig c;
  c.games = 12;
  c.progress = false;
  c.threads = 2;
  const auto run = [&] {
    return play_arena(game, c, [&](int, uint64_t seed) {
      PlayerContext p;
      p.game = &game;
      p.seed = seed;
      return make_player("random", p);
    });
  };
  const ArenaResult a = run(), b = run();
  CHECK(a.summary() == b.summary());
  CHECK(a.score_by_seat.size() == 3);
}

TEST_CASE("arena: Elo of a score", "[arena]") {
  CHECK(elo_of_score(0.5) == Approx(0.0).margin(1e-9));
  CHECK(elo_of_score(0.75) == Approx(190.85).epsilon(1e-3));
  CHECK(elo_of_score(0.25) == Approx(-190.85).epsilon(1e-3));
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
