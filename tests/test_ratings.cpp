// Ratings: synthetic games from known Elos are recovered within their
// intervals; a real round robin is ordered as its head-to-head scores;
// disconnected players and perfect scores stay finite, with notes.
#include <catch.hpp>
#include <cmath>
#include <map>

#include "game/builtin/games.h"
#include "game/zobrist.h"
#include "match/arena.h"
#include "match/ratings.h"
#include "test_util.h"

using namespace vzero;

namespace {

MatchRecord game(const std::vector<std::string>& players, const std::vector<double>& result) {
  MatchRecord r;
  r.players = players;
  r.result = result;
  return r;
}

// A round robin between players of known Elo: each pair plays `games` games,
// 20% draws, the rest won with the logistic expectation.
std::vector<MatchRecord> synthetic(const std::map<std::string, double>& elo, int games,
                                   uint64_t seed) {
  std::vector<MatchRecord> out;
  const auto uniform = [&] { return (splitmix64(seed) >> 11) * (1.0 / 9007199254740992.0); };
  for (auto a = elo.begin(); a != elo.end(); ++a)
    for (auto b = std::next(a); b != elo.end(); ++b)
      for (int k = 0; k < games; ++k) {
        const double expected = score_of_elo(a->second - b->second), draw = 0.2;
        const double u = uniform();
        const double s = u < expected - draw / 2 ? 1.0 : u < expected + draw / 2 ? 0.5 : 0.0;
        out.push_back(game({a->first, b->first}, {2 * s - 1, 1 - 2 * s}));
      }
  return out;
}

const Rating& row(const RatingsTable& t, const std::string& player) {
  for (const Rating& r : t.rows)
    if (r.player == player) return r;
  FAIL("no row for " << player);
  return t.rows.front();
}

}  // namespace

TEST_CASE("ratings: Elos of synthetic games are recovered within their intervals", "[ratings]") {
  const std::map<std::string, double> truth = {{"a", 0}, {"b", 100}, {"c", 250}, {"d", -150}};
  RatingsOptions options;
  options.anchor = std::make_pair(std::string("a"), 0.0);
  options.prior_draws = 0.5;
  int covered = 0, intervals = 0;
  for (uint64_t rep = 0; rep < 20; ++rep) {
    const RatingsTable t = fit_ratings(synthetic(truth, 150, 1000 + rep), options);
    REQUIRE(t.rows.size() == 4);
    CHECK(t.notes.empty());
    for (const auto& [player, elo] : truth) {
      const Rating& r = row(t, player);
      CHECK(r.games == 450);
      if (player == "a") {
        CHECK(r.elo == 0.0);
        CHECK(r.margin == 0.0);
        continue;
      }
      CHECK(r.margin > 20);
      CHECK(r.margin < 60);
      CHECK(std::abs(r.elo - elo) < 2 * r.margin);
      covered += std::abs(r.elo - elo) <= r.margin;
      ++intervals;
    }
  }
  // 95% intervals: about 57 of 60 should hold the true Elo.
  CHECK(covered >= 51);
  // Without an anchor the mean is 0, and the order is the true one.
  const RatingsTable t = fit_ratings(synthetic(truth, 150, 7), RatingsOptions{});
  double sum = 0;
  for (const Rating& r : t.rows) sum += r.elo;
  CHECK(sum == Approx(0.0).margin(1e-6));
  CHECK(t.rows[0].player == "c");
  CHECK(t.rows[1].player == "b");
  CHECK(t.rows[2].player == "a");
  CHECK(t.rows[3].player == "d");
}

TEST_CASE("ratings: 3-4-player games count as pairwise outcomes", "[ratings]") {
  std::vector<MatchRecord> games;
  for (int k = 0; k < 30; ++k) {
    games.push_back(game({"x", "y", "z"}, {1.0, 0.0, -1.0}));
    games.push_back(game({"z", "x", "y"}, {-1.0, 1.0, 0.0}));
    games.push_back(
        game({"y", "y", "x", "z"}, {0.0, 0.0, 1.0, -1.0}));  // y at two seats: one game for y
  }
  const RatingsTable t = fit_ratings(games, RatingsOptions{});
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0].player == "x");
  CHECK(t.rows[1].player == "y");
  CHECK(t.rows[2].player == "z");
  CHECK(row(t, "y").games == 90);
  CHECK(row(t, "x").score == 1.0);
  CHECK(row(t, "y").score == Approx(0.5));
  for (const Rating& r : t.rows) CHECK((std::isfinite(r.elo) && std::isfinite(r.margin)));
  // x won and z lost every pairwise game: finite by the prior, and said so.
  REQUIRE(t.notes.size() == 2);
  CHECK(t.notes[0].find("won every game") != std::string::npos);
  CHECK(t.notes[1].find("lost every game") != std::string::npos);
}

