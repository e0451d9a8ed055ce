// Learning features of training: value targets (result, root, mix, phase),
// win/draw/loss and moves-left targets and heads, the growing window, the
// bootstrap's capped share, and random board symmetry at inference.
#include "game/builtin/games.h"
#include "net/model.h"
#include "net/server.h"
#include "training/targets.h"
#include "training/train_run.h"
#include "training/trainer.h"
#include "training/window.h"

#undef CHECK  // glog's, through LibTorch; Catch's must win
#include <catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "game/symmetry.h"
#include "game/zobrist.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "selfplay_test_util.h"
#include "test_util.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

Sample sample(float result0, float root0, int ply, int moves_left) {
  Sample s;
  s.player = 1;
  s.result = {result0, -result0};
  s.root_value = {root0, -root0};
  s.ply = ply;
  s.moves_left = moves_left;
  return s;
}

// Self-play games of attrition into dir/shards, played by generation `generation`.
void make_shards(const fs::path& dir, int games, int generation, int64_t first_id,
                 uint64_t seed = 1, const std::string& prefix = "gen") {
  const Game& game = game_by_id("attrition");
  RolloutEvaluator eval(1);
  SelfplayJob job =
      vzero::testing::selfplay_job(game, eval, (dir / "shards").string(),
                                   vzero::testing::small_selfplay(games, 1, 10, 32, 8), generation);
  job.first_game_id = first_id;
  job.seed = seed;
  job.file_prefix = prefix + std::to_string(generation);
  run_selfplay(job);
}

}  // namespace

TEST_CASE("value targets: result, root, mix and phase", "[training][learning]") {
  TrainConfig c;
  c.root_value_weight = 0.5;
  const Sample s = sample(1.0f, -0.2f, 30, 10);  // seat 0 won; the player to act is seat 1
  c.value_target = "result";
  CHECK(sample_targets(s, c).value[0] == Approx(-1.0));  // index 0: the player to act (seat 1)
  CHECK(sample_targets(s, c).value[1] == Approx(1.0));
  c.value_target = "root";
  CHECK(sample_targets(s, c).value[0] == Approx(0.2));
  c.value_target = "mix";
  CHECK(sample_targets(s, c).value[0] == Approx(0.5 * -1.0 + 0.5 * 0.2));
  c.value_target = "phase";  // a quarter of the game left: a quarter of the root share
  CHECK(root_value_share(s, c) == Approx(0.5 * 10.0 / 40.0));
  CHECK(sample_targets(s, c).value[0] == Approx(-1.0 + 0.125 * 1.2));
  // Validation reads results alone.
  CHECK(sample_targets(s, c, /*results_only=*/true).value[0] == Approx(-1.0));
}

TEST_CASE("capped_value: a game stopped at the length cap trains on its search's value",
          "[training][learning][capped]") {
  TrainConfig c;
  c.root_value_weight = 0.2;
  Sample s = sample(0.0f, -0.6f, 300, 0);  // a draw by the cap; the player to act stands at +0.6
  s.capped = true;
  CHECK(sample_targets(s, c).value[0] == Approx(0.2 * 0.6));  // draw (default): the usual mix
  c.capped_value = "root";
  CHECK(root_value_share(s, c) == 1.0);
  CHECK(sample_targets(s, c).value[0] == Approx(0.6));
  CHECK(sample_targets(s, c).value[1] == Approx(-0.6));
  const SampleTargets t = sample_targets(s, c);
  CHECK(t.wdl[0] == Approx(0.6));
  CHECK(t.wdl[1] == Approx(0.4));
  // Games that ended by the rules keep value_target's mix; validation keeps the result.
  s.capped = false;
  CHECK(sample_targets(s, c).value[0] == Approx(0.2 * 0.6));
  s.capped = true;
  CHECK(sample_targets(s, c, /*results_only=*/true).value[0] == Approx(0.0));
}

TEST_CASE("the window marks the positions of games stopped at the length cap",
          "[training][learning][capped]") {
  const fs::path dir = vzero::testing::temp_dir("learn-window-capped");
  make_shards(dir, 6, 0, 0);  // attrition games played to their end
  {
    const Game& game = game_by_id("attrition");
    RolloutEvaluator eval(1);
    SelfplayConfig sp = vzero::testing::small_selfplay(4, 1, 10, 32, 8);
    sp.max_plies = 2;            // no attrition game ends by its rules before both have placed
    sp.resign_threshold = -1.0;  // nor by resignation
    SelfplayJob job = vzero::testing::selfplay_job(game, eval, (dir / "shards").string(), sp, 1);
    job.first_game_id = 1000;
    job.file_prefix = "gen1";
    run_selfplay(job);
  }
  std::map<int64_t, bool> capped;  // game -> stopped at the cap, from the records
  for (const std::string& path : list_shards((dir / "shards").string()))
    for (const GameRecord& g : read_shard(path).games) capped[g.game_id] = g.end_reason == "cap";
  const ReplayWindow w =
      load_window(game_by_id("attrition"), (dir / "shards").string(), 1000000, 0.0);
  int marked = 0, unmarked = 0;
  for (const Sample& s : w.train) {
    REQUIRE(capped.count(s.game_id));
    CHECK(s.capped == capped[s.game_id]);
    (s.capped ? marked : unmarked) += 1;
  }
  CHECK(marked == 4 * 2);  // the four capped games, two positions each
  CHECK(unmarked > 0);
  fs::remove_all(dir);
}

