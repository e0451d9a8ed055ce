// Network tests: the inference forms (folded, channels_last, frozen, winograd, int8) against the
// model as trained, on random and shipped models, alone and under several inference workers.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/dense.h"
#include "net/export.h"
#include "net/model.h"
#include "net/server.h"
#include "net/winograd.h"
#include "net_test_util.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;

using vzero::testing::sample_states;
using vzero::testing::small_config;
using vzero::testing::small_model;

TEST_CASE("net: the inference forms fold batch norm and give the trained model's outputs",
          "[net][fold]") {
  struct Case {
    const char* game;
    ModelConfig config;
  };
  std::vector<Case> cases;
  cases.push_back({"chess", small_config()});
  ModelConfig every = small_config();
  every.global_pooling = 1;
  every.value_head = "wdl";
  every.moves_left_head = true;
  cases.push_back({"chess", every});
  ModelConfig three = small_config();
  three.blocks = 3;
  three.filters = 12;
  cases.push_back({"attrition-3p", three});
  ModelConfig conv = small_config();
  conv.policy_head = "conv";
  cases.push_back({"chess", conv});
  three.policy_head = "conv";
  cases.push_back({"attrition-3p", three});
  for (const Case& c : cases) {
    const Game& game = game_by_id(c.game);
    PolicyValueNet m = small_model(game, c.config, 11);
    const torch::Tensor x =
        torch::randn({6, m->identity.channels, m->identity.height, m->identity.width},
                     torch::TensorOptions().dtype(torch::kFloat));
    torch::NoGradGuard g;
    const NetOutput want = m->forward(x);
    for (const char* form : {"folded", "channels_last", "frozen", "winograd", "unfolded"}) {
      INFO(c.game << " " << form << " wdl " << c.config.value_head << " " << c.config.policy_head);
      PolicyValueNet f = inference_model(m, form);
      int batch_norms = 0;
      for (const Layer& l : f->graph.layers) batch_norms += l.kind == LayerKind::BatchNorm;
      CHECK((batch_norms == 0) == (std::string(form) != "unfolded"));
      const NetOutput got = f->forward(x);
      for (const NetworkOutput& o : m->graph.outputs) {
        INFO(o.name);
        const torch::Tensor a = const_cast<NetOutput&>(want).at(o.name);
        const torch::Tensor b = const_cast<NetOutput&>(got).at(o.name);
        REQUIRE(b.defined());
        CHECK(a.sizes() == b.sizes());
        CHECK((a - b).abs().max().item<float>() <= 1e-5f);
      }
    }
    CHECK(!m->is_training());
    CHECK_THROWS_WITH(inference_model(m, "fast"), Catch::Contains("unknown inference form"));
  }
}

namespace {

// The golden Los Alamos model: a trained one kept fixed for these tests (generation 42 of the
// issue-27 campaign, shipped from session 37 to 43), so that the bounds below, measured on it,
// do not move when a new model ships.
const std::string kGoldenLosAlamos = std::string(VZERO_TEST_DATA_DIR) + "/losalamos-gen42.pt";

// A Los Alamos checkpoint (its identity checked) in eval mode.
PolicyValueNet load_losalamos(const std::string& path) {
  const ModelIdentity id = ModelIdentity::of(game_by_id("losalamos"));
  PolicyValueNet m = load_checkpoint(path, &id).model;
  m->eval();
  return m;
}

// The golden Los Alamos model in eval mode and its golden set: 256 positions of seeded random
// play (seed 3).
std::pair<PolicyValueNet, torch::Tensor> golden_losalamos() {
  PolicyValueNet m = load_losalamos(kGoldenLosAlamos);
  return {m, golden_inputs(game_by_id("losalamos"), 256, 3, m->input_plies)};
}

// The outputs of m as trained and of its winograd form on x, after asserting that they agree:
// policy logits within 1.5e-6 of the largest, values within 1e-5, the same best move.
std::pair<NetOutput, NetOutput> check_winograd_agrees(PolicyValueNet m, const torch::Tensor& x) {
  const NetOutput want = m->forward(x), got = inference_model(m, "winograd")->forward(x);
  const float scale = want.policy.abs().max().item<float>();
  INFO("largest policy logit " << scale);
  CHECK((want.policy - got.policy).abs().max().item<float>() <= 1.5e-6f * scale);
  CHECK((want.values - got.values).abs().max().item<float>() <= 1e-5f);
  CHECK(torch::equal(want.policy.argmax(1), got.policy.argmax(1)));
  return {want, got};
}

}  // namespace

