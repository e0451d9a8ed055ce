// Training tests: the loss goes down on a fixed dataset (held-out games too),
// a killed and resumed training ends where an uninterrupted one does, configs
// reject bad keys, values come back at their seats through the server, fast
// searches are masked out of the policy loss, a damaged shard is skipped.
#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/server.h"
#include "training/loop.h"
#include "training/train_run.h"
#include "training/trainer.h"

#undef CHECK  // glog's, through LibTorch; Catch's must win
#include <sys/wait.h>
#include <unistd.h>

#include <catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "selfplay/shard.h"
#include "test_util.h"
#include "util/error.h"
#include "util/files.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = vzero::testing::temp_dir("train-" + name);
  fs::create_directories(d / "shards");
  return d;
}

RunConfig tiny_config(int steps) {
  std::ostringstream text;
  text << "variant = \"attrition\"\nseed = 3\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
       << "[train]\nbatch_size = 32\nsteps = " << steps
       << "\nthreads = 1\nlr_warmup_steps = 5\nholdout_fraction = 0.2\n";
  return parse_run_config(text.str(), "test config");
}

// Writes a few self-play games into dir/shards.
void make_shards(const fs::path& dir, const RunConfig& config) {
  const Game& game = game_by_id("attrition");
  RolloutEvaluator eval(1);
  SelfplayJob job;
  job.game = &game;
  job.selfplay.games = 60;            // enough positions that the held-out games are learned too
  job.selfplay.parallel_games = 1;    // the same games on every run
  job.selfplay.games_per_shard = 20;  // three shards
  job.selfplay.full_visits = 48;
  job.selfplay.fast_visits = 8;
  job.search.root_noise = true;
  job.evaluator = &eval;
  job.meta = shard_meta_for(game, config.model.encoding, config.hash, 0);
  job.out_dir = (dir / "shards").string();
  run_selfplay(job);
}

// Every parameter and buffer of two checkpoints are equal.
bool same_weights(const std::string& a, const std::string& b) {
  Checkpoint x = load_checkpoint(a), y = load_checkpoint(b);
  if (x.step != y.step) return false;
  auto px = x.model->named_parameters(), py = y.model->named_parameters();
  for (const auto& p : px)
    if (!torch::equal(p.value(), py[p.key()])) return false;
  auto bx = x.model->named_buffers(), by = y.model->named_buffers();
  for (const auto& b : bx)
    if (!torch::equal(b.value(), by[b.key()])) return false;
  return true;
}

}  // namespace

TEST_CASE("training: a run of an older encoding version writes, reads and trains in it",
          "[training][encoding]") {
  const fs::path dir = fresh_dir("encoding");
  const RunConfig config = parse_run_config(
      "variant = \"attrition\"\nseed = 3\n[model]\nblocks = 1\nfilters = 8\nencoding = 1\n"
      "[train]\nbatch_size = 32\nthreads = 1\n",
      "test config");
  make_shards(dir, config);
  const Game& game = game_by_id("attrition");
  const ReplayWindow w =
      load_window(game, (dir / "shards").string(), 100000, 0.0, 1.0, config.model.encoding);
  REQUIRE(!w.train.empty());
  CHECK(w.meta.encoding_hash == encoding_hash(game, 1));
  CHECK(w.train[0].planes.size() == size_t(game.encoding(1).planes) * 64);
  // A window for the newest version refuses them.
  CHECK_THROWS_WITH(load_window(game, (dir / "shards").string(), 100000, 0.0),
                    Catch::Contains("encoding"));
  Trainer t(game, config, "");
  CHECK(t.train(w, 3).steps == 3);
  const std::string path = (dir / "m.pt").string();
  t.save(path, 0);
  CHECK(load_checkpoint_for(game, path).model->identity.encoding == 1);
  // A run whose config says 0 (the newest) goes on in its shards' version, so that a
  // run begun before a newer version was added keeps its own; a new run takes the newest.
  RunConfig newest = config;
  newest.model.encoding = 0;
  std::ostringstream log;
  CHECK(RunContext(newest, dir.string(), log).config.model.encoding == 1);
  CHECK(RunContext(newest, fresh_dir("encoding-new").string(), log).config.model.encoding == 0);
  // A run started from a model of an older version (loop.init_model) and a config saying 0
  // goes on in the model's version: its gen-000, and then the file no longer matters.
  const fs::path from = fresh_dir("encoding-init");
  RunConfig init = newest;
  init.loop.init_model = path;
  CHECK(in_init_model_encoding(newest, from.string()).model.encoding == 0);  // no init model
  RunConfig pinned = init;
  pinned.model.encoding = 2;
  CHECK(in_init_model_encoding(pinned, from.string()).model.encoding == 2);  // said explicitly
  const RunConfig resolved = in_init_model_encoding(init, from.string());
  REQUIRE(resolved.model.encoding == 1);
  {
    const RunContext run(resolved, from.string(), log);
    run.folder.prepare(run.config);
    check_init_model(run);
    save_fresh_model(run);
    CHECK(load_checkpoint_for(game, run.folder.model_path(0)).model->identity.encoding == 1);
  }
  RunConfig moved = init;
  moved.loop.init_model = (dir / "moved-away.pt").string();
  CHECK(in_init_model_encoding(moved, from.string()).model.encoding == 1);  // read from gen-000
  CHECK(in_init_model_encoding(moved, fresh_dir("encoding-none").string()).model.encoding == 0);
  const std::string broken = (dir / "broken.pt").string();
  write_text_file(broken, "not a checkpoint");
  moved.loop.init_model = broken;
  CHECK_THROWS_AS(in_init_model_encoding(moved, fresh_dir("encoding-none").string()), Error);
  fs::remove_all(dir);
  for (const char* name : {"encoding-new", "encoding-init", "encoding-none"})
    fs::remove_all(fresh_dir(name));
}