TEST_CASE("win/draw/loss and moves-left targets", "[training][learning]") {
  TrainConfig c;
  c.value_target = "result";
  SampleTargets t = sample_targets(sample(1.0f, 0.0f, 5, 7), c);
  CHECK(t.wdl == std::array<float, 3>{0.0f, 0.0f, 1.0f});  // the player to act lost
  CHECK(t.moves_left == 7.0f);
  t = sample_targets(sample(0.0f, 0.0f, 5, -1), c);
  CHECK(t.wdl == std::array<float, 3>{0.0f, 1.0f, 0.0f});
  CHECK(t.moves_left < 0.0f);
  c.value_target = "root";  // the search thinks the player to act stands at +0.6
  t = sample_targets(sample(0.0f, -0.6f, 5, 7), c);
  CHECK(t.wdl[0] == Approx(0.6));
  CHECK(t.wdl[1] == Approx(0.4));
  CHECK(t.wdl[2] == Approx(0.0));
}

TEST_CASE("the window grows with the positions generated, up to its limit",
          "[training][learning]") {
  TrainConfig c;
  c.window_positions = 500000;
  CHECK(window_size(c, 10) == 500000);  // fixed unless growth is on
  c.window_growth = true;
  c.window_min = 1000;
  c.window_exponent = 0.75;
  c.window_slope = 0.4;
  CHECK(window_size(c, 500) == 1000);
  CHECK(window_size(c, 1000) == 1000);
  // 1000 * (1 + 0.4 * (16^0.75 - 1) / 0.75) = 1000 * (1 + 0.4 * 7 / 0.75)
  CHECK(window_size(c, 16000) == int64_t(1000 * (1 + 0.4 * 7 / 0.75)));
  CHECK(window_size(c, 16000) < 16000);
  c.window_positions = 2000;
  CHECK(window_size(c, 16000) == 2000);
}

TEST_CASE("the window knows moves left and caps the bootstrap's share", "[training][learning]") {
  const fs::path dir = vzero::testing::temp_dir("learn-window");
  make_shards(dir, 20, 0, 0);
  make_shards(dir, 10, 1, 1000);
  const Game& game = game_by_id("attrition");
  const std::string shards = (dir / "shards").string();
  CHECK(count_positions(shards) > 0);
  const ReplayWindow all = load_window(game, shards, 1000000, 0.0);
  CHECK(int64_t(all.train.size()) == count_positions(shards));
  for (const Sample& s : all.train) {
    CHECK(s.moves_left >= 0);  // 0: the position a player resigned in
    if (s.ply == 0) CHECK(s.moves_left > 2);
  }
  int64_t bootstrap = 0;
  for (const Sample& s : all.train) bootstrap += s.generation == 0;
  const int64_t rest = int64_t(all.train.size()) - bootstrap;
  REQUIRE(bootstrap > rest);
  const ReplayWindow capped = load_window(game, shards, 1000000, 0.0, 0.25);
  int64_t kept = 0;
  for (const Sample& s : capped.train) kept += s.generation == 0;
  CHECK(int64_t(capped.train.size()) - kept == rest);  // the network's games all stay
  CHECK(kept < bootstrap);
  CHECK(double(kept) / double(capped.train.size()) <
        0.4);  // about a quarter (whole games are kept)
  // The same games every time.
  const ReplayWindow again = load_window(game, shards, 1000000, 0.0, 0.25);
  CHECK(again.train.size() == capped.train.size());
  // Only bootstrap games: nothing else to train on, so nothing is dropped.
  const fs::path only = vzero::testing::temp_dir("learn-window-only");
  make_shards(only, 10, 0, 0);
  CHECK(load_window(game, (only / "shards").string(), 1000000, 0.0, 0.1).train.size() ==
        load_window(game, (only / "shards").string(), 1000000, 0.0).train.size());
}