TEST_CASE("net: the winograd form picks the cheapest output tile of each board",
          "[net][winograd]") {
  // tiles * (m + 2)^2 multiplications per channel pair: 6x6 with m = 3 needs 4 * 25 = 100
  // (m = 2: 9 * 16 = 144; direct: 36 * 9 = 324).
  CHECK(winograd_tile(6, 6) == 3);    // Los Alamos
  CHECK(winograd_tile(5, 5) == 3);    // minishogi
  CHECK(winograd_tile(7, 7) == 4);    // parachute: 4 * 36 = 144 against 9 * 25 = 225
  CHECK(winograd_tile(8, 8) == 4);    // chess
  CHECK(winograd_tile(9, 9) == 3);    // shogi: 9 * 25 = 225 against 9 * 36 = 324
  CHECK(winograd_tile(10, 10) == 4);  // grand
  CHECK(winograd_tile(2, 2) == 2);
}

TEST_CASE("net: the winograd form gives the folded outputs on every board, batch and width",
          "[net][winograd]") {
  // Boards of every output tile (2..4) and partial edge tiles, widths that are no multiple of
  // the 16 lanes, batches that end a chunk of tiles part-way, a pooled block and a conv policy
  // head (3x3 convolutions with no ReLU after them).
  ModelConfig c = small_config();
  c.filters = 20;
  c.global_pooling = 1;
  for (const char* variant :
       {"losalamos", "minishogi", "parachute", "chess", "shogi", "grand", "attrition-4p"})
    for (const char* head : {"fc", "conv"}) {
      const Game& game = game_by_id(variant);
      ModelConfig config = c;
      config.policy_head = head;
      if (config.policy_head == "conv" && ModelIdentity::of(game).policy_planes == 0) continue;
      PolicyValueNet m = small_model(game, config, 5);
      PolicyValueNet folded = inference_model(m, "folded"), fast = inference_model(m, "winograd");
      for (int batch : {1, 7, 49}) {
        INFO(variant << " batch " << batch << " policy head " << config.policy_head);
        const torch::Tensor x = golden_inputs(game, batch, 9, m->input_plies);
        torch::NoGradGuard g;
        NetOutput want = folded->forward(x), got = fast->forward(x);
        for (const NetworkOutput& o : m->graph.outputs) {
          INFO(o.name);
          REQUIRE(got.at(o.name).sizes() == want.at(o.name).sizes());
          CHECK((got.at(o.name) - want.at(o.name)).abs().max().item<float>() <= 1e-5f);
        }
        // Chunks of tiles run on 2 threads: the same numbers (LibTorch's own layers may split
        // their sums otherwise).
        at::set_num_threads(2);
        NetOutput two = fast->forward(x);
        at::set_num_threads(1);
        CHECK((two.policy - got.policy).abs().max().item<float>() <= 1e-6f);
        CHECK((two.values - got.values).abs().max().item<float>() <= 1e-6f);
      }
    }
}