TEST_CASE("training: the loss on a small fixed dataset goes down, on held-out games too",
          "[training]") {
  const fs::path dir = fresh_dir("loss");
  const RunConfig config = tiny_config(0);
  make_shards(dir, config);
  const Game& game = game_by_id("attrition");
  // A third of the games held out: the network never trains on them.
  const ReplayWindow w = load_window(game, (dir / "shards").string(), 100000, 0.3);
  REQUIRE(w.train.size() > 200);
  REQUIRE(w.validation.size() > 50);
  std::set<int64_t> trained;
  for (const Sample& s : w.train) trained.insert(s.game_id);
  int64_t seen = 0;
  for (const Sample& v : w.validation) seen += trained.count(v.game_id);
  REQUIRE(seen == 0);
  Trainer t(game, config, "");
  const Validation before = t.validate(w.train), held_before = t.validate(w.validation);
  const TrainReport first = t.train(w, 20);
  t.train(w, 200);
  const TrainReport last = t.train(w, 20);
  const Validation after = t.validate(w.train), held_after = t.validate(w.validation);
  CHECK(last.policy_loss + last.value_loss < first.policy_loss + first.value_loss);
  CHECK(after.policy_loss < before.policy_loss);
  CHECK(after.value_mse < before.value_mse);
  // What it learned carries over to games it has not seen.
  CHECK(held_after.policy_loss < held_before.policy_loss);
  CHECK(held_after.value_mse < held_before.value_mse);
  fs::remove_all(dir);
}

