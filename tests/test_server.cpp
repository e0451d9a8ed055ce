// Server tests: batching, the cache, errors, and callers attached to the inference server.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <limits>
#include <thread>

#include "game/builtin/games.h"
#include "match/players.h"
#include "net/checkpoint.h"
#include "net/model.h"
#include "net/server.h"
#include "net_test_util.h"
#include "search/search.h"
#include "test_util.h"
#include "util/error.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;
namespace fs = std::filesystem;

using vzero::testing::inputs;
using vzero::testing::sample_states;
using vzero::testing::small_config;
using vzero::testing::small_model;

namespace {

// A server of a fresh small model with a cache of cache_entries (0: off) and `workers` workers.
std::unique_ptr<InferenceServer> small_server(const Game& game, int max_batch, int max_wait_us,
                                              int cache_entries, int workers = 1) {
  ServerConfig config;
  config.workers = workers;
  config.max_batch = max_batch;
  config.max_wait_us = max_wait_us;
  config.cache_entries = cache_entries;
  ModelConfig small;
  small.blocks = 1;
  small.filters = 8;
  return std::make_unique<InferenceServer>(game, config, "", small, 5);
}

// A server of a fresh small model with the cache off.
std::unique_ptr<InferenceServer> uncached_server(const Game& game, int max_batch, int max_wait_us) {
  return small_server(game, max_batch, max_wait_us, 0);
}

}  // namespace

TEST_CASE("net: the server answers each of many threads with its own results", "[net][server]") {
  const Game& game = game_by_id("chess");
  const fs::path dir = vzero::testing::temp_dir("net-server");
  PolicyValueNet m = small_model(game, small_config(), 11);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 0, 0);
  ServerConfig config;
  config.max_batch = 16;
  config.max_wait_us = 2000;
  InferenceServer server(game, config, path);
  auto states = sample_states(game, 64, 5);
  // Expected answers straight from the model.
  torch::NoGradGuard g;
  const NetOutput expected = m->forward(inputs(game, states));
  const torch::Tensor &p = expected.policy, &v = expected.values;
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
    const torch::Tensor logits =
        p[i].index_select(0, torch::tensor(std::vector<int64_t>(legal.begin(), legal.end())));
    const torch::Tensor want = torch::softmax(logits, 0);
    for (size_t k = 0; k < legal.size(); ++k)
      CHECK(got[i].priors[k] == Approx(want[k].item<float>()).margin(1e-5));
    const int me = states[i]->current_player();
    CHECK(got[i].values[me] == Approx(v[i][0].item<float>()).margin(1e-5));
    CHECK(got[i].values[1 - me] == Approx(v[i][1].item<float>()).margin(1e-5));
  }
  const ServerStats s = server.stats();
  CHECK(s.requests == 64);
  CHECK(s.evaluated + s.cache_hits == 64);

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

TEST_CASE("net: the cache keeps one entry a slot and a new position replaces the old",
          "[net][server]") {
  const Game& game = game_by_id("losalamos");
  const auto states = sample_states(game, 40, 9);
  // One slot: every position shares it.
  const auto server = small_server(game, 8, 100, 1);
  std::vector<Evaluation> a, a_again, b, a_third;
  server->evaluate({states[3].get()}, a);
  server->evaluate({states[3].get()}, a_again);
  CHECK(server->stats().cache_hits == 1);
  CHECK(a_again[0].priors == a[0].priors);
  CHECK(a_again[0].values == a[0].values);
  server->evaluate({states[20].get()}, b);  // takes the slot
  CHECK(server->stats().cache_hits == 1);
  server->evaluate({states[3].get()}, a_third);  // evaluated again, the same
  CHECK(server->stats().cache_hits == 1);
  CHECK(server->stats().evaluated == 3);
  CHECK(a_third[0].priors == a[0].priors);
  CHECK(a_third[0].values == a[0].values);
  CHECK(b[0].priors.size() == states[20]->legal_actions().size());

  // Many positions through a small cache, each asked for twice in a row (the second time from
  // the cache): every answer is still the network's.
  const auto cached = small_server(game, 8, 100, 7);
  const auto uncached = uncached_server(game, 8, 100);
  for (const auto& s : states) {
    std::vector<Evaluation> x, x_again, y;
    cached->evaluate({s.get()}, x);
    cached->evaluate({s.get()}, x_again);
    uncached->evaluate({s.get()}, y);
    CHECK(x[0].priors == y[0].priors);
    CHECK(x[0].values == y[0].values);
    CHECK(x_again[0].priors == y[0].priors);
    CHECK(x_again[0].values == y[0].values);
  }
  CHECK(cached->stats().cache_hits >= 40);
  CHECK(cached->stats().evaluated + cached->stats().cache_hits == 80);
}

