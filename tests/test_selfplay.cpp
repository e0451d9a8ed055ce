// Self-play tests: shards read back exactly, a killed run leaves only
// complete shards, a seed repeats its games, resignation and its count of
// false resignations, no-progress adjudication, fast searches marked as no policy target.
#include <sys/wait.h>
#include <unistd.h>

#include <catch.hpp>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <mutex>
#include <thread>

#include "game/builtin/games.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "selfplay_test_util.h"
#include "test_util.h"
#include "util/error.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

SelfplayJob small_job(const Game& game, Evaluator& eval, const fs::path& dir, int games) {
  SelfplayJob job = vzero::testing::selfplay_job(
      game, eval, dir.string(), vzero::testing::small_selfplay(games, 1, 3, 24, 6));
  job.selfplay.full_fraction = 0.5;
  job.search.root_noise = true;
  job.search.temperature_plies = 4;
  job.seed = 5;
  return job;
}

std::vector<GameRecord> all_games(const fs::path& dir, std::vector<Sample>* samples = nullptr) {
  ShardData all = vzero::testing::read_all_shards(dir);
  std::vector<GameRecord> games = std::move(all.games);
  if (samples) samples->insert(samples->end(), all.samples.begin(), all.samples.end());
  std::sort(games.begin(), games.end(),
            [](const GameRecord& a, const GameRecord& b) { return a.game_id < b.game_id; });
  return games;
}

}  // namespace

