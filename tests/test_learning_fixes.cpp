// The learning fixes of issue 27: one network input whoever plays the net,
// the per-generation diagnostics.
#include <catch.hpp>

#include <filesystem>
#include <sstream>

#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/server.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay_test_util.h"
#include "test_util.h"
#include "training/diagnostics.h"
#include "training/run_dir.h"
#include "training/trainer.h"
#include "util/error.h"
#include "util/files.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

RunConfig losalamos_config(int max_plies) {
  std::ostringstream text;
  text << "variant = \"losalamos\"\nseed = 3\n[selfplay]\nmax_plies = " << max_plies
       << "\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n[train]\nbatch_size = 32\nthreads = 1\n";
  return parse_run_config(text.str(), "test config");
}

// The network input the way self-play stores it as a training sample: the
// state capped at the run's max_plies encodes itself.
std::vector<float> sample_input(const GameState& s) {
  const EncodingSpec& spec = s.game().encoding();
  std::vector<uint8_t> planes(size_t(spec.planes) * spec.plane_size());
  std::vector<float> scalars(spec.scalars), input(size_t(spec.channels()) * spec.plane_size());
  s.encode(planes.data(), scalars.data());
  expand_input(spec, planes.data(), scalars.data(), input.data());
  return input;
}

// Plays the first legal action n times on s.
void play_first(GameState& s, int n) {
  for (int i = 0; i < n && !s.is_terminal(); ++i) s.apply(s.legal_actions()[size_t(i) % s.legal_actions().size()]);
}

}  // namespace

TEST_CASE("a position gives the network the same input in self-play, arena, UCI and play") {
  const Game& game = game_by_id("losalamos");
  REQUIRE(game.variant().max_plies == 300);  // the cap arena, UCI and play keep
  const fs::path dir = vzero::testing::temp_dir("learn-input");
  const std::string ckpt = (dir / "gen.pt").string();
  Trainer(game, losalamos_config(150), "").save(ckpt, 1);  // a run capped at 150 plies
  REQUIRE(load_checkpoint(ckpt).model->input_plies == 150);

  // Self-play: the state capped at the run's 150 plies; its sample is what the net trained on.
  auto selfplay = game.new_state();
  selfplay->set_max_plies(150);
  // Arena, UCI and `play`: a state of the variant's cap (300), evaluated by the
  // "net:" player's server (the one path every player of a model takes).
  auto arena = game.new_state();
  play_first(*selfplay, 30);
  play_first(*arena, 30);
  REQUIRE(selfplay->fen() == arena->fen());

  ServerConfig serve;
  serve.cache_entries = 0;
  InferenceServer server(game, serve, ckpt);
  const std::vector<float> trained = sample_input(*selfplay);
  CHECK(server.input_of(*selfplay) == trained);
  CHECK(server.input_of(*arena) == trained);
  // The bug it fixes: the arena state encoded by its own cap differs.
  CHECK(sample_input(*arena) != trained);
}

TEST_CASE("a checkpoint older than input_plies takes the cap of the config beside it") {
  const fs::path models = fs::path(VZERO_CONFIGS_DIR).parent_path() / "models";
  CHECK(checkpoint_plies_fallback((models / "losalamos.pt").string()) == 150);
  CHECK(checkpoint_plies_fallback((models / "ascending.pt").string()) == 250);
  CHECK(checkpoint_plies_fallback((models / "attrition.pt").string()) == 0);  // the variant's cap
  CHECK(load_checkpoint((models / "losalamos.pt").string()).model->input_plies == 150);

  // A run folder: RUN/models/gen-NNN.pt reads RUN/config.toml.
  const fs::path run = vzero::testing::temp_dir("learn-fallback");
  fs::create_directories(run / "models");
  write_text_file((run / "config.toml").string(), "variant = 'losalamos'\n[selfplay]\nmax_plies = 120\n");
  CHECK(checkpoint_plies_fallback((run / "models" / "gen-001.pt").string()) == 120);
  write_text_file((run / "config.toml").string(), "[selfplay]\nmax_plies = -4\n");
  CHECK_THROWS_AS(checkpoint_plies_fallback((run / "models" / "gen-001.pt").string()), Error);
  CHECK(checkpoint_plies_fallback((run / "nowhere.pt").string()) == 0);
}

TEST_CASE("end reasons fall into the diagnostics' classes") {
  GameRecord g;
  for (const auto& [reason, cls] : std::vector<std::pair<std::string, std::string>>{
           {"checkmate", "mate"}, {"king-captured", "mate"}, {"repetition", "repetition"},
           {"perpetual-check", "repetition"}, {"cap", "cap"}, {"resign", "resign"}, {"stalemate", "other"},
           {"fifty-move", "other"}}) {
    g.end_reason = reason;
    CHECK(end_reason_class(g) == cls);
  }
}

TEST_CASE("a generation's diagnostics count its games and targets from its shards") {
  const Game& game = game_by_id("attrition");
  const fs::path dir = vzero::testing::temp_dir("learn-diag");
  RolloutEvaluator eval(3);
  SelfplayJob job = vzero::testing::selfplay_job(game, eval, dir.string(), vzero::testing::small_selfplay(6, 1, 3, 8, 4));
  job.file_prefix = "gen1";
  job.selfplay.max_plies = 8;  // some games hit the cap: draws
  const SelfplayStats stats = run_selfplay(job);
  RunConfig config = parse_run_config("variant = \"attrition\"\n", "test config");
  const GenerationDiagnostics d = generation_diagnostics(dir.string(), "gen1", config);
  CHECK(d.games == 6);
  CHECK(d.positions == stats.positions);
  CHECK(d.end_mate + d.end_repetition + d.end_cap + d.end_resign + d.end_other == Approx(1.0));
  CHECK(d.end_cap == Approx(double(stats.capped) / 6));
  CHECK(d.draws == Approx(double(stats.draws) / 6));
  CHECK(d.mean_abs_root_value > 0.0);
  CHECK(d.mean_abs_root_value <= 1.0);
  // The result alone is the target (root_value_weight 0): |target| is 1 in decisive games, 0 in draws.
  CHECK(d.mean_abs_value_target <= 1.0);
  if (stats.draws == 0) CHECK(d.mean_abs_value_target == Approx(1.0));
  // Another prefix holds nothing.
  CHECK(generation_diagnostics(dir.string(), "gen2", config).games == 0);
}

TEST_CASE("metrics.csv of an older version stays readable and takes the diagnostics columns") {
  const fs::path dir = vzero::testing::temp_dir("learn-legacy-metrics");
  const RunFolder folder(dir.string());
  const std::string legacy =
      "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
      "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
      "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,promoted,"
      "current_model,seconds\n1,10,500,1,1,1,0,20,1,1,1,0.5,0.2,,,,,,,1,1,7\n";
  write_text_file(folder.metrics_path(), legacy);
  std::vector<MetricsRow> rows = folder.read_metrics();
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].positions == 500);
  CHECK(rows[0].seconds == 7);
  CHECK_FALSE(rows[0].draw_share);
  MetricsRow next = rows[0];
  next.generation = 2;
  next.draw_share = 0.25;
  next.end_repetition = 0.5;
  folder.append_metrics(next);
  CHECK(read_text_file(folder.metrics_path()).rfind(std::string(kMetricsColumns) + "\n", 0) == 0);
  rows = folder.read_metrics();
  REQUIRE(rows.size() == 2);
  CHECK_FALSE(rows[0].draw_share);
  CHECK(*rows[1].draw_share == 0.25);
  CHECK(*rows[1].end_repetition == 0.5);
  CHECK(metrics_column("selfplay_time_share") == 31);
}
