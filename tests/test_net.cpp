// Network tests: shapes, checkpoints, export (C++ and Python), the server.
#include <torch/script.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <random>
#include <thread>

#include "game/error.h"
#include "mcts/search.h"
#include "net/checkpoint.h"
#include "net/export.h"
#include "net/model.h"
#include "net/server.h"
#include "test_util.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;
namespace fs = std::filesystem;

namespace {


// Positions along a seeded random game (the start included).
std::vector<std::unique_ptr<GameState>> sample_states(const Game& game, int n, uint64_t seed) {
  std::vector<std::unique_ptr<GameState>> out;
  std::mt19937_64 rng(seed);
  auto s = game.new_state();
  while (int(out.size()) < n) {
    if (s->is_terminal()) s = game.new_state();
    out.push_back(s->clone());
    const auto& legal = s->legal_actions();
    s->apply(legal[rng() % legal.size()]);
  }
  return out;
}

// The network input of states as one tensor.
torch::Tensor inputs(const Game& game, const std::vector<std::unique_ptr<GameState>>& states) {
  const EncodingSpec& e = game.encoding();
  torch::Tensor x = torch::empty({int64_t(states.size()), e.channels(), e.height, e.width});
  std::vector<uint8_t> planes(e.planes * e.plane_size());
  std::vector<float> scalars(e.scalars);
  for (size_t i = 0; i < states.size(); ++i) {
    states[i]->encode(planes.data(), scalars.data());
    expand_input(e, planes.data(), scalars.data(), x.data_ptr<float>() + i * e.channels() * e.plane_size());
  }
  return x;
}

PolicyValueNet small_model(const Game& game, uint64_t seed = 3) {
  ModelConfig c;
  c.blocks = 2;
  c.filters = 16;
  PolicyValueNet m = make_model(c, ModelIdentity::of(game), seed);
  // Non-trivial batch-norm statistics, so that folding them is tested.
  m->train();
  torch::NoGradGuard g;
  for (int i = 0; i < 3; ++i) m->forward(torch::randn({8, m->identity.channels, m->identity.height, m->identity.width}));
  m->eval();
  return m;
}

void write_floats(const fs::path& p, const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(c.data_ptr<float>()), c.numel() * sizeof(float));
}

}  // namespace

TEST_CASE("net: policy output is the action space, values one per seat", "[net]") {
  for (const char* id : {"chess", "grand", "ascending", "007", "007-detente", "attrition", "attrition-4p"}) {
    const Game& game = game_by_id(id);
    PolicyValueNet m = small_model(game);
    auto states = sample_states(game, 4, 1);
    torch::NoGradGuard g;
    auto [p, v] = m->forward(inputs(game, states));
    CHECK(p.size(0) == 4);
    CHECK(p.size(1) == game.num_actions());
    CHECK(v.size(1) == game.num_players());
    CHECK(v.abs().max().item<float>() <= 1.0f);
  }
}

TEST_CASE("net: a checkpoint loads back exactly, and a wrong or damaged one is refused", "[net]") {
  const fs::path dir = vzero::testing::temp_dir("net-ckpt");
  const Game& game = game_by_id("attrition");
  PolicyValueNet m = small_model(game);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 42, 3);
  const ModelIdentity id = ModelIdentity::of(game);
  Checkpoint c = load_checkpoint(path, &id);
  CHECK(c.step == 42);
  CHECK(c.generation == 3);
  c.model->eval();
  auto states = sample_states(game, 5, 2);
  torch::NoGradGuard g;
  const torch::Tensor x = inputs(game, states);
  CHECK(torch::equal(m->forward(x).first, c.model->forward(x).first));
  CHECK(torch::equal(m->forward(x).second, c.model->forward(x).second));

  const ModelIdentity other = ModelIdentity::of(game_by_id("attrition-3p"));
  CHECK_THROWS_WITH(load_checkpoint(path, &other), Catch::Contains("different variant"));
  CHECK_THROWS_WITH(load_checkpoint((dir / "none.pt").string()), Catch::Contains("does not exist"));
  // Truncated copies and flipped bytes.
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  for (size_t cut : {size_t(10), bytes.size() / 2, bytes.size() - 30}) {
    const fs::path t = dir / "cut.pt";
    std::ofstream(t, std::ios::binary).write(bytes.data(), cut);
    CHECK_THROWS_AS(load_checkpoint(t.string(), &id), vzero::Error);
  }
  int refused = 0, identical = 0;
  for (size_t at = bytes.size() / 5; at < bytes.size() * 4 / 5; at += bytes.size() / 23) {
    std::string bad = bytes;
    bad[at] ^= 0x5a;
    const fs::path t = dir / "flip.pt";
    std::ofstream(t, std::ios::binary).write(bad.data(), bad.size());
    try {
      Checkpoint b = load_checkpoint(t.string(), &id);
      b.model->eval();
      // A flip that loads must have hit bytes that do not matter.
      identical += torch::equal(b.model->forward(x).first, m->forward(x).first);
      CHECK(torch::equal(b.model->forward(x).first, m->forward(x).first));
    } catch (const vzero::Error&) {
      ++refused;
    }
  }
  CHECK(refused > 0);
  fs::remove_all(dir);
}