TEST_CASE("net: dense layers give LibTorch's linear layer and 1x1 convolution", "[net][winograd]") {
  // Widths past one block of 4 vectors and not a multiple of 16; rows that end a block part-way.
  torch::manual_seed(3);
  const torch::Tensor w = torch::randn({70, 37}), b = torch::randn({70});
  FloatTensor weight{{70, 37},
                     std::vector<float>(w.data_ptr<float>(), w.data_ptr<float>() + w.numel())};
  FloatTensor bias{{70}, std::vector<float>(b.data_ptr<float>(), b.data_ptr<float>() + b.numel())};
  const DenseLayer dense(weight, &bias), no_bias(weight, nullptr);
  for (int64_t rows : {1, 5, 48, 100}) {
    INFO("rows " << rows);
    const torch::Tensor x = torch::randn({rows, 37});
    CHECK((dense.linear(x) - torch::linear(x, w, b)).abs().max().item<float>() <= 1e-5f);
    CHECK((no_bias.linear(x) - torch::linear(x, w)).abs().max().item<float>() <= 1e-5f);
    const torch::Tensor planes = torch::randn({rows, 37, 3, 5});
    const torch::Tensor want = torch::relu(torch::conv2d(planes, w.view({70, 37, 1, 1}), b));
    const torch::Tensor got = dense.pointwise(planes, true);
    REQUIRE(got.sizes() == want.sizes());
    CHECK((got - want).abs().max().item<float>() <= 1e-5f);
    CHECK((dense.pointwise(planes, false) - torch::conv2d(planes, w.view({70, 37, 1, 1}), b))
              .abs()
              .max()
              .item<float>() <= 1e-5f);
  }
}

TEST_CASE("net: the winograd form runs a trained Los Alamos model within float rounding",
          "[net][winograd]") {
  // Against the same model in float64 (the exact answer to float rounding): the policy logits of
  // the unfolded model are within 7.6e-6, the folded form's 8.5e-6, the winograd form's 8.6e-6
  // (1.4e-5 before its products were summed in slices); winograd against unfolded 1.1e-5 (the
  // largest logit is 17.6: ~6 units in the last place), values within 1.9e-6.
  auto [m, x] = golden_losalamos();
  torch::NoGradGuard g;
  const auto [want, got] = check_winograd_agrees(m, x);
  PolicyValueNet exact = load_losalamos(kGoldenLosAlamos);
  exact->to(torch::kDouble);
  const torch::Tensor exact_policy = exact->forward(x.to(torch::kDouble)).policy;
  const auto error = [&](const torch::Tensor& p) {
    return (p.to(torch::kDouble) - exact_policy).abs().max().item<double>();
  };
  CHECK(error(got.policy) <= 1e-5);
  // As exact as LibTorch's fp32, near enough. LibTorch's error depends on the kernel it picks
  // for the CPU (7.6e-6 on earlier machines, 4.9e-6 on an AVX-512/AMX Xeon), so the bound is the
  // larger of 1.25x that and 5 units in the last place of the largest logit (float rounding).
  const float top = exact_policy.abs().max().item<float>();
  const double ulp = double(std::nextafter(top, 2 * top) - top);
  CHECK(error(got.policy) <= std::max(1.25 * error(want.policy), 5 * ulp));
  // Whatever model ships now: the same agreement with LibTorch's fp32 on the same positions.
  check_winograd_agrees(load_losalamos(std::string(VZERO_MODELS_DIR) + "/losalamos.pt"), x);
  CHECK_THROWS_WITH(inference_model(m, "winograd")->forward(x.narrow(1, 0, 3)),
                    Catch::Contains("channels"));
  // An empty batch is an empty answer; a strided (non-contiguous) batch the same numbers.
  PolicyValueNet fast = inference_model(m, "winograd");
  CHECK(fast->forward(x.narrow(0, 0, 0)).policy.size(0) == 0);
  const torch::Tensor odd = x.index({torch::indexing::Slice(0, 64, 2)});
  CHECK(torch::equal(fast->forward(odd).values, fast->forward(odd.contiguous()).values));
}