TEST_CASE("training: a killed and resumed training ends where an uninterrupted one does",
          "[training]") {
  const RunConfig config = tiny_config(120);
  const fs::path whole = fresh_dir("whole"), killed = fresh_dir("killed");
  make_shards(whole, config);
  fs::copy(whole / "shards", killed / "shards",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::ostringstream quiet;
  run_training({config, whole.string(), quiet});

  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::ostringstream sink;
    TrainRequest request;
    request.saved = [](int64_t) { raise(SIGKILL); };  // dies right after the first periodic save
    run_training({config, killed.string(), sink}, request);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(WTERMSIG(status) == SIGKILL);
  // Killed before the end: the checkpoint left behind is at step 50 of 120.
  const fs::path ckpt = killed / "models" / "train.pt";
  REQUIRE(load_checkpoint(ckpt.string()).step == 50);
  run_training({config, killed.string(), quiet});  // resumes to the same target step
  CHECK(same_weights((whole / "models" / "train.pt").string(), ckpt.string()));
  fs::remove_all(whole);
  fs::remove_all(killed);
}

TEST_CASE("run config: defaults, overrides and errors", "[training][config]") {
  const RunConfig d = parse_run_config("", "empty");
  CHECK(d.variant == "attrition");
  CHECK(d.resolved.find("[selfplay]") != std::string::npos);
  CHECK(d.resolved.find("full_visits = 200") != std::string::npos);
  // The resolved text reads back to the same config.
  CHECK(parse_run_config(d.resolved, "resolved").hash == d.hash);
  CHECK_THROWS_WITH(parse_run_config("[selfplay]\nfull_vists = 3\n", "t"),
                    Catch::Contains("unknown key 'full_vists'"));
  CHECK_THROWS_WITH(parse_run_config("[trian]\n", "t"), Catch::Contains("unknown key 'trian'"));
  CHECK_THROWS_WITH(parse_run_config("[train]\nlr = -1\n", "t"), Catch::Contains("lr"));
  CHECK_THROWS_WITH(parse_run_config("[search]\ncpuct = \"x\"\n", "t"),
                    Catch::Contains("wrong type"));
  CHECK_THROWS_WITH(parse_run_config("seed = [", "t"), Catch::Contains("t"));
  const RunConfig o = read_run_config("", {"selfplay.games=7", "variant=\"chess\""});
  CHECK(o.selfplay.games == 7);
  CHECK(o.variant == "chess");
  CHECK_THROWS_WITH(parse_run_config("[train]\nroot_value_weight = 1.5\n", "t"),
                    Catch::Contains("root_value_weight"));
  CHECK_THROWS_WITH(parse_run_config("[loop]\nbootstrap_visits = -1\n", "t"),
                    Catch::Contains("bootstrap_visits"));
  CHECK_THROWS_WITH(parse_run_config("[train]\nsymmetries = 2\n", "t"),
                    Catch::Contains("symmetries"));
  CHECK_THROWS_AS(read_run_config("", {"selfplay.nothing=1"}), vzero::Error);
  // One override sets one value: a second line in it must not be dropped silently.
  CHECK_THROWS_WITH(read_run_config("", {"selfplay.games=7\nx = 1"}),
                    Catch::Contains("one value expected"));
  CHECK_THROWS_AS(read_run_config("/no/such/file.toml"), vzero::Error);
}

TEST_CASE("configs: every shipped config reads and names a known variant", "[training][config]") {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(VZERO_CONFIGS_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    const RunConfig c = read_run_config(entry.path().string());
    CHECK_NOTHROW(game_by_id(c.variant));
    ++n;
  }
  CHECK(n >= 12);
}

TEST_CASE(
    "models: every shipped model has its config beside it, fits its variant and is at most 10 MB",
    "[training][config]") {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(VZERO_MODELS_DIR)) {
    if (entry.path().extension() != ".pt") continue;
    INFO(entry.path().string());
    CHECK(fs::file_size(entry.path()) <= 10u * 1024u * 1024u);
    fs::path config_path = entry.path();
    config_path.replace_extension(".toml");
    REQUIRE(fs::exists(config_path));
    const RunConfig c = read_run_config(config_path.string());
    const ModelIdentity expected = ModelIdentity::of(game_by_id(c.variant), c.model.encoding);
    const auto [identity, model] = read_checkpoint_header(entry.path().string());
    CHECK_NOTHROW(expected.expect_same(identity, entry.path().string()));
    ModelConfig made = c.model;  // the config is the one that made it, its encoding resolved
    made.encoding = expected.encoding;
    CHECK(model.to_text() == made.to_text());
    CHECK_NOTHROW(load_checkpoint(entry.path().string(), &expected));
    ++n;
  }
  CHECK(n >= 5);
}

namespace {

// A training sample of a state whose search put every visit on action (text).
Sample sample_at(const GameState& s, const std::string& action) {
  const EncodingSpec& e = s.game().encoding();
  Sample out;
  out.planes.resize(size_t(e.planes) * size_t(e.plane_size()));
  out.scalars.resize(size_t(e.scalars));
  s.encode(out.planes.data(), out.scalars.data());
  out.policy_index = {s.text_to_action(action)};
  out.policy_weight = {1.0f};
  out.result = out.root_value = std::vector<float>(size_t(s.num_players()), 0.0f);
  out.player = s.current_player();
  return out;
}

// The attrition sample after N@c1 whose search put every visit on N@g5.
Sample attrition_g5_sample() {
  auto state = game_by_id("attrition").new_state();
  state->apply(state->text_to_action("N@c1"));
  return sample_at(*state, "N@g5");
}

}  // namespace

