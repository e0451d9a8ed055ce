// The loop's evaluation: the gate's rules (always, score, sprt) in whole
// tiny loops, checked against the games the run recorded; matches that
// resume from their records; ratings.csv with every generation and fixed
// opponent; the [loop] keys of the evaluation refused when wrong.
#include <catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "game/builtin/games.h"
#include "match/game_record.h"
#include "match/match_stats.h"
#include "selfplay/shard.h"
#include "test_util.h"
#include "training/arenas.h"
#include "training/gate.h"
#include "training/loop.h"
#include "training/run_dir.h"
#include "training/trainer.h"
#include "util/error.h"
#include "util/files.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

const std::string kOpenings = std::string(VZERO_CONFIGS_DIR) + "/openings/attrition.txt";

// A loop of two generations that takes seconds: single-threaded and without a
// cache, so that it repeats exactly; extra holds more [loop] keys.
RunConfig tiny_loop(const std::string& extra) {
  return parse_run_config(
      "variant = \"attrition\"\nseed = 2\n[search]\nbatch = 4\n"
      "[selfplay]\ngames = 8\nparallel_games = 1\ngames_per_shard = 4\nfull_visits = 16\n"
      "fast_visits = 4\nevaluator = \"rollout\"\n"
      "[inference]\nmax_batch = 16\nmax_wait_us = 0\nthreads_per_worker = 1\ncache_entries = 0\n"
      "[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
      "[train]\nbatch_size = 32\nsteps = 10\nthreads = 1\n"
      "[loop]\ngenerations = 2\narena_games = 6\narena_visits = 8\n"
      "baseline = \"mcts:sims=8,evaluator=rollout\"\nbaseline_games = 2\n"
      "anchors = [\"random\"]\nanchor_games = 2\nopenings = \"" +
          kOpenings + "\"\n" + extra,
      "tiny loop");
}

// The recorded games of one match in index order (throws when an index repeats).
std::vector<MatchRecord> match_games(const std::string& file, const std::string& match) {
  std::map<int, MatchRecord> by_index;
  for (MatchRecord& r : read_records(file))
    if (r.match == match && !by_index.emplace(r.index, r).second)
      throw Error(match + ": game " + std::to_string(r.index) + " recorded twice");
  std::vector<MatchRecord> out;
  for (auto& [index, r] : by_index) {
    REQUIRE(index == int(out.size()));  // no gaps
    out.push_back(r);
  }
  return out;
}

// Player A's score in a 2-player game.
double score_of_a(const MatchRecord& r) {
  const int a = r.roles[0] == 0 ? 0 : 1;
  return r.result[a] > r.result[1 - a] ? 1.0 : r.result[a] < r.result[1 - a] ? 0.0 : 0.5;
}

std::vector<MetricsRow> metrics_of(const fs::path& dir) {
  return RunFolder(dir.string()).read_metrics();
}

// The gate's games of generation g against its current model, checked for pairs of one opening with
// the seats swapped.
std::vector<MatchRecord> gate_games(const fs::path& dir, int g, int current) {
  const std::vector<MatchRecord> games =
      match_games(RunFolder(dir.string()).records_path(g),
                  "arena_prev: " + generation_name(g) + " vs " + generation_name(current));
  for (size_t i = 0; i + 1 < games.size(); i += 2) {
    CHECK(games[i].opening == games[i + 1].opening);
    CHECK(games[i].roles != games[i + 1].roles);
    CHECK_FALSE(games[i].opening.moves.empty());  // from the openings file
  }
  return games;
}

// Runs the tiny loop with extra [loop] keys in a fresh folder.
fs::path run_tiny(const std::string& name, const std::string& extra) {
  const fs::path dir = vzero::testing::temp_dir(name);
  std::ostringstream log;
  run_loop({tiny_loop(extra), dir.string(), log});
  INFO(log.str());
  REQUIRE(metrics_of(dir).size() == 2);
  return dir;
}

}  // namespace

