// The idempotent loop's parts: self-play that resumes with the games not yet
// written, a training that runs once per generation, distinct game ids, a
// replay window without duplicates, and the run folder's files (progress,
// metrics, lock) that a kill cannot corrupt. The whole loop killed and
// restarted: scripts/kill-test.sh (CTest kill_loop).
#include <catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "game/builtin/games.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "test_util.h"
#include "training/run_dir.h"
#include "training/targets.h"
#include "training/train_run.h"
#include "training/window.h"
#include "util/error.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

// Network-free self-play of attrition into dir, each game with its own rollout evaluator.
SelfplayJob rollout_job(const fs::path& dir, int games) {
  SelfplayJob job;
  job.game = &game_by_id("attrition");
  job.selfplay.games = games;
  job.selfplay.parallel_games = 1;
  job.selfplay.games_per_shard = 2;
  job.selfplay.full_visits = 24;
  job.selfplay.fast_visits = 6;
  job.search.root_noise = true;
  job.evaluator_per_game = [](uint64_t seed) { return make_basic_evaluator("rollout", seed); };
  job.meta = shard_meta_for(*job.game, 0, 0, 0);
  job.out_dir = dir.string();
  job.file_prefix = "gen1";
  job.seed = 11;
  job.first_game_id = 100;
  return job;
}

// Every game of dir's shards by id (throws when an id appears twice).
std::map<int64_t, GameRecord> games_by_id(const fs::path& dir) {
  std::map<int64_t, GameRecord> out;
  for (const std::string& p : list_shards(dir.string()))
    for (GameRecord& g : read_shard(p).games)
      if (!out.emplace(g.game_id, g).second)
        throw Error("game id " + std::to_string(g.game_id) + " twice");
  return out;
}

// An attrition run config of a 1x8 network trained `steps` steps of 16 samples on one thread,
// no held-out games, with the lines of train_extra added to [train].
RunConfig tiny_train_config(int steps, const std::string& train_extra = "") {
  return parse_run_config(
      "variant = \"attrition\"\nseed = 3\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
      "[train]\nbatch_size = 16\nsteps = " +
          std::to_string(steps) + "\nthreads = 1\nholdout_fraction = 0.0\n" + train_extra,
      "test config");
}

}  // namespace

TEST_CASE("selfplay: a game is the same whichever run or thread plays it", "[loop]") {
  const fs::path all = vzero::testing::temp_dir("loop-sp-all"),
                 parts = vzero::testing::temp_dir("loop-sp-parts");
  run_selfplay(rollout_job(all, 6));
  // The same games in two runs, out of order, on four threads.
  SelfplayJob job = rollout_job(parts, 6);
  job.selfplay.parallel_games = 4;
  job.indices = std::vector<int64_t>{5, 1, 3};
  CHECK(run_selfplay(job).games == 3);
  job.indices = std::vector<int64_t>{0, 2, 4};
  run_selfplay(job);
  const auto a = games_by_id(all), b = games_by_id(parts);
  REQUIRE(a.size() == 6);
  REQUIRE(b.size() == 6);
  for (const auto& [id, g] : a) {
    INFO("game " << id);
    REQUIRE(b.count(id));
    CHECK(b.at(id).actions == g.actions);
    CHECK(b.at(id).result == g.result);
  }
  fs::remove_all(all);
  fs::remove_all(parts);
}

TEST_CASE("selfplay: a resumed run plays only the games its shards lack", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-sp-resume");
  run_selfplay(rollout_job(dir, 6));  // three shards of two games
  // A shard lost (as if the run had been killed before writing it), and one of another generation.
  const std::vector<std::string> shards = list_shards(dir.string());
  REQUIRE(shards.size() == 3);
  fs::remove(shards[1]);
  SelfplayJob other = rollout_job(dir, 1);
  other.file_prefix = "gen12";
  other.first_game_id = 900;
  run_selfplay(other);

  const WrittenGames written = written_games(dir.string(), "gen1");
  CHECK(written.shards == 2);
  CHECK(written.ids.size() == 4);
  const std::vector<int64_t> missing = missing_indices(written, 100, 6);
  REQUIRE(missing.size() == 2);
  SelfplayJob job = rollout_job(dir, 6);
  job.indices = missing;
  const SelfplayStats played = run_selfplay(job);
  CHECK(played.games == 2);
  const WrittenGames after = written_games(dir.string(), "gen1");
  CHECK(after.ids == std::vector<int64_t>{100, 101, 102, 103, 104, 105});
  CHECK(after.positions == written.positions + played.positions);
  CHECK(missing_indices(after, 100, 6).empty());
  CHECK(games_by_id(dir).size() == 7);  // each id once
  fs::remove_all(dir);
}