TEST_CASE("training: symmetry augmentation teaches the mapped views of a sample", "[training]") {
  // Trained on one position only (first knight on c1, best reply N@g5), the
  // network must also rank the transposed reply first in the transposed
  // position (knight on a3: N@e7), which it sees only through augmentation.
  const Game& game = game_by_id("attrition");
  RunConfig config = parse_run_config(
      "variant = \"attrition\"\nseed = 5\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
      "[train]\nbatch_size = 32\noptimizer = \"adamw\"\nlr = 0.01\nlr_warmup_steps = 0\nthreads = "
      "1\n",
      "test config");
  auto seen = game.new_state(), mapped = game.new_state();
  seen->apply(seen->text_to_action("N@c1"));
  mapped->apply(mapped->text_to_action("N@a3"));
  ReplayWindow w;
  w.train = {sample_at(*seen, "N@g5")};
  const std::vector<Sample> unseen = {sample_at(*mapped, "N@e7")};
  Trainer t(game, config, "");
  t.train(w, 300);
  CHECK(t.validate(w.train).policy_top1 == 1.0);
  CHECK(t.validate(unseen).policy_top1 == 1.0);
}

TEST_CASE("training: root_value_weight moves the value target from the result to the search value",
          "[training]") {
  // One position, won by the player to act (+1) while the search saw an even game (0).
  const Game& game = game_by_id("attrition");
  Sample s = attrition_g5_sample();
  s.result = {0.0f, 0.0f};
  s.result[size_t(s.player)] = 1.0f;
  s.result[size_t(1 - s.player)] = -1.0f;
  s.root_value = {0.0f, 0.0f};
  ReplayWindow w;
  w.train = {s};
  const auto value_error_after_training = [&](double weight) {
    RunConfig config = parse_run_config(
        "variant = \"attrition\"\nseed = 5\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
        "[train]\nbatch_size = 16\noptimizer = \"adamw\"\nlr = 0.01\nlr_warmup_steps = 0\nthreads "
        "= 1\n"
        "root_value_weight = " +
            std::to_string(weight) + "\n",
        "test config");
    Trainer t(game, config, "");
    t.train(w, 200);
    return t.validate(w.train).value_mse;  // always against the game result
  };
  CHECK(value_error_after_training(0.0) < 0.05);  // learns the result
  CHECK(value_error_after_training(1.0) >
        0.8);  // learns the search value, about 1 away from the result
}

