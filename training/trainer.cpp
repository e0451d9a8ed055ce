// The trainer: batches from a replay window, losses, optimizer, checkpoints.
#include "training/trainer.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "game/error.h"
#include "game/symmetry.h"
#include "game/zobrist.h"
#include "net/checkpoint.h"
#include "net/model.h"
#include "net/value_seats.h"
#include "selfplay/shard.h"

namespace vzero {

ReplayWindow load_window(const Game& game, const std::string& dir, int window, double holdout_fraction) {
  ReplayWindow w;
  std::vector<std::string> shards = list_shards(dir);
  const ModelIdentity id = ModelIdentity::of(game);
  int64_t total = 0;
  for (auto it = shards.rbegin(); it != shards.rend() && total < window; ++it) {
    ShardData d = read_shard(*it);
    if (d.meta.variant != id.variant || d.meta.rules_hash != id.rules_hash || d.meta.encoding_hash != id.encoding_hash)
      throw Error("shard '" + *it + "' was written for another variant, rules file or encoding");
    w.meta = d.meta;
    ++w.shards;
    for (Sample& s : d.samples) {
      uint64_t h = uint64_t(s.game_id) * 0x9E3779B97F4A7C15ull;
      const bool held_out = double(splitmix64(h) >> 11) * 0x1.0p-53 < holdout_fraction;
      (held_out ? w.validation : w.train).push_back(std::move(s));
      ++total;
    }
  }
  if (w.train.empty()) throw Error("no training samples in '" + dir + "'");
  // A canonical order, whatever order the files were found in: batches (drawn
  // by index from the seed and step) then repeat exactly on a copied run folder.
  const auto by_game_and_ply = [](const Sample& a, const Sample& b) {
    return a.game_id != b.game_id ? a.game_id < b.game_id : a.ply < b.ply;
  };
  std::sort(w.train.begin(), w.train.end(), by_game_and_ply);
  std::sort(w.validation.begin(), w.validation.end(), by_game_and_ply);
  return w;
}

struct Trainer::Impl {
  const Game& game;
  RunConfig config;
  EncodingSpec spec;
  PolicyValueNet model{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  int64_t step = 0;
  std::vector<BoardSymmetry> symmetries;  // augmentation: the variant's declared ones, when enabled

  Impl(const Game& g, const RunConfig& c) : game(g), config(c), spec(g.encoding()) {
    if (c.train.symmetries) symmetries = board_symmetries(g);
  }

  double learning_rate(int64_t t) const {
    const TrainConfig& tc = config.train;
    double lr = tc.lr;
    if (tc.lr_warmup_steps > 0 && t < tc.lr_warmup_steps) lr *= double(t + 1) / tc.lr_warmup_steps;
    if (tc.lr_decay_steps > 0) lr *= std::pow(0.5, double(t / tc.lr_decay_steps));
    return lr;
  }

  void set_lr(double lr) {
    for (auto& group : optimizer->param_groups()) {
      if (config.train.optimizer == "sgd")
        static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
      else
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
    }
  }

  // Inputs, policy targets (dense), value targets (seat of the player to act first) and the policy mask of a batch.
  struct Batch {
    torch::Tensor x, policy, value, mask;
  };
  // Sample i is seen through symmetry sym[i] - 1 (0: as it is; no sym: all as they are). Value
  // targets mix in the root value (train.root_value_weight) unless results_only.
  Batch make_batch(const std::vector<const Sample*>& samples, const std::vector<int>& sym = {},
                   bool results_only = false) const {
    const int n = int(samples.size()), players = game.num_players(), actions = game.num_actions();
    const int area = spec.plane_size(), size = spec.channels() * area;
    const double q_share = results_only ? 0.0 : config.train.root_value_weight;
    std::vector<uint8_t> mapped(size_t(spec.planes) * size_t(area));
    Batch b;
    b.x = torch::empty({n, spec.channels(), spec.height, spec.width});
    b.policy = torch::zeros({n, actions});
    b.value = torch::empty({n, players});
    b.mask = torch::empty({n});
    float* x = b.x.data_ptr<float>();
    float* p = b.policy.data_ptr<float>();
    float* v = b.value.data_ptr<float>();
    float* m = b.mask.data_ptr<float>();
    for (int i = 0; i < n; ++i) {
      const Sample& s = *samples[i];
      const BoardSymmetry* g = sym.empty() || sym[size_t(i)] == 0 ? nullptr : &symmetries[size_t(sym[size_t(i)] - 1)];
      float* xi = x + size_t(i) * size;
      if (g) map_planes(*g, spec, s.planes.data(), mapped.data());
      expand_input(spec, g ? mapped.data() : s.planes.data(), s.scalars.data(), xi);
      for (size_t k = 0; k < s.policy_index.size(); ++k) {
        const int a = g ? g->action[size_t(s.policy_index[k])] : s.policy_index[k];
        p[size_t(i) * actions + a] = s.policy_weight[k];
      }
      for (int r = 0; r < players; ++r) {
        const int seat = value_output_seat(s.player, r, players);
        const double q = s.root_value.size() == size_t(players) ? s.root_value[size_t(seat)] : s.result[size_t(seat)];
        v[i * players + r] = float((1.0 - q_share) * s.result[size_t(seat)] + q_share * q);
      }
      m[i] = s.full_search && !s.policy_index.empty() ? 1.0f : 0.0f;
    }
    return b;
  }

  // Policy cross-entropy (masked mean) and value mean squared error.
  std::pair<torch::Tensor, torch::Tensor> losses(const Batch& b) {
    auto [logits, values] = model->forward(b.x);
    const torch::Tensor ce = -(b.policy * torch::log_softmax(logits, 1)).sum(1);
    const torch::Tensor policy_loss = (ce * b.mask).sum() / b.mask.sum().clamp_min(1.0);
    const torch::Tensor value_loss = (values - b.value).pow(2).mean();
    return {policy_loss, value_loss};
  }
};

Trainer::Trainer(const Game& game, const RunConfig& config, const std::string& checkpoint)
    : impl_(std::make_unique<Impl>(game, config)) {
  at::set_num_threads(config.train.threads);
  const ModelIdentity id = ModelIdentity::of(game);
  if (checkpoint.empty()) {
    impl_->model = make_model(config.model, id, config.seed);
  } else {
    Checkpoint c = load_checkpoint(checkpoint, &id);
    impl_->model = c.model;
    impl_->step = c.step;
  }
  const TrainConfig& tc = config.train;
  if (tc.optimizer == "sgd")
    impl_->optimizer = std::make_unique<torch::optim::SGD>(
        impl_->model->parameters(),
        torch::optim::SGDOptions(tc.lr).momentum(tc.momentum).weight_decay(tc.weight_decay).nesterov(true));
  else
    impl_->optimizer = std::make_unique<torch::optim::AdamW>(
        impl_->model->parameters(), torch::optim::AdamWOptions(tc.lr).weight_decay(tc.weight_decay));
  if (!checkpoint.empty()) {
    try {
      load_optimizer_state(checkpoint, *impl_->optimizer);
    } catch (const Error&) {
      // A checkpoint without optimizer state (a fresh generation): start the optimizer anew.
    }
  }
}

Trainer::~Trainer() = default;

int64_t Trainer::step() const { return impl_->step; }

TrainReport Trainer::train(const ReplayWindow& window, int steps, const std::string& save_path, int save_every) {
  Impl& t = *impl_;
  at::set_num_threads(t.config.train.threads);
  t.model->train();
  TrainReport r;
  const auto start = std::chrono::steady_clock::now();
  const int batch = t.config.train.batch_size;
  std::vector<const Sample*> chosen(batch);
  std::vector<int> sym(size_t(batch), 0);
  const uint64_t views = t.symmetries.size() + 1;
  double policy_sum = 0.0, value_sum = 0.0;
  for (int i = 0; i < steps; ++i) {
    // The batch depends only on the seed and the global step: resuming repeats it exactly.
    uint64_t rng = t.config.seed ^ (uint64_t(t.step + 1) * 0xD1B54A32D192ED03ull);
    for (int k = 0; k < batch; ++k) chosen[k] = &window.train[splitmix64(rng) % window.train.size()];
    if (views > 1)
      for (int k = 0; k < batch; ++k) sym[size_t(k)] = int(splitmix64(rng) % views);
    const Impl::Batch b = t.make_batch(chosen, sym);
    t.set_lr(t.learning_rate(t.step));
    t.optimizer->zero_grad();
    auto [policy_loss, value_loss] = t.losses(b);
    const torch::Tensor loss = policy_loss + t.config.train.value_weight * value_loss;
    loss.backward();
    t.optimizer->step();
    ++t.step;
    policy_sum += policy_loss.item<double>();
    value_sum += value_loss.item<double>();
    if (!save_path.empty() && save_every > 0 && t.step % save_every == 0) save_checkpoint(save_path, t.model, t.step, 0, t.optimizer.get());
  }
  r.steps = steps;
  r.step = t.step;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.policy_loss = steps ? policy_sum / steps : 0.0;
  r.value_loss = steps ? value_sum / steps : 0.0;
  r.samples_per_s = r.seconds > 0 ? double(steps) * batch / r.seconds : 0.0;
  return r;
}

Validation Trainer::validate(const std::vector<Sample>& samples) {
  Impl& t = *impl_;
  Validation v;
  if (samples.empty()) return v;
  t.model->eval();
  torch::NoGradGuard no_grad;
  const int batch = 512;
  int top1 = 0, policy_n = 0;
  double se = 0.0, ce = 0.0;
  for (size_t at = 0; at < samples.size(); at += batch) {
    std::vector<const Sample*> chunk;
    for (size_t i = at; i < std::min(samples.size(), at + batch); ++i) chunk.push_back(&samples[i]);
    const Impl::Batch b = t.make_batch(chunk, {}, true);  // value error against the game results
    auto [logits, values] = t.model->forward(b.x);
    se += (values - b.value).pow(2).mean(1).sum().item<double>();
    ce += (-(b.policy * torch::log_softmax(logits, 1)).sum(1) * b.mask).sum().item<double>();
    const torch::Tensor hit = (logits.argmax(1) == b.policy.argmax(1)).to(torch::kFloat) * b.mask;
    top1 += int(hit.sum().item<float>());
    policy_n += int(b.mask.sum().item<float>());
  }
  v.samples = int(samples.size());
  v.value_mse = se / double(samples.size());
  v.policy_top1 = policy_n ? double(top1) / policy_n : 0.0;
  v.policy_loss = policy_n ? ce / policy_n : 0.0;
  t.model->train();
  return v;
}

double Trainer::bench_synthetic(int steps) {
  Impl& t = *impl_;
  at::set_num_threads(t.config.train.threads);
  // A copy, so that the real model and optimizer stay untouched.
  PolicyValueNet model = make_model(t.config.model, t.model->identity, 7);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int batch = t.config.train.batch_size;
  const torch::Tensor x = torch::rand({batch, t.spec.channels(), t.spec.height, t.spec.width});
  const torch::Tensor target = torch::softmax(torch::rand({batch, t.game.num_actions()}), 1);
  const torch::Tensor value = torch::rand({batch, t.game.num_players()}) * 2 - 1;
  const auto run = [&] {
    opt.zero_grad();
    auto [logits, values] = model->forward(x);
    const torch::Tensor loss =
        -(target * torch::log_softmax(logits, 1)).sum(1).mean() + (values - value).pow(2).mean();
    loss.backward();
    opt.step();
  };
  run();  // warm up
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) run();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return double(steps) * batch / s;
}

void Trainer::save(const std::string& path, int generation) {
  save_checkpoint(path, impl_->model, impl_->step, generation, impl_->optimizer.get());
}

}  // namespace vzero
