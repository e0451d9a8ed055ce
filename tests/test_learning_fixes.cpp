// The learning fixes of issue 27: one network input whoever plays the net,
// the per-generation diagnostics and each fix's key.
#include <algorithm>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "game/builtin/games.h"
#include "game/symmetry.h"
#include "net/checkpoint.h"
#include "net/server.h"
#include "search/evaluators.h"
#include "search/search.h"
#include "selfplay/selfplay.h"
#include "selfplay_test_util.h"
#include "test_util.h"
#include "training/bootstrap_player.h"
#include "training/diagnostics.h"
#include "training/run_dir.h"
#include "training/targets.h"
#include "training/trainer.h"
#include "training/window.h"
#include "util/error.h"
#include "util/files.h"

// After the LibTorch headers, whose glog-style CHECK it replaces.
#include <catch.hpp>

using namespace vzero;
namespace fs = std::filesystem;

namespace {

RunConfig losalamos_config(int max_plies) {
  std::ostringstream text;
  text << "variant = \"losalamos\"\nseed = 3\n[selfplay]\nmax_plies = " << max_plies
       << "\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n[train]\nbatch_size = "
          "32\nthreads = 1\n";
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

// A self-play job of attrition games by `eval` into `dir`, run as `sp` says.
SelfplayJob attrition_job(Evaluator& eval, const fs::path& dir, const SelfplayConfig& sp) {
  return vzero::testing::selfplay_job(game_by_id("attrition"), eval, dir.string(), sp);
}

// Plays the first legal action n times on s.
void play_first(GameState& s, int n) {
  for (int i = 0; i < n && !s.is_terminal(); ++i)
    s.apply(s.legal_actions()[size_t(i) % s.legal_actions().size()]);
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
  CHECK(checkpoint_plies_fallback((models / "ascending.pt").string()) == 300);  // its toml
  CHECK(checkpoint_plies_fallback((models / "attrition.pt").string()) == 0);    // the variant's cap
  CHECK(load_checkpoint((models / "losalamos.pt").string()).model->input_plies == 150);

  // A run folder: RUN/models/gen-NNN.pt reads RUN/config.toml.
  const fs::path run = vzero::testing::temp_dir("learn-fallback");
  fs::create_directories(run / "models");
  write_text_file((run / "config.toml").string(),
                  "variant = 'losalamos'\n[selfplay]\nmax_plies = 120\n");
  CHECK(checkpoint_plies_fallback((run / "models" / "gen-001.pt").string()) == 120);
  write_text_file((run / "config.toml").string(), "[selfplay]\nmax_plies = -4\n");
  CHECK_THROWS_AS(checkpoint_plies_fallback((run / "models" / "gen-001.pt").string()), Error);
  CHECK(checkpoint_plies_fallback((run / "nowhere.pt").string()) == 0);
}

TEST_CASE("end reasons fall into the diagnostics' classes") {
  GameRecord g;
  for (const auto& [reason, cls] :
       std::vector<std::pair<std::string, std::string>>{{"checkmate", "mate"},
                                                        {"king-captured", "mate"},
                                                        {"repetition", "repetition"},
                                                        {"perpetual-check", "repetition"},
                                                        {"cap", "cap"},
                                                        {"resign", "resign"},
                                                        {"stalemate", "other"},
                                                        {"fifty-move", "other"},
                                                        {"capture", "mate"},
                                                        {"no-move", "mate"},
                                                        {"last-standing", "mate"}}) {
    g.end_reason = reason;
    CHECK(end_reason_class(g) == cls);
  }
}

TEST_CASE("a generation's diagnostics count its games and targets from its shards") {
  const fs::path dir = vzero::testing::temp_dir("learn-diag");
  RolloutEvaluator eval(3);
  SelfplayJob job = attrition_job(eval, dir, vzero::testing::small_selfplay(6, 1, 3, 8, 4));
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
  // The result alone is the target (root_value_weight 0): |target| is 1 in decisive games, 0 in
  // draws.
  CHECK(d.mean_abs_value_target <= 1.0);
  if (stats.draws == 0) CHECK(d.mean_abs_value_target == Approx(1.0));
  // Another prefix holds nothing.
  CHECK(generation_diagnostics(dir.string(), "gen2", config).games == 0);
}

TEST_CASE("metrics.csv of an older version stays readable and takes the diagnostics columns") {
  const fs::path dir = vzero::testing::temp_dir("learn-legacy-metrics");
  const RunFolder folder(dir.string());
  const std::string legacy =
      "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_"
      "rate,"
      "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
      "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,"
      "promoted,"
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
  CHECK(metrics_column("cpu_seconds") == 32);
}

TEST_CASE("metrics.csv with the diagnostics but no cpu_seconds takes the new column") {
  const fs::path dir = vzero::testing::temp_dir("learn-cpu-metrics");
  const RunFolder folder(dir.string());
  std::string header = kMetricsColumns;
  header.resize(header.rfind(','));  // the header before cpu_seconds
  write_text_file(
      folder.metrics_path(),
      header + "\n1,10,500,1,1,1,0,20,1,1,1,0.5,0.2,,,,,,,1,1,7,1,0,0,0,0,0,0.5,0.9,1\n");
  std::vector<MetricsRow> rows = folder.read_metrics();
  REQUIRE(rows.size() == 1);
  CHECK(*rows[0].mean_abs_value_target == 0.9);
  CHECK_FALSE(rows[0].cpu_seconds);
  MetricsRow next = rows[0];
  next.generation = 2;
  next.cpu_seconds = 13.5;
  folder.append_metrics(next);
  const std::string text = read_text_file(folder.metrics_path());
  CHECK(text.rfind(std::string(kMetricsColumns) + "\n", 0) == 0);
  CHECK(text.find("0.5,0.9,1,\n") != std::string::npos);  // the old row, its new cell empty
  rows = folder.read_metrics();
  REQUIRE(rows.size() == 2);
  CHECK_FALSE(rows[0].cpu_seconds);
  CHECK(*rows[1].cpu_seconds == 13.5);
}

namespace {

// Counts the positions of every call and the largest call (the leaves a search had in flight).
struct CountingEvaluator : Evaluator {
  Evaluator& inner;
  std::mutex m;
  size_t largest = 0;
  int64_t positions = 0;
  explicit CountingEvaluator(Evaluator& e) : inner(e) {}
  void evaluate(const std::vector<const GameState*>& states,
                std::vector<Evaluation>& out) override {
    {
      std::lock_guard<std::mutex> lock(m);
      largest = std::max(largest, states.size());
      positions += int64_t(states.size());
    }
    inner.evaluate(states, out);
  }
  std::string name() const override { return "counting"; }
};

// Every node of the tree below node marked as a repetition draw, with whether its position
// really repeats one of its path (hashes of the path from the root, state at node).
void repetitions(const Node& node, GameState& state, std::vector<uint64_t>& path, int& marked,
                 int& repeating) {
  for (const Edge& e : node.edges) {
    if (!e.child) continue;
    state.apply(e.action);
    const uint64_t h = state.hash();
    if (e.child->repetition) {
      ++marked;
      repeating += std::find(path.begin(), path.end(), h) != path.end() && e.child->proven &&
                   e.child->exact == Values{};
    }
    path.push_back(h);
    repetitions(*e.child, state, path, marked, repeating);
    path.pop_back();
    state.undo();
  }
}

}  // namespace

TEST_CASE("search.two_fold_draw scores a position repeated inside the tree as a draw") {
  const Game& game = game_by_id("chess");
  auto root =
      game.new_state("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1");  // kings shuffle behind locked pawns
  ConstantEvaluator eval;
  for (bool on : {false, true}) {
    SearchConfig c;
    c.batch = 1;
    c.two_fold_draw = on;
    Search search(eval, c, 7);
    search.set_root(*root);
    search.run(3000);
    auto state = root->clone();
    std::vector<uint64_t> path{state->hash()};
    int marked = 0, repeating = 0;
    repetitions(search.root(), *state, path, marked, repeating);
    if (on) {
      CHECK(marked > 0);
      CHECK(repeating == marked);  // each one repeats its path and holds a proven draw
    } else {
      CHECK(marked == 0);
    }
  }
  SearchConfig c;
  CHECK_THROWS_AS(set_search_option(c, "two_fold_draw", "3"), Error);
  set_search_option(c, "two_fold_draw", "true");
  CHECK(c.two_fold_draw);
}

TEST_CASE("search.win_in_one: a position whose player can capture the king is a proven win") {
  // Parachute (PC-10: a move may leave one's own king attacked; capturing it wins). White, in
  // check from the rook on d7, has a few escapes (king c2, e1, e2; knight d3 interposes); every
  // other action hangs the king.
  const Game& game = game_by_id("parachute");
  auto root = game.new_state("k2r3/7/7/6Y/7/7/2NK3[] w - - 0 1");
  CHECK(root->winning_action() == -1);  // White cannot capture Black's king
  auto hangs = [&](int action) {
    auto s = root->clone();
    s->apply(action);
    const int win = s->winning_action();
    if (win < 0) return false;
    s->apply(win);
    CHECK(s->end_reason() == "king-captured");
    return true;
  };
  int hanging = 0;
  for (int a : root->legal_actions()) hanging += hangs(a);
  const int actions = int(root->legal_actions().size());
  REQUIRE(hanging > 0);
  REQUIRE(hanging < actions);
  CHECK(game_by_id("chess").new_state()->winning_action() == -1);  // no king capture in chess
  ConstantEvaluator eval;
  for (bool on : {false, true}) {
    SearchConfig c;
    c.batch = 1;
    c.win_in_one = on;
    c.noise_fraction = 0.0;
    Search search(eval, c, 3);
    search.set_root(*root);
    const SearchResult r = search.run(3 * actions);
    // Each action once at least; with win_in_one every hanging one is a proven loss on arrival,
    // and the search plays an escape.
    int proven_losses = 0;
    for (const Edge& e : search.root().edges)
      if (e.child && e.child->proven) proven_losses += e.child->exact[0] < 0;
    INFO("win_in_one " << on);
    if (on) {
      CHECK(proven_losses == hanging);
      CHECK(!hangs(r.best_action));
    } else {
      CHECK(proven_losses == 0);
    }
  }
  // The game goes on into a position proven on arrival (White hung its king): as the new root
  // it is searched like any other, and the search takes the king.
  {
    SearchConfig c;
    c.batch = 1;
    Search search(eval, c, 3);
    search.set_root(*root);
    search.run(3 * actions);
    int hang = -1;
    for (int a : root->legal_actions())
      if (hangs(a)) hang = a;
    auto after = root->clone();
    after->apply(hang);
    search.advance(hang);
    const SearchResult r = search.run(20);
    CHECK(r.best_action == after->winning_action());
  }
  SearchConfig c;
  set_search_option(c, "win_in_one", "false");
  CHECK(!c.win_in_one);
}

TEST_CASE("search temperature decays to its floor (temperature_halflife, final_temperature)") {
  ConstantEvaluator eval;
  SearchConfig c;
  c.temperature_plies = 8;  // the default cliff: 1 before ply 8, 0 after
  CHECK(Search(eval, c, 1).temperature_at(7) == 1.0);
  CHECK(Search(eval, c, 1).temperature_at(8) == 0.0);
  c.temperature_halflife = 6;
  c.final_temperature = 0.3;
  const Search s(eval, c, 1);
  CHECK(s.temperature_at(0) == Approx(1.0));
  CHECK(s.temperature_at(6) == Approx(0.65));
  CHECK(s.temperature_at(1000) == Approx(0.3));
}

TEST_CASE("train.wdl_target: a draw target that does not grow from uncertainty") {
  Sample s;
  s.player = 0;
  s.result = {0.0f, 0.0f};  // a drawn game
  s.root_value = {0.2f, -0.2f};
  RunConfig config =
      parse_run_config("variant = \"attrition\"\n[train]\nroot_value_weight = 0.5\n", "test");
  SampleTargets t = sample_targets(s, config.train);  // mix: the uncertain part of q is draw mass
  CHECK(t.wdl[0] == Approx(0.1));
  CHECK(t.wdl[1] == Approx(0.9));
  CHECK(t.wdl[2] == Approx(0.0));
  config.train.wdl_target = "decisive";
  t = sample_targets(s, config.train);
  CHECK(t.wdl[0] == Approx(0.3));
  CHECK(t.wdl[1] == Approx(0.5));  // only the result's draw
  CHECK(t.wdl[2] == Approx(0.2));
  config.train.wdl_target = "result";
  t = sample_targets(s, config.train);
  CHECK(t.wdl[1] == Approx(1.0));
  CHECK(t.value[0] == Approx(0.1));  // the scalar value keeps its mix
  // A won game searched as level: mix puts half of it on a draw, decisive none.
  s.result = {1.0f, -1.0f};
  s.root_value = {0.0f, 0.0f};
  config.train.wdl_target = "mix";
  CHECK(sample_targets(s, config.train).wdl[1] == Approx(0.5));
  config.train.wdl_target = "decisive";
  CHECK(sample_targets(s, config.train).wdl[1] == Approx(0.0));
  CHECK_THROWS_AS(parse_run_config("[train]\nwdl_target = \"draw\"\n", "test"), Error);
}

TEST_CASE("train.lr_schedule: step halving or a cosine to lr_min") {
  RunConfig config =
      parse_run_config("[train]\nlr = 0.1\nlr_warmup_steps = 0\nlr_decay_steps = 100\n", "test");
  CHECK(scheduled_lr(config.train, 99) == Approx(0.1));
  CHECK(scheduled_lr(config.train, 100) == Approx(0.05));
  config = parse_run_config(
      "[train]\nlr = 0.1\nlr_warmup_steps = 0\nlr_decay_steps = 100\nlr_schedule = "
      "\"cosine\"\nlr_min = 0.01\n",
      "test");
  CHECK(scheduled_lr(config.train, 0) == Approx(0.1));
  CHECK(scheduled_lr(config.train, 50) == Approx(0.055));
  CHECK(scheduled_lr(config.train, 100) == Approx(0.01));
  CHECK(scheduled_lr(config.train, 5000) == Approx(0.01));
  CHECK_THROWS_WITH(parse_run_config("[train]\nlr_schedule = \"cosine\"\n", "test"),
                    Catch::Contains("lr_decay_steps"));
  CHECK_THROWS_AS(parse_run_config("[train]\nlr_schedule = \"linear\"\n", "test"), Error);
}

TEST_CASE("train.lr_schedule piecewise: lr, then lr_values[i] from step lr_boundaries[i] on") {
  const std::string head =
      "[train]\nlr = 0.02\nlr_warmup_steps = 10\nlr_schedule = \"piecewise\"\n";
  const RunConfig config =
      parse_run_config(head + "lr_boundaries = [100, 300]\nlr_values = [0.002, 0.0005]\n", "test");
  CHECK(scheduled_lr(config.train, 0) == Approx(0.002));  // the warm-up's ramp: 1/10 of lr
  CHECK(scheduled_lr(config.train, 99) == Approx(0.02));
  CHECK(scheduled_lr(config.train, 100) == Approx(0.002));
  CHECK(scheduled_lr(config.train, 299) == Approx(0.002));
  CHECK(scheduled_lr(config.train, 300) == Approx(0.0005));
  CHECK(scheduled_lr(config.train, 100000) == Approx(0.0005));
  // The resolved config reads back to the same schedule (a run folder's stored config).
  const RunConfig again = parse_run_config(config.resolved, "resolved");
  CHECK(again.train.lr_boundaries == config.train.lr_boundaries);
  CHECK(again.train.lr_values == config.train.lr_values);
  CHECK(again.resolved == config.resolved);
  auto refused = [&](const std::string& text, const std::string& why) {
    CHECK_THROWS_WITH(parse_run_config(text, "test"), Catch::Contains(why));
  };
  refused(head, "lr_boundaries");
  refused(head + "lr_boundaries = [100]\n", "one value per entry");
  refused(head + "lr_boundaries = [300, 100]\nlr_values = [0.1, 0.2]\n", "increasing");
  refused(head + "lr_boundaries = [100.5]\nlr_values = [0.1]\n", "integers");
  refused(head + "lr_boundaries = [0]\nlr_values = [0.1]\n", "must be in");
  refused(head + "lr_boundaries = [100]\nlr_values = [-1.0]\n", "must be in");
  refused(head + "lr_boundaries = [100]\nlr_values = [\"fast\"]\n", "numbers");
  refused(head + "lr_boundaries = 100\nlr_values = [0.1]\n", "array");
  refused("[train]\nlr_boundaries = [100]\nlr_values = [0.1]\n", "piecewise");
  refused(head + "lr_decay_steps = 5\nlr_boundaries = [100]\nlr_values = [0.1]\n",
          "lr_decay_steps");
}

TEST_CASE("train.fast_value_weight: fast-search positions' value targets count by it") {
  const Game& game = game_by_id("attrition");
  const fs::path dir = vzero::testing::temp_dir("learn-fast-value");
  RolloutEvaluator eval(5);
  SelfplayJob job = attrition_job(eval, dir, vzero::testing::small_selfplay(4, 1, 4, 8, 4));
  job.selfplay.full_fraction = 0.5;
  run_selfplay(job);
  const ReplayWindow window = load_window(game, dir.string(), 100000, 0.0);
  ReplayWindow flipped = window;  // the same, with the fast positions' results turned round
  int fast = 0;
  for (Sample& s : flipped.train)
    if (!s.full_search) {
      ++fast;
      for (float& r : s.result) r = -r;
    }
  REQUIRE(fast > 0);
  const auto trained = [&](double weight, const ReplayWindow& w) {
    std::ostringstream text;
    text << "variant = \"attrition\"\nseed = 3\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = "
            "16\n"
         << "[train]\nbatch_size = 16\nthreads = 1\nfast_value_weight = " << weight << "\n";
    Trainer t(game, parse_run_config(text.str(), "test"), "");
    t.train(w, 3);
    const std::string path =
        (dir / ("w" + std::to_string(weight) + std::to_string(&w == &window) + ".pt")).string();
    t.save(path, 1);
    return load_checkpoint(path);
  };
  const auto same = [](Checkpoint a, Checkpoint b) {
    const auto pa = a.model->parameters(), pb = b.model->parameters();
    for (size_t i = 0; i < pa.size(); ++i)
      if (!torch::equal(pa[i], pb[i])) return false;
    return true;
  };
  CHECK(
      same(trained(0.0, window), trained(0.0, flipped)));  // fast positions teach the value nothing
  CHECK_FALSE(same(trained(1.0, window), trained(1.0, flipped)));  // the default: they count fully
  CHECK_THROWS_AS(parse_run_config("[train]\nfast_value_weight = 2\n", "test"), Error);
}

TEST_CASE("selfplay.fast_batch and selfplay.full_root") {
  const Game& game = game_by_id("attrition");
  RolloutEvaluator rollout(2);
  const auto play = [&](int fast_batch, const std::string& full_root, double full_fraction) {
    const fs::path dir =
        vzero::testing::temp_dir("learn-sp-" + std::to_string(fast_batch) + full_root);
    CountingEvaluator eval(rollout);
    SelfplayJob job = vzero::testing::selfplay_job(game, eval, dir.string(),
                                                   vzero::testing::small_selfplay(2, 1, 2, 24, 16));
    job.search.batch = 8;
    job.selfplay.full_fraction = full_fraction;
    job.selfplay.fast_batch = fast_batch;
    job.selfplay.full_root = full_root;
    const SelfplayStats stats = run_selfplay(job);
    return std::make_tuple(eval.largest, stats.evaluations, stats.positions);
  };
  CHECK(std::get<0>(play(0, "reuse", 0.0)) > 1);   // search.batch leaves in flight
  CHECK(std::get<0>(play(1, "reuse", 0.0)) == 1);  // one leaf at a time in fast searches
  CHECK(std::get<0>(play(1, "reuse", 1.0)) > 1);   // full searches keep search.batch
  // A fresh root spends a full search's visits anew at every move: more evaluations per position.
  const auto [l1, reuse_evals, reuse_positions] = play(0, "reuse", 1.0);
  const auto [l2, fresh_evals, fresh_positions] = play(0, "fresh", 1.0);
  CHECK(double(fresh_evals) / double(fresh_positions) >
        double(reuse_evals) / double(reuse_positions));
  CHECK_THROWS_AS(parse_run_config("[selfplay]\nfull_root = \"new\"\n", "test"), Error);
  CHECK_THROWS_AS(parse_run_config("[selfplay]\nfast_batch = -1\n", "test"), Error);
}

TEST_CASE("loop.measure_every and loop.saturated_score") {
  RunConfig config = parse_run_config("[loop]\ngenerations = 10\nmeasure_every = 3\n", "test");
  std::vector<int> measured;
  for (int g = 1; g <= 10; ++g)
    if (measures_generation(config.loop, g)) measured.push_back(g);
  CHECK((measured == std::vector<int>{3, 6, 9, 10}));  // and always the last
  config = parse_run_config("[loop]\n", "test");
  CHECK(measures_generation(config.loop, 1));          // the default: every generation
  CHECK(measuring_games(config.loop, 1.0, 40) == 40);  // saturated_score 0: off
  config = parse_run_config("[loop]\nsaturated_score = 0.95\nsaturated_games = 8\n", "test");
  CHECK(measuring_games(config.loop, 0.97, 40) == 8);
  CHECK(measuring_games(config.loop, 0.90, 40) == 40);
  CHECK(measuring_games(config.loop, std::nullopt, 40) == 40);
  CHECK_THROWS_AS(parse_run_config("[loop]\nmeasure_every = 0\n", "test"), Error);
}

TEST_CASE("train.extra_symmetries: Los Alamos' left-right mirror is exact (no castling)") {
  const Game& game = game_by_id("losalamos");
  const std::vector<BoardSymmetry> syms = board_symmetries(game, {"mirror-files"});
  REQUIRE(syms.size() == 1);
  const BoardSymmetry& m = syms[0];
  const EncodingSpec& spec = game.encoding();
  uint64_t rng = 11;
  for (int game_no = 0; game_no < 20; ++game_no) {
    auto s = game.new_state();
    for (int ply = 0; ply < 40 && !s->is_terminal(); ++ply) {
      // The mirror image: every rank of the FEN read right to left.
      const std::string fen = s->fen();
      const std::string board = fen.substr(0, fen.find(' '));
      std::string mirrored, rank;
      for (char ch : board + "/") {
        if (ch != '/') {
          rank += ch;
          continue;
        }
        std::reverse(rank.begin(), rank.end());
        mirrored += (mirrored.empty() ? "" : "/") + rank;
        rank.clear();
      }
      auto image = game.new_state(mirrored + fen.substr(fen.find(' ')));
      std::vector<int> mapped;
      for (int a : s->legal_actions()) mapped.push_back(m.action[size_t(a)]);
      std::sort(mapped.begin(), mapped.end());
      REQUIRE(mapped == image->legal_actions());
      std::vector<uint8_t> pa(size_t(spec.planes) * spec.plane_size()), pb(pa.size()),
          pm(pa.size());
      std::vector<float> sa(spec.scalars), sb(spec.scalars);
      s->encode(pa.data(), sa.data());
      image->encode(pb.data(), sb.data());
      map_planes(m, spec, pa.data(), pm.data());
      REQUIRE(pm == pb);
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      s->apply(s->legal_actions()[(rng >> 33) % s->legal_actions().size()]);
    }
  }
  // The trainer takes them (and refuses a name no board has).
  RunConfig config = parse_run_config(
      "variant = \"losalamos\"\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = "
      "16\n[train]\nthreads = 1\n"
      "extra_symmetries = [\"mirror-files\"]\n",
      "test");
  CHECK_NOTHROW(Trainer(game, config, ""));
  CHECK_THROWS_AS(parse_run_config("[train]\nextra_symmetries = [\"mirror\"]\n", "test"), Error);
}

TEST_CASE(
    "loop.bootstrap_player: a player spec plays the bootstrap games, its moves the policy "
    "targets") {
  const Game& game = game_by_id("attrition");
  const auto play = [&](const std::string& name) {
    const fs::path dir = vzero::testing::temp_dir("learn-bootstrap-" + name);
    ConstantEvaluator unused;
    SelfplayJob job = vzero::testing::selfplay_job(game, unused, dir.string(),
                                                   vzero::testing::small_selfplay(3, 1, 2, 8, 4));
    job.file_prefix = "gen1";
    job.first_game_id = 100000000;
    job.seed = 9;
    const SelfplayStats stats =
        play_bootstrap_games(job, "mcts:sims=8,evaluator=rollout", 2, SearchConfig{});
    CHECK(stats.games == 3);
    return vzero::testing::read_all_shards(dir);
  };
  const ShardData a = play("a"), b = play("b");
  REQUIRE(a.games.size() == 3);
  size_t k = 0;
  for (const GameRecord& g : a.games) {
    CHECK(g.game_id >= 100000000);
    for (int action : g.actions) {
      REQUIRE(k < a.samples.size());
      const Sample& s = a.samples[k++];
      CHECK(s.game_id == g.game_id);
      CHECK(s.policy_index == std::vector<int32_t>{action});  // the move played
      CHECK(s.root_value == g.result);                        // no search value: the result
    }
  }
  CHECK(k == a.samples.size());
  // Seeded: the same games again.
  REQUIRE(b.games.size() == a.games.size());
  for (size_t i = 0; i < a.games.size(); ++i) CHECK(a.games[i].actions == b.games[i].actions);
  CHECK_THROWS_AS(
      [&] {
        const fs::path dir = vzero::testing::temp_dir("learn-bootstrap-bad");
        ConstantEvaluator unused;
        SelfplayJob job = vzero::testing::selfplay_job(
            game, unused, dir.string(), vzero::testing::small_selfplay(1, 1, 1, 8, 4));
        play_bootstrap_games(job, "nosuchplayer:x=1", 0, SearchConfig{});
      }(),
      Error);
}

TEST_CASE("loop.bootstrap_player: a bootstrap game ends as a draw at its first dead position") {
  // Chess without the insufficient-material draw; Kxe2, the only move, leaves bare kings.
  Variant v = game_by_id("chess").variant();
  v.insufficient_material = false;
  v.castling = false;
  v.start_fen = "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1";
  const std::unique_ptr<Game> game = make_game(v);
  for (const bool end_dead : {true, false}) {
    INFO("end_dead_positions " << end_dead);
    const fs::path dir = vzero::testing::temp_dir("learn-bootstrap-dead");
    ConstantEvaluator unused;
    SelfplayJob job = vzero::testing::selfplay_job(*game, unused, dir.string(),
                                                   vzero::testing::small_selfplay(2, 1, 2, 8, 4));
    job.selfplay.max_plies = 20;
    job.selfplay.end_dead_positions = end_dead;
    play_bootstrap_games(job, "random", 0, SearchConfig{});
    const ShardData d = vzero::testing::read_all_shards(dir);
    REQUIRE(d.games.size() == 2);
    for (const GameRecord& g : d.games) {
      CHECK(g.result == std::vector<float>{0.0f, 0.0f});
      CHECK((g.end_reason == "dead-position") == end_dead);
      CHECK((g.actions.size() == 1) == end_dead);
    }
    if (end_dead)
      CHECK(d.samples.size() == 2u);  // only the positions before the capture
    else
      CHECK(d.samples.size() > 2u);
  }
}