TEST_CASE("gate: the rules judge a match as documented", "[loop][gate]") {
  LoopConfig loop;
  ArenaResult r;
  r.games = 40;
  r.score = 0.55;
  loop.gate = "always";
  CHECK(gate_promotes(loop, r));
  CHECK(gate_promotes(loop, ArenaResult{}));  // no match at all
  CHECK_FALSE(gate_sprt(loop));
  loop.gate = "score";
  loop.gate_threshold = 0.55;
  CHECK(gate_promotes(loop, r));
  r.score = 0.549;
  CHECK_FALSE(gate_promotes(loop, r));
  loop.gate_threshold = 0.0;
  CHECK_FALSE(gate_promotes(loop, ArenaResult{}));  // nothing played: nothing to promote on
  loop.gate = "sprt";
  loop.sprt_elo0 = -5;
  loop.sprt_elo1 = 20;
  REQUIRE(gate_sprt(loop));
  CHECK(gate_sprt(loop)->elo0 == -5);
  CHECK(gate_sprt(loop)->elo1 == 20);
  r.sprt = gate_sprt(loop);
  r.score = 0.9;
  r.sprt_result = SprtResult::kInconclusive;  // out of games undecided: kept, whatever the score
  CHECK_FALSE(gate_promotes(loop, r));
  r.sprt_result = SprtResult::kH0;
  CHECK_FALSE(gate_promotes(loop, r));
  r.sprt_result = SprtResult::kH1;
  CHECK(gate_promotes(loop, r));
}