TEST_CASE("net: the TorchScript export matches the model in C++ and in Python", "[net][export]") {
  const fs::path dir = vzero::testing::temp_dir("net-export");
  for (const char* id : {"chess", "attrition-3p"}) {
    const Game& game = game_by_id(id);
    PolicyValueNet m = small_model(game, 7);
    const std::string path = (dir / (std::string(id) + ".ts")).string();
    export_torchscript(m, game, path);
    auto states = sample_states(game, 6, 3);
    const torch::Tensor x = inputs(game, states);
    torch::NoGradGuard g;
    auto [p, v] = m->forward(x);
    torch::jit::Module loaded = torch::jit::load(path);
    auto out = loaded.forward({x}).toTuple();
    const torch::Tensor lp = out->elements()[0].toTensor(), lv = out->elements()[1].toTensor();
    CHECK((lp - p).abs().max().item<float>() < 1e-5f);
    CHECK((lv - v).abs().max().item<float>() < 1e-5f);
    CHECK(loaded.attr("variant").toStringRef() == id);
    CHECK(int(loaded.attr("actions").toList().size()) == game.num_actions());

    // Python (Debian's python3-torch) loads the same file and gets the same outputs.
    write_floats(dir / "x.bin", x);
    write_floats(dir / "p.bin", p);
    write_floats(dir / "v.bin", v);
    const std::string cmd = "/usr/bin/python3 " + std::string(VZERO_TESTS_DIR) + "/check_export.py " + path + " " +
                            dir.string() + " " + std::to_string(x.size(0)) + " " + id;
    CHECK(std::system(cmd.c_str()) == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("net: the server answers each of many threads with its own results", "[net][server]") {
  const Game& game = game_by_id("chess");
  const fs::path dir = vzero::testing::temp_dir("net-server");
  PolicyValueNet m = small_model(game, 11);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 0, 0);
  ServerConfig config;
  config.max_batch = 16;
  config.max_wait_us = 2000;
  InferenceServer server(game, config, path);
  auto states = sample_states(game, 64, 5);
  // Expected answers straight from the model.
  torch::NoGradGuard g;
  auto [p, v] = m->forward(inputs(game, states));
  std::vector<std::thread> threads;
  std::vector<Evaluation> got(states.size());
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = t; i < int(states.size()); i += 8) {
        std::vector<Evaluation> out;
        server.evaluate({states[i].get()}, out);
        got[i] = out[0];
      }
    });
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < states.size(); ++i) {
    const auto& legal = states[i]->legal_actions();
    REQUIRE(got[i].priors.size() == legal.size());
    const torch::Tensor logits = p[i].index_select(0, torch::tensor(std::vector<int64_t>(legal.begin(), legal.end())));
    const torch::Tensor want = torch::softmax(logits, 0);
    for (size_t k = 0; k < legal.size(); ++k) CHECK(got[i].priors[k] == Approx(want[k].item<float>()).margin(1e-5));
    const int me = states[i]->current_player();
    CHECK(got[i].values[me] == Approx(v[i][0].item<float>()).margin(1e-5));
    CHECK(got[i].values[1 - me] == Approx(v[i][1].item<float>()).margin(1e-5));
  }
  const ServerStats s = server.stats();
  CHECK(s.requests == 64);
  CHECK(s.evaluated + s.cache_hits == 64);
  CHECK(s.mean_batch() > 1.0);

  // A repeated position comes from the cache, identical.
  std::vector<Evaluation> first, again;
  server.evaluate({states[10].get()}, first);
  const uint64_t hits = server.stats().cache_hits;
  server.evaluate({states[10].get()}, again);
  CHECK(server.stats().cache_hits == hits + 1);
  CHECK(first[0].priors == again[0].priors);
  CHECK(first[0].values == again[0].values);
  fs::remove_all(dir);
}

TEST_CASE("net: searches sharing the server run and fill batches", "[net][server]") {
  const Game& game = game_by_id("attrition");
  ServerConfig config;
  config.max_batch = 64;
  config.max_wait_us = 3000;
  config.cache_entries = 0;
  ModelConfig small;
  small.blocks = 1;
  small.filters = 8;
  InferenceServer server(game, config, "", small, 5);
  std::vector<std::thread> threads;
  std::atomic<int> full_searches{0};  // Catch assertions are not thread-safe: count, check after
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      SearchConfig c;
      c.simulations = 64;
      c.batch = 8;
      Search search(server, c, t);
      auto s = game.new_state();
      search.set_root(*s);
      for (int move = 0; move < 3; ++move) {
        const SearchResult r = search.run();
        full_searches += r.simulations == 64 || r.proven;  // a proven root stops early
        search.advance(search.choose_action(r));
      }
    });
  for (auto& th : threads) th.join();
  CHECK(full_searches == 12);
  CHECK(server.stats().mean_batch() > 1.0);
  CHECK(server.stats().cache_hits == 0);
}