TEST_CASE("ratings: players who never met, or only themselves, are named", "[ratings]") {
  std::vector<MatchRecord> games;
  for (int k = 0; k < 10; ++k) {
    games.push_back(game({"a", "b"}, {1, -1}));
    games.push_back(game({"b", "a"}, {0, 0}));
    games.push_back(game({"c", "d"}, {-1, 1}));
    games.push_back(game({"d", "c"}, {1, -1}));
    games.push_back(game({"e", "e"}, {1, -1}));
  }
  const RatingsTable t = fit_ratings(games, RatingsOptions{});
  CHECK(t.rows.size() == 4);
  for (const Rating& r : t.rows)
    CHECK((std::isfinite(r.elo) && std::isfinite(r.margin) && r.margin > 0));
  CHECK(row(t, "a").elo > row(t, "b").elo);
  CHECK(row(t, "a").group != row(t, "c").group);
  CHECK(row(t, "a").elo + row(t, "b").elo == Approx(0.0).margin(1e-6));
  std::string notes;
  for (const std::string& n : t.notes) notes += n + "\n";
  CHECK(notes.find("player e played no game against another player") != std::string::npos);
  CHECK(notes.find("(a, b) never met the other players") != std::string::npos);
  CHECK(notes.find("(c, d) never met the other players") != std::string::npos);
  RatingsOptions anchored;
  anchored.anchor = std::make_pair(std::string("c"), 1500.0);
  const RatingsTable u = fit_ratings(games, anchored);
  CHECK(row(u, "c").elo == 1500.0);
  CHECK(row(u, "d").elo > 1500.0);
  anchored.anchor = std::make_pair(std::string("nobody"), 0.0);
  CHECK_THROWS_WITH(fit_ratings(games, anchored),
                    Catch::Contains("anchor 'nobody' played no game"));
}

TEST_CASE("ratings: anchors are read, and the table has its columns", "[ratings]") {
  CHECK(parse_anchor("mcts:sims=800,evaluator=rollout=1200") ==
        std::make_pair(std::string("mcts:sims=800,evaluator=rollout"), 1200.0));
  CHECK_THROWS_WITH(parse_anchor("nobody"), Catch::Contains("PLAYER=ELO"));
  CHECK_THROWS_WITH(parse_anchor("x=fast"), Catch::Contains("not a number"));
  std::vector<MatchRecord> games = {game({"p,1", "q"}, {1, -1}), game({"q", "p,1"}, {0, 0})};
  const RatingsTable t = fit_ratings(games, RatingsOptions{});
  CHECK(t.text().rfind("rank  player", 0) == 0);
  CHECK(t.text().find(" games  score      elo     +-\n") != std::string::npos);
  CHECK(t.csv().rfind("rank,player,games,score,elo,margin\n1,\"p,1\",2,0.7500,", 0) == 0);
}

// Three players, each pair a 20-game match from paired random openings,
// all into one games file: the fit orders them as their head-to-head scores.
TEST_CASE("ratings: a real three-player round robin is ordered by its head-to-head scores",
          "[ratings]") {
  const Game& game = game_by_id("attrition");
  const std::vector<std::string> players = {"mcts:sims=150,evaluator=heuristic",
                                            "mcts:sims=15,evaluator=heuristic", "random"};
  const auto dir = testing::temp_dir("round-robin");
  const std::string file = (dir / "games.jsonl").string();
  std::map<std::pair<int, int>, double> score;  // i's score against j
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      ArenaConfig c;
      c.games = 20;
      c.threads = 2;
      c.opening_plies = 2;
      c.progress = false;
      c.record = file;
      c.seed = 10 * i + j;
      c.names = {players[i], players[j]};
      score[{i, j}] = play_arena(game, c, [&](int role, uint64_t seed) {
                        PlayerContext p;
                        p.game = &game;
                        p.seed = seed;
                        return make_player(role == 0 ? players[i] : players[j], p);
                      }).score;
    }
  const RatingsTable t = fit_ratings(read_records(file), RatingsOptions{});
  REQUIRE(t.rows.size() == 3);
  for (const auto& [pair, s] : score) {
    INFO(players[pair.first] << " vs " << players[pair.second] << " scored " << s);
    const double gap = row(t, players[pair.first]).elo - row(t, players[pair.second]).elo;
    if (s > 0.5) CHECK(gap > 0);
    if (s < 0.5) CHECK(gap < 0);
    CHECK(row(t, players[pair.first]).games == 40);
  }
}