TEST_CASE("the window keeps distinct games that share an id, and a game written twice once",
          "[training][learning]") {
  const fs::path dir = vzero::testing::temp_dir("learn-window-ids");
  make_shards(dir, 6, 1, 0);               // ids 0..5
  make_shards(dir, 6, 1, 0, 99, "other");  // another folder's games, also ids 0..5
  const Game& game = game_by_id("attrition");
  const std::string shards = (dir / "shards").string();
  // Each part's (game id, ply) pairs in order: what the trainer's batches are drawn from.
  const auto order_of = [](const std::vector<Sample>& part) {
    std::vector<std::pair<int64_t, int>> order;
    for (const Sample& s : part) order.emplace_back(s.game_id, s.ply);
    return order;
  };
  const auto games_of = [](const ReplayWindow& w) {
    std::set<int64_t> ids;
    for (const auto* part : {&w.train, &w.validation})
      for (const Sample& s : *part) ids.insert(s.game_id);
    return ids;
  };
  const ReplayWindow w = load_window(game, shards, 1000000, 0.3);
  CHECK(int64_t(w.train.size() + w.validation.size()) == count_positions(shards));  // none lost
  CHECK(games_of(w).size() == 12);
  CHECK(!w.validation.empty());
  // A copy of the oldest shard, now the newest (read first), adds nothing and changes nothing:
  // the same games keep the same ids, the same split and the same order.
  const std::vector<std::string> files = list_shards(shards);
  fs::copy_file(files.front(), dir / "shards" / "copy.h5");
  const ReplayWindow again = load_window(game, shards, 1000000, 0.3);
  CHECK(games_of(again) == games_of(w));
  CHECK(order_of(again.train) == order_of(w.train));
  CHECK(order_of(again.validation) == order_of(w.validation));
}

TEST_CASE("a win/draw/loss and moves-left model learns its targets", "[training][learning]") {
  const fs::path dir = vzero::testing::temp_dir("learn-heads");
  make_shards(dir, 20, 0, 0);
  const RunConfig c = parse_run_config(
      "variant = \"attrition\"\nseed = 3\n"
      "[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\nvalue_head = \"wdl\"\nmoves_left_head "
      "= true\n"
      "global_pooling = 1\n"
      "[train]\nbatch_size = 64\nthreads = 1\nlr = 0.02\nlr_warmup_steps = 5\nholdout_fraction = "
      "0.0\n",
      "test config");
  const Game& game = game_by_id("attrition");
  const ReplayWindow w = load_window(game, (dir / "shards").string(), 1000000, 0.0);
  Trainer trainer(game, c, "");
  const Validation before = trainer.validate(w.train);
  const TrainReport first = trainer.train(w, 5);
  const TrainReport last = trainer.train(w, 150);
  const Validation after = trainer.validate(w.train);
  CHECK(before.moves_left_mae >= 0.0);
  CHECK(after.moves_left_mae < 0.6 * before.moves_left_mae);
  CHECK(last.value_loss < first.value_loss);  // the win/draw/loss cross-entropy
  CHECK(last.moves_left_loss < first.moves_left_loss);
  CHECK(after.value_mse < before.value_mse);
}

TEST_CASE("inference with random symmetry answers through one of the board's symmetries",
          "[net][learning]") {
  const Game& game = game_by_id("attrition");
  const std::vector<BoardSymmetry> syms = board_symmetries(game);
  REQUIRE(syms.size() == 7);
  ModelConfig mc;
  mc.blocks = 1;
  mc.filters = 8;
  ServerConfig sc;
  sc.cache_entries = 0;
  sc.random_symmetry = true;
  InferenceServer server(game, sc, "", mc, 5);
  PolicyValueNet model = make_model(mc, ModelIdentity::of(game), 5);  // the same weights
  model->eval();
  torch::NoGradGuard no_grad;
  const EncodingSpec& spec = game.encoding();
  std::set<int> views_used;
  auto state = game.new_state();
  uint64_t rng = 9;
  for (int ply = 0; ply < 12 && !state->is_terminal(); ++ply) {
    std::vector<Evaluation> out;
    server.evaluate({state.get()}, out);
    std::vector<uint8_t> planes(size_t(spec.planes) * spec.plane_size()), mapped(planes.size());
    std::vector<float> scalars(spec.scalars);
    state->encode(planes.data(), scalars.data());
    const std::vector<int>& legal = state->legal_actions();
    int matched = -1;
    for (int view = 0; view <= int(syms.size()) && matched < 0; ++view) {
      const BoardSymmetry* g = view == 0 ? nullptr : &syms[size_t(view - 1)];
      if (g) map_planes(*g, spec, planes.data(), mapped.data());
      torch::Tensor x = torch::empty({1, spec.channels(), spec.height, spec.width});
      expand_input(spec, g ? mapped.data() : planes.data(), scalars.data(), x.data_ptr<float>());
      const torch::Tensor logits = model->forward(x).policy[0];
      std::vector<double> p(legal.size());
      double sum = 0.0;
      for (size_t k = 0; k < legal.size(); ++k)
        sum += p[k] = std::exp(logits[g ? g->action[size_t(legal[k])] : legal[k]].item<double>());
      bool same = true;
      for (size_t k = 0; k < legal.size(); ++k)
        same = same && std::abs(p[k] / sum - out[0].priors[k]) < 1e-4;
      if (same) matched = view;
    }
    CHECK(matched >= 0);
    views_used.insert(matched);
    state->apply(legal[splitmix64(rng) % legal.size()]);
  }
  CHECK(views_used.size() >= 3);  // different positions are seen through different views
}