TEST_CASE("loop: gate = always promotes every generation and records every match", "[loop][gate]") {
  const fs::path dir = run_tiny("loop-gate-always", "gate = \"always\"\n");
  const auto rows = metrics_of(dir);
  for (int g = 1; g <= 2; ++g) {
    CHECK(rows[g - 1].promoted);
    CHECK(rows[g - 1].current_model == g);
    // Its steps' CPU time: some, and no more than two threads' worth of its seconds and a margin.
    REQUIRE(rows[g - 1].cpu_seconds);
    CHECK(*rows[g - 1].cpu_seconds > 0);
    CHECK(*rows[g - 1].cpu_seconds < 8 * rows[g - 1].seconds + 1);
    const std::string file = RunFolder(dir.string()).records_path(g), name = generation_name(g);
    CHECK(gate_games(dir, g, g - 1).size() == 6);
    CHECK(match_games(file, "arena_gen0: " + name + " vs gen-000").size() == 6);
    CHECK(match_games(file, "arena_base: " + name + " vs mcts:sims=8,evaluator=rollout").size() ==
          2);
    CHECK(match_games(file, "anchor_1: " + name + " vs random").size() == 2);
  }
  // ratings.csv: every generation and fixed opponent, generation 0 at Elo 0.
  const std::string csv = read_text_file((dir / "ratings.csv").string());
  for (const std::string player :
       {",gen-000,", ",gen-001,", ",gen-002,", ",random,", ",\"mcts:sims=8,evaluator=rollout\","})
    CHECK(csv.find(player) != std::string::npos);
  CHECK(csv.find(",gen-000,") != std::string::npos);
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);)
    if (line.find(",gen-000,") != std::string::npos)
      CHECK(line.substr(line.size() - 10) == ",0.00,0.00");
  CHECK(fs::exists(dir / "curve.png"));
  CHECK(read_text_file((dir / "curve.gp").string()).find("title 'random'") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("loop: gate = score promotes exactly when the recorded score reaches the threshold",
          "[loop][gate]") {
  const fs::path dir = run_tiny("loop-gate-score", "gate = \"score\"\ngate_threshold = 0.6\n");
  const auto rows = metrics_of(dir);
  int current = 0;
  for (int g = 1; g <= 2; ++g) {
    INFO("generation " << g);
    double score = 0.0;
    const std::vector<MatchRecord> games = gate_games(dir, g, current);
    REQUIRE(games.size() == 6);
    for (const MatchRecord& r : games) score += score_of_a(r) / 6.0;
    CHECK(rows[g - 1].score_vs_prev.value() == Approx(score));
    const bool promoted = score >= 0.6;
    CHECK(rows[g - 1].promoted == promoted);
    if (promoted) current = g;
    CHECK(rows[g - 1].current_model == current);
  }
  fs::remove_all(dir);
}

TEST_CASE("loop: gate = sprt stops at its decision and promotes on H1 only", "[loop][gate]") {
  // alpha = beta = 0.5: both bounds are 0, so the first pair decides.
  const fs::path dir =
      run_tiny("loop-gate-sprt", "gate = \"sprt\"\nsprt_alpha = 0.5\nsprt_beta = 0.5\n");
  const auto rows = metrics_of(dir);
  SprtConfig sprt;
  sprt.elo0 = 0.0;
  sprt.elo1 = 50.0;
  sprt.alpha = sprt.beta = 0.5;
  int current = 0;
  for (int g = 1; g <= 2; ++g) {
    INFO("generation " << g);
    const std::vector<MatchRecord> games = gate_games(dir, g, current);
    REQUIRE(games.size() == 2);  // stopped after one pair, not at arena_games = 6
    Pentanomial pairs;
    pairs.add(score_of_a(games[0]), score_of_a(games[1]));
    const bool promoted = sprt_decide(sprt, sprt_llr(sprt, pairs)) == SprtResult::kH1;
    CHECK(rows[g - 1].promoted == promoted);
    if (promoted) current = g;
    CHECK(rows[g - 1].current_model == current);
  }
  fs::remove_all(dir);
}

TEST_CASE("loop: a match resumes from its recorded games and plays only the missing ones",
          "[loop]") {
  const fs::path dir = run_tiny("loop-records-resume", "");
  const RunConfig config = tiny_loop("");
  const std::string file = RunFolder(dir.string()).records_path(2);
  const std::string name = "arena_gen0: gen-002 vs gen-000";
  const std::vector<MatchRecord> before = match_games(file, name);
  REQUIRE(before.size() == 6);
  // Keep two of its games and a line cut short, as a kill would leave them.
  std::string kept;
  for (const MatchRecord& r : read_records(file))
    if (r.match != name || r.index < 2) kept += to_json_line(r) + "\n";
  write_text_file(file, kept + to_json_line(before[2]).substr(0, 40));
  LoopMatch m{"arena_gen0",
              net_spec(RunFolder(dir.string()).model_path(0), config.loop.arena_visits),
              "gen-000",
              6,
              2,
              {}};
  std::ostringstream log;
  const ArenaResult again = play_loop_match({config, dir.string(), log}, 2, m);
  CHECK(again.resumed == 2);
  CHECK(again.games == 6);
  const std::vector<MatchRecord> after = match_games(file, name);
  REQUIRE(after.size() == 6);
  for (int i = 0; i < 6; ++i) {
    INFO("game " << i);
    CHECK(after[i].moves == before[i].moves);  // the same games, played again alike
    CHECK(after[i].result == before[i].result);
  }
  fs::remove_all(dir);
}

TEST_CASE("loop: openings are kept in the run folder at the first match", "[loop]") {
  const Game& game = game_by_id("attrition");
  const fs::path dir = vzero::testing::temp_dir("loop-openings");
  std::ostringstream log;
  const LoopOpenings from_file = loop_openings({tiny_loop(""), dir.string(), log});
  CHECK(from_file.openings == read_openings(game, kOpenings));
  // Kept: later matches read the run's copy, not the config's source.
  RunConfig config = tiny_loop("");
  config.loop.openings = "/no/such/openings.txt";
  CHECK(loop_openings({config, dir.string(), log}).openings == from_file.openings);
  const fs::path none = vzero::testing::temp_dir("loop-openings-none");
  config.loop.openings = "none";
  CHECK(loop_openings({config, none.string(), log}).openings.empty());
  CHECK(read_text_file((none / "openings.txt").string()).find("none") != std::string::npos);
  config.loop.openings = "random:3";
  CHECK(loop_openings({config, none.string(), log}).random_plies == 3);
  config.loop.openings = "/no/such/openings.txt";
  const fs::path bad = vzero::testing::temp_dir("loop-openings-bad");
  CHECK_THROWS_WITH(loop_openings({config, bad.string(), log}),
                    Catch::Contains("/no/such/openings.txt"));
  for (const fs::path& d : {dir, none, bad}) fs::remove_all(d);
}

TEST_CASE("loop: opponents that cannot play are refused before the run starts", "[loop]") {
  const fs::path dir = vzero::testing::temp_dir("loop-opponents");
  std::ostringstream log;
  RunConfig config = tiny_loop("");
  config.loop.anchors = {"uci:cmd=/no/such/engine"};
  CHECK_THROWS_WITH(prepare_loop_matches({config, dir.string(), log}),
                    Catch::Contains("uci:cmd=/no/such/engine"));
  CHECK(fs::is_empty(dir));  // nothing written: the folder can take the corrected config
  config.loop.anchors = {"nosuchkind:x=1"};
  CHECK_THROWS_WITH(prepare_loop_matches({config, dir.string(), log}),
                    Catch::Contains("nosuchkind"));
  const RunConfig three = parse_run_config(
      "variant = \"attrition-3p\"\n[loop]\ngate = \"sprt\"\nopenings = \"none\"\n", "t");
  CHECK_THROWS_WITH(prepare_loop_matches({three, dir.string(), log}), Catch::Contains("2-player"));
  fs::remove_all(dir);
}

TEST_CASE("configs: the evaluation keys of [loop] are typed and checked", "[loop][config]") {
  const auto refused = [](const std::string& loop, const std::string& key) {
    INFO(loop);
    CHECK_THROWS_WITH(parse_run_config("[loop]\n" + loop, "t"), Catch::Contains(key));
  };
  refused("gate = \"maybe\"\n", "gate");
  refused("gate = 1\n", "gate");
  refused("gate = \"score\"\narena_games = 0\n", "arena_games");
  refused("gate = \"sprt\"\narena_games = 1\n", "arena_games");
  refused("sprt_elo0 = 10.0\nsprt_elo1 = 5.0\n", "sprt_elo1");
  refused("sprt_alpha = 0.0\n", "sprt_alpha");
  refused("sprt_beta = 0.7\n", "sprt_beta");
  refused("openings = \"random:x\"\n", "openings");
  refused("openings = \"\"\n", "openings");
  refused("anchors = \"random\"\n", "anchors");
  refused("anchors = [1]\n", "anchors");
  refused("anchors = [\"random\", \"random\"]\n", "anchors");
  refused("anchor_games = 0\n", "anchor_games");
  refused("ratings_anchor = \"somebody\"\n", "ratings_anchor");
  refused("sprt_model = \"logistic\"\n", "unknown key 'sprt_model'");
  // Accepted: anchors and a named anchor at Elo 0, resolved for the run's identity.
  const RunConfig c = parse_run_config(
      "[loop]\ngate = \"sprt\"\nanchors = [\"random\", \"mcts:sims=400,evaluator=rollout\"]\n"
      "ratings_anchor = \"random\"\nopenings = \"random:4\"\n",
      "t");
  CHECK(c.loop.anchors == std::vector<std::string>{"random", "mcts:sims=400,evaluator=rollout"});
  CHECK(c.resolved.find("anchors = [ 'random', 'mcts:sims=400,evaluator=rollout' ]") !=
        std::string::npos);
  CHECK(parse_run_config(c.resolved, "resolved").loop.anchors == c.loop.anchors);
  // Configs written before the gate took a rule: true is score, false always.
  CHECK(parse_run_config("[loop]\ngate = true\n", "t").loop.gate == "score");
  CHECK(parse_run_config("[loop]\ngate = false\n", "t").loop.gate == "always");
}

TEST_CASE("loop: init_model starts generation 0 and the trainer from a checkpoint", "[loop]") {
  const fs::path source = run_tiny("loop-init-source", "gate = \"always\"\n");
  const std::string init = (source / "models" / "gen-002.pt").string();
  const fs::path dir = run_tiny("loop-init", "init_model = \"" + init + "\"\n");
  // The same weights (the trainer's checksum of every weight and buffer), at step 0: a new run,
  // whose learning-rate schedule starts again.
  const RunConfig config = tiny_loop("");
  const Game& game = game_by_id("attrition");
  Trainer from(game, config, init), gen0(game, config, (dir / "models" / "gen-000.pt").string());
  CHECK(from.step() > 0);
  CHECK(gen0.step() == 0);
  CHECK(gen0.checksum() == from.checksum());
  // The first generation was played by that network (the source's by the network-free bootstrap).
  CHECK(metrics_of(source)[0].mean_batch == 0.0);
  CHECK(metrics_of(dir)[0].mean_batch > 0.0);
  CHECK(metrics_of(dir)[0].train_steps == 10);
  // Its games are a network's, not the bootstrap's that [train] bootstrap_share caps: generation
  // 1's shards say 1 (the source's, played network-free, 0).
  const auto first_label = [](const fs::path& run) {
    for (const std::string& p : list_shards((run / "shards").string()))
      if (fs::path(p).filename().string().rfind("gen1-", 0) == 0)
        return read_shard(p).meta.generation;
    return -1;
  };
  CHECK(first_label(source) == 0);
  CHECK(first_label(dir) == 1);
  // A started run no longer needs the file: it resumes after the model is gone.
  fs::remove(init);
  std::ostringstream resumed;
  run_loop({tiny_loop("init_model = \"" + init + "\"\n"), dir.string(), resumed});
  CHECK(metrics_of(dir).size() == 2);

  // A checkpoint of another shape, and init_model with bootstrap_player, are refused.
  RunConfig other = tiny_loop("");
  other.model.filters = 4;
  const fs::path odd = vzero::testing::temp_dir("loop-init-odd");
  const std::string odd_model = (odd / "odd.pt").string();
  Trainer(game, other, "").save(odd_model, 0);
  std::ostringstream log;
  const fs::path refused = vzero::testing::temp_dir("loop-init-refused");
  CHECK_THROWS_WITH(
      run_loop({tiny_loop("init_model = \"" + odd_model + "\"\n"), refused.string(), log}),
      Catch::Contains("another shape"));
  CHECK_FALSE(fs::exists(refused / "config.toml"));  // the folder can take the corrected config
  CHECK_THROWS_WITH(tiny_loop("init_model = \"x.pt\"\nbootstrap_player = \"random\"\n"),
                    Catch::Contains("exclude each other"));
  for (const fs::path& d : {source, dir, odd, refused}) fs::remove_all(d);
}