// Two players: the information is one number, h = s² w p (1 - p) (s the
// logistic units per Elo, w the games with the prior, p the fitted
// expectation), so the interval has a closed form: 1.96 / sqrt(h) for the
// player measured against an anchored one, half that for each against the
// mean of the two. A long ladder (a loop's thousands of generations, each
// meeting the previous one and generation 0) fits too, with the same
// intervals whether or not its first player is the anchor.
TEST_CASE("ratings: intervals have the closed form of two players; long ladders fit", "[ratings]") {
  std::vector<MatchRecord> games;
  for (int k = 0; k < 30; ++k)
    games.push_back(k < 20 ? game({"a", "b"}, {1, -1}) : game({"b", "a"}, {1, -1}));
  const double s = std::log(10.0) / 400.0, w = 31.0, p = (20.0 + 0.5) / w;
  const double h = s * s * w * p * (1 - p), z = 1.959963984540054;
  RatingsOptions anchored;
  anchored.anchor = std::make_pair(std::string("b"), 0.0);
  const RatingsTable t1 = fit_ratings(games, anchored);
  CHECK(row(t1, "a").elo == Approx(std::log(p / (1 - p)) / s).epsilon(1e-6));
  CHECK(row(t1, "a").margin == Approx(z / std::sqrt(h)).epsilon(1e-6));
  CHECK(row(t1, "b").margin == 0.0);
  const RatingsTable t2 = fit_ratings(games, RatingsOptions{});
  CHECK(row(t2, "a").margin == Approx(z / (2 * std::sqrt(h))).epsilon(1e-6));
  CHECK(row(t2, "b").margin == Approx(z / (2 * std::sqrt(h))).epsilon(1e-6));

  std::vector<MatchRecord> ladder;
  const int n = 1500;
  const auto name = [](int g) { return "gen-" + std::to_string(g); };
  for (int g = 1; g < n; ++g)
    for (int k = 0; k < 4; ++k) {
      const double r = k < 3 ? 1.0 : -1.0;  // each generation wins 3 of 4 against the one before
      ladder.push_back(game({name(g), name(g - 1)}, {r, -r}));
      ladder.push_back(game({name(g), name(0)}, {k < 2 ? 1.0 : -1.0, k < 2 ? -1.0 : 1.0}));
    }
  RatingsOptions gen0;
  gen0.anchor = std::make_pair(name(0), 0.0);
  const RatingsTable a = fit_ratings(ladder, gen0), b = fit_ratings(ladder, RatingsOptions{});
  REQUIRE(a.rows.size() == size_t(n));
  REQUIRE(b.rows.size() == size_t(n));
  CHECK(row(a, name(0)).margin == 0.0);
  for (int g : {1, 700, n - 1}) {
    CHECK(std::isfinite(row(a, name(g)).elo));
    CHECK(row(a, name(g)).margin > 0.0);
    // The same fit, shifted: differences agree between anchored and mean-relative tables.
    CHECK(row(a, name(g)).elo - row(a, name(0)).elo ==
          Approx(row(b, name(g)).elo - row(b, name(0)).elo).margin(1e-6));
  }
}

// Gathered one game at a time (a loop's refit, file by file), the results
// keep one entry per pair of players who met, however many games they
// played, and fit the same table as all the games at once.
TEST_CASE("ratings: pairwise results gathered game by game hold pairs, not games", "[ratings]") {
  const std::vector<MatchRecord> games =
      synthetic({{"a", 0.0}, {"b", 100.0}, {"c", 250.0}, {"d", -80.0}}, 400, 11);
  PairwiseResults results;
  CHECK(results.empty());
  CHECK_FALSE(results.has_player("a"));
  for (const MatchRecord& g : games) results.add(g);
  results.add(game({"a", "b", "c"}, {1, 0, -1}));  // three seats: three pairs, all already met
  CHECK(games.size() == 6 * 400);
  CHECK(results.players() == 4);
  CHECK(results.pairs() == 6);
  CHECK(results.has_player("d"));
  CHECK_FALSE(results.has_player("e"));
  std::vector<MatchRecord> all = games;
  all.push_back(game({"a", "b", "c"}, {1, 0, -1}));
  RatingsOptions anchored;
  anchored.anchor = std::make_pair(std::string("a"), 0.0);
  const RatingsTable once = fit_ratings(all, anchored), gathered = results.fit(anchored);
  REQUIRE(once.rows.size() == gathered.rows.size());
  for (size_t k = 0; k < once.rows.size(); ++k) {
    CHECK(gathered.rows[k].player == once.rows[k].player);
    CHECK(gathered.rows[k].games == once.rows[k].games);
    CHECK(gathered.rows[k].elo == Approx(once.rows[k].elo).margin(1e-9));
    CHECK(gathered.rows[k].margin == Approx(once.rows[k].margin).margin(1e-9));
  }
  CHECK(row(gathered, "a").games == 3 * 400 + 1);
  anchored.anchor = std::make_pair(std::string("e"), 0.0);
  CHECK_THROWS_WITH(results.fit(anchored), Catch::Contains("'e' played no game"));
}