TEST_CASE("net: the int8 form stays close to fp32 on a golden set of a trained model",
          "[net][int8]") {
  // Seed 3 of the golden set: not the positions the form is calibrated on. Measured: value max
  // 0.05, mean 0.013, top-1 agreement 0.96.
  auto [m, x] = golden_losalamos();
  torch::NoGradGuard g;
  const NetOutput want = m->forward(x);
  PolicyValueNet q = inference_model(m, "int8");
  const NetOutput got = q->forward(x);
  const torch::Tensor dv = (want.values - got.values).abs();
  CHECK(dv.max().item<float>() < 0.15f);
  CHECK(dv.mean().item<float>() < 0.03f);
  const double top1 =
      (want.policy.argmax(1) == got.policy.argmax(1)).to(torch::kDouble).mean().item<double>();
  CHECK(top1 > 0.9);
  // Not the fp32 outputs (the test would prove nothing if the form fell back to fp32).
  CHECK(dv.max().item<float>() > 1e-4f);
  // The conv head and wdl outputs run too, with every output of the model.
  ModelConfig every = small_config();
  every.policy_head = "conv";
  every.value_head = "wdl";
  every.moves_left_head = true;
  every.global_pooling = 1;
  const Game& chess = game_by_id("chess");
  PolicyValueNet e = small_model(chess, every, 13);
  const torch::Tensor y = golden_inputs(chess, 32, 3, e->input_plies);
  e->eval();
  NetOutput a = e->forward(y), b = inference_model(e, "int8")->forward(y);
  for (const NetworkOutput& o : e->graph.outputs) {
    INFO(o.name);
    REQUIRE(b.at(o.name).defined());
    CHECK(a.at(o.name).sizes() == b.at(o.name).sizes());
    CHECK(torch::isfinite(b.at(o.name)).all().item<bool>());
  }
}

TEST_CASE("net: two inference workers run the int8 form on batches of every size",
          "[net][int8][server]") {
  // Two workers on one int8 model crashed self-play within seconds (oneDNN building a primitive
  // for each new batch shape: segfaults, bad_alloc). Four callers send 1,600 batches of 1 to 100
  // positions of the shipped Los Alamos model; every answer equals the answer of a lone call.
  const Game& game = game_by_id("losalamos");
  ServerConfig config;
  config.form = "int8";
  config.workers = 2;
  config.max_wait_us = 200;
  config.cache_entries = 0;
  InferenceServer server(game, config, std::string(VZERO_MODELS_DIR) + "/losalamos.pt", {}, 1);
  const auto states = sample_states(game, 100, 29);
  std::vector<const GameState*> all;
  for (const auto& s : states) all.push_back(s.get());
  std::vector<Evaluation> want;
  server.evaluate(all, want);
  std::atomic<int> wrong{0}, failed{0};  // Catch assertions are not thread-safe
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      std::mt19937_64 rng(uint64_t(t) + 1);
      std::vector<Evaluation> got;
      for (int call = 0; call < 400; ++call) {
        const size_t n = 1 + rng() % all.size(), first = rng() % (all.size() - n + 1);
        try {
          server.evaluate({all.begin() + long(first), all.begin() + long(first + n)}, got);
        } catch (const std::exception&) {
          ++failed;
          continue;
        }
        for (size_t i = 0; i < n; ++i) {
          const Evaluation &a = got[i], &b = want[first + i];
          bool same = a.values.size() == b.values.size() && a.priors.size() == b.priors.size();
          for (size_t k = 0; same && k < a.values.size(); ++k)
            same = std::abs(a.values[k] - b.values[k]) < 1e-5f;
          for (size_t k = 0; same && k < a.priors.size(); ++k)
            same = std::abs(a.priors[k] - b.priors[k]) < 1e-5f;
          if (!same) ++wrong;
        }
      }
    });
  for (std::thread& c : callers) c.join();
  CHECK(failed == 0);
  CHECK(wrong == 0);
}
