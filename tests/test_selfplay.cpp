// Self-play tests: shards read back exactly, a killed run leaves only
// complete shards, a seed repeats its games.
#include <catch.hpp>

#include <csignal>
#include <filesystem>
#include <mutex>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "game/error.h"
#include "mcts/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "test_util.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {


SelfplayJob small_job(const Game& game, Evaluator& eval, const fs::path& dir, int games) {
  SelfplayJob job;
  job.game = &game;
  job.selfplay.games = games;
  job.selfplay.parallel_games = 1;
  job.selfplay.games_per_shard = 3;
  job.selfplay.full_visits = 24;
  job.selfplay.fast_visits = 6;
  job.selfplay.full_fraction = 0.5;
  job.search.root_noise = true;
  job.search.temperature_plies = 4;
  job.evaluator = &eval;
  job.meta = shard_meta_for(game, 0, 0);
  job.out_dir = dir.string();
  job.seed = 5;
  return job;
}

std::vector<GameRecord> all_games(const fs::path& dir, std::vector<Sample>* samples = nullptr) {
  std::vector<GameRecord> games;
  for (const std::string& p : list_shards(dir.string())) {
    ShardData d = read_shard(p);
    games.insert(games.end(), d.games.begin(), d.games.end());
    if (samples) samples->insert(samples->end(), d.samples.begin(), d.samples.end());
  }
  std::sort(games.begin(), games.end(), [](const GameRecord& a, const GameRecord& b) { return a.game_id < b.game_id; });
  return games;
}

}  // namespace

TEST_CASE("selfplay: the shards hold every game and sample, replayable from the record", "[selfplay]") {
  const fs::path dir = vzero::testing::temp_dir("sp-roundtrip");
  for (const char* id : {"attrition", "attrition-3p", "chess"}) {
    const Game& game = game_by_id(id);
    fs::remove_all(dir);
    fs::create_directories(dir);
    HeuristicEvaluator eval;
    SelfplayJob job = small_job(game, eval, dir, 4);
    if (std::string(id) == "chess") job.selfplay.max_plies = 30;
    const SelfplayStats stats = run_selfplay(job);
    CHECK(stats.games == 4);
    std::vector<Sample> samples;
    const std::vector<GameRecord> games = all_games(dir, &samples);
    REQUIRE(games.size() == 4);
    CHECK(int64_t(samples.size()) == stats.positions);
    // Replaying each record gives the positions whose encodings the samples hold.
    const EncodingSpec& e = game.encoding();
    std::vector<uint8_t> planes(size_t(e.planes) * e.plane_size());
    std::vector<float> scalars(e.scalars);
    for (const GameRecord& g : games) {
      auto s = game.new_state(g.start_fen);
      if (job.selfplay.max_plies) s->set_max_plies(job.selfplay.max_plies);
      std::vector<const Sample*> mine;
      for (const Sample& x : samples)
        if (x.game_id == g.game_id) mine.push_back(&x);
      std::sort(mine.begin(), mine.end(), [](const Sample* a, const Sample* b) { return a->ply < b->ply; });
      REQUIRE(mine.size() >= g.actions.size());
      for (size_t i = 0; i < mine.size(); ++i) {
        s->encode(planes.data(), scalars.data());
        CHECK(mine[i]->planes == planes);
        CHECK(mine[i]->scalars == scalars);
        CHECK(mine[i]->player == s->current_player());
        CHECK(mine[i]->result == g.result);
        float sum = 0;
        for (float w : mine[i]->policy_weight) sum += w;
        CHECK(sum == Approx(1.0).margin(0.01));
        if (i < g.actions.size()) s->apply(g.actions[i]);
      }
      if (!g.resigned) CHECK(s->is_terminal());
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("selfplay: the same seed gives the same games with one thread", "[selfplay]") {
  const Game& game = game_by_id("attrition");
  std::vector<std::vector<GameRecord>> runs;
  for (int rep = 0; rep < 2; ++rep) {
    const fs::path dir = vzero::testing::temp_dir("sp-seed" + std::to_string(rep));
    RolloutEvaluator eval(3);
    run_selfplay(small_job(game, eval, dir, 5));
    runs.push_back(all_games(dir));
    fs::remove_all(dir);
  }
  REQUIRE(runs[0].size() == 5);
  REQUIRE(runs[1].size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    CHECK(runs[0][i].actions == runs[1][i].actions);
    CHECK(runs[0][i].result == runs[1][i].result);
    CHECK(runs[0][i].seed == runs[1][i].seed);
  }
}

TEST_CASE("selfplay: a run killed with SIGKILL leaves only complete shards", "[selfplay]") {
  const fs::path dir = vzero::testing::temp_dir("sp-kill");
  const Game& game = game_by_id("attrition");
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    RolloutEvaluator eval(1);
    SelfplayJob job = small_job(game, eval, dir, 100000);
    job.selfplay.parallel_games = 2;
    job.selfplay.games_per_shard = 2;
    run_selfplay(job);
    _exit(0);
  }
  // Wait for a few shards, then kill in the middle of the run.
  for (int i = 0; i < 400 && list_shards(dir.string()).size() < 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  std::this_thread::sleep_for(std::chrono::milliseconds(137));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  const std::vector<std::string> shards = list_shards(dir.string());
  CHECK(shards.size() >= 4);
  for (const std::string& p : shards) {
    const ShardData d = read_shard(p);  // throws if incomplete or corrupt
    CHECK(d.games.size() == 2);
  }
  fs::remove_all(dir);
}