TEST_CASE("selfplay: runs into one folder reserve distinct game ids", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-ids");
  SelfplayJob job = rollout_job(dir, 3);
  job.first_game_id = 500;
  run_selfplay(job);  // ids 500-502 written before any reservation
  CHECK(reserve_game_ids(dir.string(), 3) == 503);
  CHECK(reserve_game_ids(dir.string(), 10) == 506);
  CHECK(reserve_game_ids(dir.string(), 1) == 516);
  {
    const FolderLock held(dir.string(), "shard folder");
    CHECK_THROWS_WITH(reserve_game_ids(dir.string(), 1), Catch::Contains("in use"));
  }
  write_text_file((dir / "game-ids.next").string(), "twelve\n");
  CHECK_THROWS_WITH(reserve_game_ids(dir.string(), 1), Catch::Contains("malformed"));
  fs::remove_all(dir);
}

TEST_CASE("replay window: duplicate games once, in the order of game id and ply", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-window");
  run_selfplay(rollout_job(dir, 4));
  SelfplayJob again = rollout_job(dir, 4);
  again.indices = std::vector<int64_t>{2, 3};  // written a second time, in other files
  run_selfplay(again);
  const ReplayWindow w = load_window(game_by_id("attrition"), dir.string(), 1000000, 0.0);
  std::map<int64_t, int> plies;
  for (size_t i = 0; i < w.train.size(); ++i) {
    const Sample& s = w.train[i];
    CHECK(s.ply == plies[s.game_id]++);  // each ply once, in order
    if (i > 0) CHECK(w.train[i - 1].game_id <= s.game_id);
  }
  CHECK(plies.size() == 4);
  fs::remove_all(dir);
}

TEST_CASE("training: the window grows with the positions the run recorded, not only its shards",
          "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-window-growth");
  run_selfplay(rollout_job(dir / "shards", 6));
  const RunConfig config =
      tiny_train_config(1, "window_growth = true\nwindow_min = 10\nwindow_positions = 1000000\n");
  // The window's size in samples, from the training's summary line.
  const auto window_samples = [&](const TrainRequest& request) {
    std::ostringstream log;
    run_training({config, dir.string(), log}, request);
    std::istringstream words(log.str());
    for (std::string w; words >> w;)
      if (w == "samples") {
        int64_t n = 0;
        words >> n;
        return n;
      }
    return int64_t(-1);
  };
  int64_t shard_positions = 0;
  for (const std::string& path : list_shards((dir / "shards").string()))
    shard_positions += readable_shard_counts(path).samples;
  // The shards alone: the growth rule's window for their count (whole games of the newest
  // shards), smaller than they are.
  const int64_t young = window_samples({});
  CHECK(young >= window_size(config.train, shard_positions));
  CHECK(young < shard_positions);
  // A run folder that recorded 100,000 positions (its older shards gone, as after a resume from
  // a snapshot) keeps the window of 100,000 positions: here every shard.
  MetricsRow row;
  row.generation = 1;
  row.positions = 100000;
  RunFolder(dir.string()).append_metrics(row);
  CHECK(window_samples({}) == shard_positions);
  // The loop's training of generation 1 counts the rows before it and its new positions.
  TrainRequest gen1;
  gen1.generation = 1;
  gen1.new_positions = shard_positions;
  CHECK(window_samples(gen1) == young);
  fs::remove_all(dir);
}

TEST_CASE("training: the loop's training of a generation runs once, however often it is called",
          "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-train");
  run_selfplay(rollout_job(dir / "shards", 4));
  const RunConfig config = tiny_train_config(30);
  std::ostringstream quiet;
  TrainRequest gen1;
  gen1.generation = 1;
  CHECK(run_training({config, dir.string(), quiet}, gen1).report.step == 30);
  const TrainOutcome again = run_training({config, dir.string(), quiet}, gen1);
  CHECK(again.report.step == 30);
  CHECK(again.report.steps == 0);
  TrainRequest gen2;
  gen2.generation = 2;
  CHECK(run_training({config, dir.string(), quiet}, gen2).report.step == 60);
  CHECK(run_training({config, dir.string(), quiet}).report.step ==
        90);  // `vzero train`: a new training each time
  CHECK(run_training({config, dir.string(), quiet}).report.step == 120);
  write_text_file((dir / "models" / "train-target.txt").string(), "120\n");
  CHECK_THROWS_WITH(run_training({config, dir.string(), quiet}, gen2),
                    Catch::Contains("malformed"));
  fs::remove_all(dir);
}

TEST_CASE("run folder: the progress of a generation reads back exactly", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-progress");
  {
    GenerationProgress p(RunFolder(dir.string()), 4);
    CHECK_FALSE(p.has("train"));
    p.set("train", {120, 0.1, 1.0 / 3.0});
    p.set("arena_prev", 0.625);
  }
  const GenerationProgress same(RunFolder(dir.string()), 4);
  CHECK(same.numbers("train") == std::vector<double>{120, 0.1, 1.0 / 3.0});
  CHECK(same.number("arena_prev") == 0.625);
  CHECK_THROWS_AS(same.number("train"), Error);
  CHECK_THROWS_AS(same.number("selfplay"), Error);
  CHECK_FALSE(
      GenerationProgress(RunFolder(dir.string()), 5).has("train"));  // another generation's record
  fs::remove_all(dir);
}