TEST_CASE("net: searches sharing the server run and fill batches", "[net][server]") {
  const Game& game = game_by_id("attrition");
  const auto owned = uncached_server(game, 64, 3000);
  InferenceServer& server = *owned;
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
  // The leaves of one search batch go to the network together (a call is
  // queued at once and never split below max_batch), so some network call
  // held more than one position, however the threads were scheduled.
  const ServerStats s = server.stats();
  CHECK(s.batches < s.evaluated);
  // With the cache off every position asked for is run through the network.
  CHECK(s.evaluated == s.requests);
}

TEST_CASE("net: one call's positions form batches of at most max_batch", "[net][server]") {
  const Game& game = game_by_id("attrition");
  const auto owned = uncached_server(game, 16, 1000);
  InferenceServer& server = *owned;
  auto states = sample_states(game, 40, 9);
  std::vector<const GameState*> all;
  for (const auto& st : states) all.push_back(st.get());
  std::vector<Evaluation> out;
  // One call queues all its positions at once: exactly 16 + 16 + 8.
  server.evaluate(all, out);
  CHECK(server.stats().evaluated == 40);
  CHECK(server.stats().batches == 3);
  // The cache is off: the same positions again are evaluated again, identically.
  std::vector<Evaluation> again;
  server.evaluate(all, again);
  CHECK(server.stats().evaluated == 80);
  CHECK(server.stats().cache_hits == 0);
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(again[i].priors == out[i].priors);
    CHECK(again[i].values == out[i].values);
  }
}

TEST_CASE("net: a failing network answers every waiting caller with an error", "[net][server]") {
  // A diverged model (NaN weights: they load, their checksum holds) gives
  // outputs that are not numbers, which the server refuses: every batch
  // fails inside the worker. Each caller must get a vzero::Error, none may
  // hang, and the server must stay usable (it fails again, it does not die).
  const Game& game = game_by_id("attrition");
  const fs::path dir = vzero::testing::temp_dir("net-fail");
  PolicyValueNet m = small_model(game, small_config(), 13);
  {
    torch::NoGradGuard g;
    m->named_parameters()["value_fc2.bias"].fill_(std::numeric_limits<float>::quiet_NaN());
  }
  const std::string path = (dir / "diverged.pt").string();
  save_checkpoint(path, m, 0, 0);
  ServerConfig config;
  config.max_batch = 4;
  config.max_wait_us = 500;
  config.workers = 2;
  InferenceServer server(game, config, path);
  auto states = sample_states(game, 12, 4);
  std::atomic<int> errors{0}, answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = t; i < 12; i += 6) {
        std::vector<Evaluation> out;
        try {
          server.evaluate({states[size_t(i)].get(), states[size_t((i + 1) % 12)].get()}, out);
          ++answered;
        } catch (const vzero::Error& e) {
          errors += std::string(e.what()).find("network evaluation failed") != std::string::npos;
        }
      }
    });
  for (auto& th : threads) th.join();
  CHECK(errors == 12);
  CHECK(answered == 0);
  std::vector<Evaluation> out;
  CHECK_THROWS_AS(server.evaluate({states[0].get()}, out), vzero::Error);
  fs::remove_all(dir);
}