TEST_CASE("training: a value trained for a seat is served for that seat (3 and 4 players)",
          "[training][seats]") {
  // The network's values are relative to the seat to act (net/value_seats.h);
  // the trainer rotates targets into that frame and the server rotates the
  // answers back. Positions with every seat to act, each trained on the same
  // absolute result, must come back from a served checkpoint at the same
  // absolute seats: a rotation that differs between the two would permute them.
  for (const char* id : {"attrition-3p", "attrition-4p"}) {
    INFO(id);
    const Game& game = game_by_id(id);
    const int players = game.num_players();
    const std::vector<float> result = players == 3 ? std::vector<float>{0.8f, 0.0f, -0.8f}
                                                   : std::vector<float>{0.8f, 0.3f, -0.3f, -0.8f};
    // The placement round: seat k acts after k placements.
    const std::vector<std::string> places = {"N@a1", "N@h8", "N@a8", "N@h1"};
    std::vector<std::unique_ptr<GameState>> states;
    ReplayWindow w;
    auto s = game.new_state();
    for (int k = 0; k < players; ++k) {
      REQUIRE(s->current_player() == k);
      Sample sample = sample_at(*s, places[size_t(k)]);
      sample.result = sample.root_value = result;
      w.train.push_back(sample);
      states.push_back(s->clone());
      s->apply(s->text_to_action(places[size_t(k)]));
    }
    const RunConfig config =
        parse_run_config(std::string("variant = \"") + id +
                             "\"\nseed = 5\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n" +
                             "[train]\nbatch_size = 16\noptimizer = \"adamw\"\nlr = "
                             "0.01\nlr_warmup_steps = 0\nthreads = 1\n",
                         "test config");
    Trainer t(game, config, "");
    t.train(w, 600);
    const fs::path dir = fresh_dir(std::string("seats-") + id);
    const std::string path = (dir / "model.pt").string();
    t.save(path, 1);
    ServerConfig serve;
    serve.cache_entries = 0;
    InferenceServer server(game, serve, path);
    for (const auto& state : states) {
      std::vector<Evaluation> out;
      server.evaluate({state.get()}, out);
      INFO("seat to act " << state->current_player());
      for (int seat = 0; seat < players; ++seat)
        CHECK(out[0].values[size_t(seat)] == Approx(result[size_t(seat)]).margin(0.15));
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("training: fast-search samples teach the value only, never the policy",
          "[training][playout-cap]") {
  // Playout cap randomisation: a sample of a fast search (full_search false)
  // is masked out of the policy loss. Trained only on such samples, whose
  // policy says "N@g5", the network must not learn that move; the same
  // samples marked as full searches teach it.
  const Game& game = game_by_id("attrition");
  Sample fast = attrition_g5_sample();
  fast.full_search = false;
  fast.result = {0.5f, -0.5f};
  Sample full = fast;
  full.full_search = true;
  const auto train_on = [&](const Sample& s) {
    RunConfig config = parse_run_config(
        "variant = \"attrition\"\nseed = 5\n[model]\nblocks = 1\nfilters = 8\nvalue_hidden = 16\n"
        "[train]\nbatch_size = 16\noptimizer = \"adamw\"\nlr = 0.01\nlr_warmup_steps = 0\nthreads "
        "= 1\n",
        "test config");
    auto t = std::make_unique<Trainer>(game, config, "");
    ReplayWindow w;
    w.train = {s};
    t->train(w, 200);
    return t;
  };
  const auto untrained = train_on(fast);  // trained, but only through the mask
  const Validation masked = untrained->validate({fast});
  CHECK(masked.samples == 1);
  CHECK(masked.policy_loss == 0.0);  // no policy target to score
  CHECK(masked.policy_top1 == 0.0);
  const double policy_loss_without = untrained->validate({full}).policy_loss;
  const double policy_loss_with = train_on(full)->validate({full}).policy_loss;
  CHECK(policy_loss_without > 3.0);                     // about log(legal moves): nothing learned
  CHECK(policy_loss_with < 1.0);                        // learned when it is a target
  CHECK(untrained->validate({fast}).value_mse < 0.05);  // the value was learned all the same
}

TEST_CASE("training: the trainer runs on the run's device", "[training]") {
  const fs::path dir = fresh_dir("device");
  RunConfig config = tiny_config(0);
  make_shards(dir, config);
  const Game& game = game_by_id("attrition");
  const ReplayWindow w = load_window(game, (dir / "shards").string(), 100000, 0.0);
  Trainer cpu(game, config, "");
  const TrainReport on_cpu = cpu.train(w, 10);
  config.device = "cuda:0";
  if (!torch::cuda::is_available()) {
    CHECK_THROWS_WITH(Trainer(game, config, ""), Catch::Contains("no CUDA"));
  } else {
    // The same steps on the GPU: the same losses up to rounding, and a checkpoint that loads on the
    // CPU.
    Trainer gpu(game, config, "");
    const TrainReport on_gpu = gpu.train(w, 10);
    CHECK(std::abs(on_gpu.policy_loss - on_cpu.policy_loss) < 1e-3);
    CHECK(std::abs(on_gpu.value_loss - on_cpu.value_loss) < 1e-3);
    gpu.save((dir / "gpu.pt").string(), 1);
    CHECK(load_checkpoint((dir / "gpu.pt").string()).step == 10);
    config.device = "cpu";
    CHECK(Trainer(game, config, (dir / "gpu.pt").string()).step() == 10);
  }
  fs::remove_all(dir);
}

TEST_CASE("training: a damaged shard is skipped by the window, counted, and the training goes on",
          "[training][window]") {
  const fs::path dir = fresh_dir("damaged");
  RunConfig config = tiny_config(5);
  make_shards(dir, config);
  const Game& game = game_by_id("attrition");
  const std::vector<std::string> shards = list_shards((dir / "shards").string());
  REQUIRE(shards.size() == 3);
  const int64_t before = count_positions((dir / "shards").string());
  const int64_t lost = read_shard_counts(shards[1]).samples;
  // One changed byte in the middle shard: its whole-file checksum no longer matches.
  {
    std::fstream f(shards[1], std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const std::streamoff middle = f.tellg() / 2;
    f.seekg(middle);
    const char c = char(f.get());
    f.seekp(middle);
    f.put(char(c ^ 0x20));
  }
  REQUIRE_THROWS_WITH(read_shard(shards[1]), Catch::Contains("damaged"));
  const ReplayWindow w = load_window(game, (dir / "shards").string(), 100000, 0.0);
  CHECK(w.shards == 2);
  CHECK(w.skipped == 1);
  CHECK(int64_t(w.train.size()) <= before - lost);  // the others' samples, each position once
  CHECK(!w.train.empty());
  CHECK(count_positions((dir / "shards").string()) == before - lost);
  // A whole training of the run folder goes on without it.
  std::ostringstream log;
  const TrainOutcome out = run_training({config, dir.string(), log});
  CHECK(out.report.step == 5);
  fs::remove_all(dir);
}