TEST_CASE("selfplay: the shards hold every game and sample, replayable from the record",
          "[selfplay]") {
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
      std::sort(mine.begin(), mine.end(),
                [](const Sample* a, const Sample* b) { return a->ply < b->ply; });
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

namespace {

// A job whose every move is a full search, resigning below threshold
// (two players), playout_fraction of its games never resigning.
SelfplayJob resign_job(const Game& game, Evaluator& eval, const fs::path& dir, int games,
                       double threshold, double playout_fraction) {
  SelfplayJob job = small_job(game, eval, dir, games);
  job.selfplay.full_fraction = 1.0;
  job.selfplay.resign_threshold = threshold;
  job.selfplay.resign_playout_fraction = playout_fraction;
  return job;
}

// The seat whose first full search decided a (would-be) resignation: the seat
// to act at the game's first full-search sample.
int first_full_search_seat(const std::vector<Sample>& samples, int64_t game_id) {
  int seat = -1, ply = 1 << 30;
  for (const Sample& s : samples)
    if (s.game_id == game_id && s.full_search && s.ply < ply) seat = s.player, ply = s.ply;
  return seat;
}

// What a resigning run of attrition left: its stats, and the games (by id) and samples of its
// shards.
struct ResignRun {
  SelfplayStats stats;
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
};

// Checks the run's counts of resigned games and of games in which a seat would have resigned.
void check_resign_counts(const ResignRun& run, int resigned, int would_resign) {
  CHECK(run.stats.resigned == resigned);
  CHECK(run.stats.would_resign == would_resign);
}

// Plays resign_job's games of attrition with the heuristic evaluator into dir.
ResignRun resign_run(const fs::path& dir, int games, double threshold, double playout_fraction) {
  const Game& game = game_by_id("attrition");
  HeuristicEvaluator eval;
  ResignRun run;
  run.stats = run_selfplay(resign_job(game, eval, dir, games, threshold, playout_fraction));
  run.games = all_games(dir, &run.samples);
  return run;
}

}  // namespace

TEST_CASE("selfplay: a seat whose value falls below the threshold resigns and loses",
          "[selfplay][resign]") {
  // Threshold 1: every full search's value is below it, so the seat to act
  // resigns at its first full search (the first move, with full_fraction 1).
  const fs::path dir = vzero::testing::temp_dir("sp-resign");
  const ResignRun run = resign_run(dir, 6, 1.0, 0.0);
  check_resign_counts(run, 6, 0);
  CHECK(run.stats.false_resignations == 0);
  REQUIRE(run.games.size() == 6);
  for (const GameRecord& g : run.games) {
    CHECK(g.resigned);
    CHECK(g.end_reason == "resign");
    CHECK(g.actions.empty());  // resigned before its first move
    const int seat = first_full_search_seat(run.samples, g.game_id);
    REQUIRE(seat >= 0);
    CHECK(g.result[size_t(seat)] == -1.0f);
    CHECK(g.result[size_t(1 - seat)] == 1.0f);
    for (const Sample& s : run.samples)
      if (s.game_id == g.game_id) CHECK(s.result == g.result);
  }
  fs::remove_all(dir);
}

TEST_CASE("selfplay: played-out games count the resignations that would have been false",
          "[selfplay][resign]") {
  // With resign_playout_fraction 1 no game resigns; each game in which a seat
  // would have resigned is played out and counted, and the resignation was
  // false when that seat did not lose.
  const fs::path dir = vzero::testing::temp_dir("sp-playout");
  const ResignRun run = resign_run(dir, 8, 1.0, 1.0);
  check_resign_counts(run, 0, 8);
  REQUIRE(run.games.size() == 8);
  int false_resignations = 0;
  for (const GameRecord& g : run.games) {
    CHECK_FALSE(g.resigned);
    CHECK(g.end_reason != "resign");
    const int seat = first_full_search_seat(run.samples, g.game_id);
    REQUIRE(seat >= 0);
    false_resignations += g.result[size_t(seat)] >= 0.0f;
  }
  CHECK(run.stats.false_resignations == false_resignations);
  fs::remove_all(dir);
}

TEST_CASE("selfplay: no resignation below a threshold of -1, nor with more than two players",
          "[selfplay][resign]") {
  for (const auto& [id, threshold] :
       {std::pair<const char*, double>{"attrition", -1.0}, {"attrition-3p", 1.0}}) {
    const fs::path dir = vzero::testing::temp_dir("sp-noresign");
    const Game& game = game_by_id(id);
    HeuristicEvaluator eval;
    const SelfplayStats stats = run_selfplay(resign_job(game, eval, dir, 3, threshold, 0.0));
    CHECK(stats.resigned == 0);
    CHECK(stats.would_resign == 0);
    for (const GameRecord& g : all_games(dir)) CHECK_FALSE(g.resigned);
    fs::remove_all(dir);
  }
}

namespace {

// Chess games of resign_job (nobody resigns: threshold -1) that are adjudicated once the
// fifty-move clock reaches 4 plies, decisive above `value`, playout_fraction never adjudicated.
ResignRun adjudicated_run(const fs::path& dir, double value, double playout_fraction) {
  const Game& game = game_by_id("chess");
  HeuristicEvaluator eval;
  SelfplayJob job = resign_job(game, eval, dir, 4, -1.0, playout_fraction);
  job.selfplay.adjudicate_plies = 4;
  job.selfplay.adjudicate_value = value;
  job.selfplay.max_plies = 30;
  ResignRun run;
  run.stats = run_selfplay(job);
  run.games = all_games(dir, &run.samples);
  return run;
}

}  // namespace

TEST_CASE("selfplay: a game ends when its fifty-move clock reaches adjudicate_plies",
          "[selfplay][adjudicate]") {
  for (const double value : {1.0, 0.0}) {
    INFO("adjudicate_value " << value);
    const fs::path dir = vzero::testing::temp_dir("sp-adjudicate");
    const ResignRun run = adjudicated_run(dir, value, 0.0);
    REQUIRE(run.games.size() == 4);
    int adjudicated = 0;
    for (const GameRecord& g : run.games) {
      CHECK_FALSE(g.resigned);
      // It ends at the first position whose clock reaches 4 plies (or at the cap without one).
      auto state = game_by_id("chess").new_state(g.start_fen);
      state->set_max_plies(30);
      for (int action : g.actions) {
        CHECK(state->no_progress_plies() < 4);
        state->apply(action);
      }
      if (g.end_reason == "cap") {
        CHECK(state->no_progress_plies() < 4);
        continue;
      }
      ++adjudicated;
      CHECK(g.end_reason == "adjudicated");
      CHECK(state->no_progress_plies() == 4);
      CHECK_FALSE(state->is_terminal());
      // The last search's value decides: above adjudicate_value a win for the seat it favours.
      const Sample* last = nullptr;
      for (const Sample& s : run.samples)
        if (s.game_id == g.game_id && (!last || s.ply > last->ply)) last = &s;
      REQUIRE(last != nullptr);
      CHECK(last->ply == int(g.actions.size()));
      const double v = last->root_value[size_t(last->player)];
      const float expected = std::fabs(v) > value ? (v > 0.0 ? 1.0f : -1.0f) : 0.0f;
      CHECK(g.result[size_t(last->player)] == expected);
      CHECK(g.result[size_t(1 - last->player)] == -expected);
    }
    CHECK(adjudicated >= 2);
    CHECK(run.stats.resigned == 0);
    fs::remove_all(dir);
  }
}

TEST_CASE("selfplay: the games that never resign are not adjudicated either",
          "[selfplay][adjudicate]") {
  const fs::path dir = vzero::testing::temp_dir("sp-adjudicate-playout");
  const ResignRun run = adjudicated_run(dir, 0.5, 1.0);
  REQUIRE(run.games.size() == 4);
  int past_clock = 0;  // plies played after a game's clock reached 4
  for (const GameRecord& g : run.games) {
    CHECK(g.end_reason != "adjudicated");
    auto state = game_by_id("chess").new_state(g.start_fen);
    state->set_max_plies(30);
    bool reached = false;
    for (int action : g.actions) {
      past_clock += reached;
      reached = reached || state->no_progress_plies() >= 4;
      state->apply(action);
    }
    CHECK(state->is_terminal());  // played to the rules' end or the 30-ply cap
  }
  CHECK(past_clock > 0);
  fs::remove_all(dir);
}

TEST_CASE("selfplay: fast searches are marked as no policy target", "[selfplay][playout-cap]") {
  // Playout cap randomisation: only full searches are policy targets. The
  // trainer masks the others (training test "fast-search samples teach the
  // value only").
  const Game& game = game_by_id("attrition");
  for (const double full : {0.0, 0.5, 1.0}) {
    const fs::path dir = vzero::testing::temp_dir("sp-mask");
    HeuristicEvaluator eval;
    SelfplayJob job = small_job(game, eval, dir, 4);
    job.selfplay.full_fraction = full;
    const SelfplayStats stats = run_selfplay(job);
    std::vector<Sample> samples;
    all_games(dir, &samples);
    int64_t marked = 0;
    for (const Sample& s : samples) marked += s.full_search;
    CHECK(marked == stats.full_positions);
    if (full == 0.0) CHECK(marked == 0);
    if (full == 1.0) CHECK(marked == int64_t(samples.size()));
    if (full == 0.5) {
      CHECK(marked > 0);
      CHECK(marked < int64_t(samples.size()));
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("selfplay: games in parallel sharing one evaluator are each written once",
          "[selfplay][threads]") {
  // Several TBB threads play at once, share the evaluator and hand games to
  // the writer thread (scripts/tsan.sh runs this under ThreadSanitizer).
  const fs::path dir = vzero::testing::temp_dir("sp-parallel");
  const Game& game = game_by_id("attrition");
  RolloutEvaluator eval(7);
  SelfplayJob job = small_job(game, eval, dir, 12);
  job.selfplay.parallel_games = 4;
  job.selfplay.games_per_shard = 2;
  job.first_game_id = 100;
  const SelfplayStats stats = run_selfplay(job);
  CHECK(stats.games == 12);
  std::vector<Sample> samples;
  const std::vector<GameRecord> games = all_games(dir, &samples);
  REQUIRE(games.size() == 12);
  for (size_t i = 0; i < games.size(); ++i) CHECK(games[i].game_id == int64_t(100 + i));
  CHECK(int64_t(samples.size()) == stats.positions);
  fs::remove_all(dir);
}

TEST_CASE("selfplay: a game ends as a draw at its first dead position, unsearched",
          "[selfplay][dead]") {
  // Chess rules without the insufficient-material draw, from a position whose only move
  // (Kxe2) leaves bare kings: the rules would play on to the 30-ply cap.
  Variant v = game_by_id("chess").variant();
  v.insufficient_material = false;
  v.castling = false;
  v.start_fen = "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1";
  const std::unique_ptr<Game> game = vzero::make_game(v);
  HeuristicEvaluator eval;
  for (const bool end_dead : {true, false}) {
    INFO("end_dead_positions " << end_dead);
    const fs::path dir = vzero::testing::temp_dir("sp-dead");
    SelfplayJob job = resign_job(*game, eval, dir, 3, -1.0, 0.0);
    job.selfplay.max_plies = 30;
    job.selfplay.end_dead_positions = end_dead;
    const SelfplayStats stats = run_selfplay(job);
    std::vector<Sample> samples;
    const std::vector<GameRecord> games = all_games(dir, &samples);
    REQUIRE(games.size() == 3);
    int64_t plies = 0;
    for (const GameRecord& g : games) {
      CHECK(g.result == std::vector<float>{0.0f, 0.0f});
      plies += int64_t(g.actions.size());
      if (end_dead) {
        CHECK(g.end_reason == "dead-position");
        CHECK(g.actions.size() == 1u);
      } else {  // the kings walk on until the cap or a repetition
        CHECK((g.end_reason == "cap" || g.end_reason == "repetition"));
        CHECK(g.actions.size() > 4u);
      }
    }
    // Only the position before the capture is searched and kept when dead positions end games.
    CHECK(stats.positions == plies);
    if (end_dead) CHECK(stats.positions == 3);
    CHECK(int64_t(samples.size()) == stats.positions);
    CHECK(stats.draws == 3);
    fs::remove_all(dir);
  }
}