TEST_CASE("net: a batch goes at once when every attached caller waits", "[net][server]") {
  // max_wait_us of 100 s: a worker that waited it out would hang the test.
  const Game& game = game_by_id("attrition");
  const auto owned = uncached_server(game, 64, 100000000 - 1);
  InferenceServer& server = *owned;
  auto states = sample_states(game, 6, 21);
  const auto start = std::chrono::steady_clock::now();
  {
    // A lone search: each of its calls is a batch of its own, sent at once.
    SearchConfig c;
    c.simulations = 24;
    c.batch = 4;
    Search search(server, c, 3);
    search.set_root(*states[0]);
    const SearchResult r = search.run();
    CHECK(r.simulations == 24);
  }
  const ServerStats s = server.stats();
  CHECK(s.batches > 1);
  CHECK(s.evaluated == s.requests);
  // Two attached callers: the batch goes once both wait, with both calls in it.
  server.reset_stats();
  server.attach();
  server.attach();
  std::vector<Evaluation> a, b;
  std::thread other([&] { server.evaluate({states[1].get(), states[2].get()}, b); });
  server.evaluate({states[3].get()}, a);
  other.join();
  server.detach();
  server.detach();
  CHECK(server.stats().batches == 1);
  CHECK(server.stats().evaluated == 3);
  // A detach that leaves only waiting callers sends their batch.
  server.reset_stats();
  server.attach();
  server.attach();
  std::thread lone([&] { server.evaluate({states[4].get()}, a); });
  while (server.stats().requests == 0) std::this_thread::yield();
  server.detach();
  lone.join();
  server.detach();
  CHECK(server.stats().batches == 1);
  // Very loose: far below the 100 s a wait would take.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}

TEST_CASE("net: with a worker per attached caller, each call is a batch of its own, sent at once",
          "[net][server]") {
  // Two workers, two attached callers (a match's two games), max_wait_us of 100 s: a call that
  // waited for the other caller's leaves would hang the test.
  const Game& game = game_by_id("attrition");
  const auto owned = small_server(game, 64, 100000000 - 1, 0, 2);
  InferenceServer& server = *owned;
  auto states = sample_states(game, 6, 25);
  const auto start = std::chrono::steady_clock::now();
  server.attach();
  server.attach();
  // One caller waits while the other is attached but busy elsewhere: its call goes at once.
  std::vector<Evaluation> a, b;
  server.evaluate({states[0].get(), states[1].get()}, a);
  CHECK(server.stats().batches == 1);
  CHECK(a.size() == 2);
  // Both call together: two batches (one per call), never one batch of both.
  server.reset_stats();
  for (int round = 0; round < 8; ++round) {
    std::thread other([&] { server.evaluate({states[2].get(), states[3].get()}, b); });
    server.evaluate({states[4].get(), states[5].get(), states[0].get()}, a);
    other.join();
  }
  CHECK(server.stats().batches == 16);
  CHECK(server.stats().evaluated == 40);
  server.detach();
  server.detach();
  // Very loose: far below the 100 s a wait would take.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}

TEST_CASE("net: players sharing a server count as callers only while they search",
          "[net][server]") {
  // max_wait_us of 100 s: a batch that waited for the idle player would hang the test.
  const Game& game = game_by_id("attrition");
  std::shared_ptr<InferenceServer> server = uncached_server(game, 64, 100000000 - 1);
  auto states = sample_states(game, 2, 23);
  SearchConfig c;
  c.simulations = 16;
  c.batch = 4;
  SearchPlayer a(server, c, 1), b(server, c, 2);  // the two seats of one model in a match
  const auto start = std::chrono::steady_clock::now();
  a.new_game(*states[0]);
  b.new_game(*states[0]);
  for (int move = 0; move < 4 && !states[0]->is_terminal(); ++move) {
    SearchPlayer& turn = move % 2 ? b : a;
    const int action = turn.choose(*states[0]);
    CHECK(turn.last_result().simulations > 0);  // fewer than 16 once the result is proven
    a.observe(action);
    b.observe(action);
    states[0]->apply(action);
  }
  CHECK(server->stats().batches > 4);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}
