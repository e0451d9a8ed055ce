// Self-play features for learning: varied starts from random openings drawn
// from the evaluator's priors, and Gumbel policy targets in the shards.
#include <catch.hpp>
#include <filesystem>
#include <set>

#include "game/builtin/games.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "selfplay_test_util.h"
#include "test_util.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

// Plays games into a fresh folder and returns what the shards hold.
ShardData play(const Game& game, const SelfplayConfig& sp, const SearchConfig& search,
               const std::string& name) {
  const fs::path dir = vzero::testing::temp_dir(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  HeuristicEvaluator eval;
  SelfplayJob job = vzero::testing::selfplay_job(game, eval, dir.string(), sp);
  job.search = search;
  job.seed = 11;
  run_selfplay(job);
  return vzero::testing::read_all_shards(dir);
}

SelfplayConfig small(int games) {
  SelfplayConfig sp = vzero::testing::small_selfplay(games, 2, 4, 16, 4);
  sp.max_plies = 40;
  return sp;
}

}  // namespace

TEST_CASE("selfplay: random openings give varied starts that the records replay from",
          "[selfplay][learning]") {
  const Game& game = game_by_id("chess");
  SelfplayConfig sp = small(8);
  sp.opening_plies = 6;
  const ShardData d = play(game, sp, SearchConfig{}, "sp-openings");
  REQUIRE(d.games.size() == 8);
  std::set<std::string> starts;
  for (const GameRecord& g : d.games) {
    starts.insert(g.start_fen);
    auto s = game.new_state(g.start_fen);  // the record replays from its start
    s->set_max_plies(sp.max_plies);
    for (int a : g.actions) s->apply(a);
    INFO(g.end_reason << " after " << g.actions.size() << " plies from " << g.start_fen);
    CHECK((s->is_terminal() || g.resigned));
  }
  CHECK(starts.size() >= 5);
  for (const Sample& s : d.samples) CHECK(s.ply < sp.max_plies);

  // Without openings every game starts from the start position.
  sp.opening_plies = 0;
  const ShardData plain = play(game, sp, SearchConfig{}, "sp-no-openings");
  for (const GameRecord& g : plain.games) CHECK(g.start_fen == game.new_state()->fen());
}

TEST_CASE("selfplay: a balanced-opening bound keeps lopsided openings out",
          "[selfplay][learning]") {
  // The heuristic (material) value of an opening after a few random plies is
  // rarely beyond 0.05 unless material was lost: with the bound every kept
  // start is within it.
  const Game& game = game_by_id("chess");
  SelfplayConfig sp = small(6);
  sp.opening_plies = 12;
  sp.opening_balance = 0.05;
  const ShardData d = play(game, sp, SearchConfig{}, "sp-balanced");
  HeuristicEvaluator eval;
  int kept = 0;
  for (const GameRecord& g : d.games) {
    auto s = game.new_state(g.start_fen);
    if (s->plies() == 0 && g.start_fen == game.new_state()->fen()) continue;
    std::vector<Evaluation> out;
    eval.evaluate({s.get()}, out);
    CHECK(std::fabs(out[0].values[size_t(s->current_player())]) <= 0.05 + 1e-6);
    ++kept;
  }
  CHECK(kept >= 1);
}

TEST_CASE("selfplay: Gumbel searches write their improved policy over every legal action",
          "[selfplay][learning]") {
  const Game& game = game_by_id("attrition");
  SelfplayConfig sp = small(2);
  sp.full_fraction = 1.0;
  SearchConfig search;
  search.root_selection = "gumbel";
  search.root_noise = true;
  const ShardData d = play(game, sp, search, "sp-gumbel");
  REQUIRE(!d.samples.empty());
  for (const GameRecord& g : d.games) {
    auto s = game.new_state(g.start_fen);
    for (const Sample& x : d.samples) {
      if (x.game_id != g.game_id || x.ply != s->plies()) continue;
      CHECK(x.policy_index.size() == s->legal_actions().size());
      float sum = 0.0f;
      for (float w : x.policy_weight) sum += w;
      CHECK(sum == Approx(1.0f).margin(2e-3));  // float16 on disk
      break;
    }
  }
}