TEST_CASE("run folder: metrics rows are written whole and read defensively", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-metrics");
  const RunFolder folder(dir.string());
  const std::string path = folder.metrics_path();
  const std::string zeros = ",0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,";
  // The row "G" + zeros + "G,5": every number 0, every match played, promoted, gen-G current, 5 s.
  const auto row = [](int g) {
    MetricsRow r;
    r.generation = g;
    r.score_vs_prev = r.elo_vs_prev = r.score_vs_gen0 = r.elo_vs_gen0 = r.score_vs_baseline =
        r.elo_vs_baseline = 0.0;
    r.promoted = true;
    r.current_model = g;
    r.seconds = 5;
    return r;
  };
  folder.append_metrics(row(1));
  folder.append_metrics(row(2));
  const std::string empty(10, ',');  // the self-play diagnostics and cpu_seconds, not given
  CHECK(read_text_file(path) == std::string(kMetricsColumns) + "\n1" + zeros + "1,5" + empty +
                                    "\n2" + zeros + "2,5" + empty + "\n");
  const auto rows = folder.read_metrics();
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].current_model == 2);
  CHECK(read_text_file(path).rfind(std::string(kMetricsColumns) + "\n", 0) == 0);
  const std::string good = read_text_file(path);
  const auto fails_with = [&](const std::string& text, const std::string& message) {
    write_text_file(path, text);
    CHECK_THROWS_WITH(folder.read_metrics(), Catch::Contains(message));
  };
  fails_with(good + "3" + zeros + "3,5" + empty, "no line end");  // a partial last row
  fails_with(good + "3,0,0\n", "expected 32 cells, found 3");     // a short row
  fails_with(good + "2" + zeros + "2,5" + empty + "\n",
             "generation '2' where 3");                                        // a generation twice
  fails_with(good + "3" + zeros + "x,5" + empty + "\n", "current_model 'x'");  // not a number
  fails_with("generation,games\n", "not the metrics header");  // another version's columns
  fails_with("", "empty");
  fs::remove_all(dir);
}

TEST_CASE("run folder: one process at a time", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-lock");
  {
    const FolderLock lock(dir.string(), "run folder");
    CHECK_THROWS_WITH(FolderLock(dir.string(), "run folder"), Catch::Contains("in use by another"));
  }
  CHECK_NOTHROW(FolderLock(dir.string(), "run folder"));  // released with its holder
  fs::remove_all(dir);
}

TEST_CASE(
    "run folder: a run goes on across versions that add config keys, not across other configs",
    "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-config-identity");
  const RunConfig config = parse_run_config("variant = \"attrition\"\nseed = 4\n", "test config");
  // What an older build wrote: the same run without a key added since ([model] value_head).
  std::string older;
  std::istringstream in(config.resolved);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("value_head = ", 0) != 0) older += line + "\n";
  REQUIRE(older != config.resolved);
  write_text_file((dir / "config.toml").string(), older);
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(config));
  // Another seed is another run.
  const RunConfig other = parse_run_config("variant = \"attrition\"\nseed = 5\n", "test config");
  CHECK_THROWS_WITH(RunFolder(dir.string()).prepare(other), Catch::Contains("another config"));
}

TEST_CASE(
    "run folder: a run resumes after a change of speed ([inference], parallel_games), not of data",
    "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-inference-identity");
  const RunConfig config = parse_run_config("variant = \"attrition\"\nseed = 4\n", "test config");
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(config));
  // Another form, batching and thread layout: the same run, and the folder takes the new values.
  const RunConfig faster = parse_run_config(
      "variant = \"attrition\"\nseed = 4\n[inference]\nform = \"unfolded\"\nworkers = 2\n"
      "threads_per_worker = 2\nmax_batch = 64\nmax_wait_us = 10\ncache_entries = 0\n",
      "test config");
  REQUIRE(faster.resolved != config.resolved);
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(faster));
  CHECK(read_text_file((dir / "config.toml").string()) == faster.resolved);
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(config));
  // More games at once: the same games (each one's seed is its index).
  const RunConfig wider = parse_run_config(
      "variant = \"attrition\"\nseed = 4\n[selfplay]\nparallel_games = 128\n", "test config");
  REQUIRE(wider.resolved != config.resolved);
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(wider));
  CHECK_NOTHROW(RunFolder(dir.string()).prepare(config));
  // Symmetric views change the positions the network sees: another run.
  const RunConfig views = parse_run_config(
      "variant = \"attrition\"\nseed = 4\n[inference]\nrandom_symmetry = true\n", "test config");
  CHECK_THROWS_WITH(RunFolder(dir.string()).prepare(views), Catch::Contains("another config"));
  fs::remove_all(dir);
}
