// The trainer: batches from a replay window, losses, optimizer, checkpoints.
#include "training/trainer.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "game/symmetry.h"
#include "game/zobrist.h"
#include "net/checkpoint.h"
#include "net/model.h"
#include "training/distributed.h"
#include "training/targets.h"
#include "util/error.h"

namespace vzero {

struct Trainer::Impl {
  const Game& game;
  RunConfig config;
  EncodingSpec spec;
  torch::Device device;  // the run's: model, optimizer state and batches live there
  PolicyValueNet model{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  int64_t step = 0;
  std::vector<BoardSymmetry> symmetries;  // augmentation: the variant's declared ones, when enabled
  ProcessGroup* group = nullptr;          // distributed training; null: one process

  Impl(const Game& g, const RunConfig& c, ProcessGroup* pg)
      : game(g),
        config(c),
        spec(g.encoding(resolved_encoding(g, c.model.encoding))),
        device(parse_device(pg ? pg->device() : c.device)),
        group(pg) {
    if (c.train.symmetries) {
      std::vector<std::string> names = g.variant().symmetries;
      for (const std::string& n : c.train.extra_symmetries)
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
      symmetries = board_symmetries(g, names);
    }
  }
  int rank() const { return group ? group->rank() : 0; }
  int world() const { return group ? group->world() : 1; }

  // Moves the model and the optimizer's per-parameter state (momentum, moments) to device.
  void move_to_device() {
    model->to(device);  // parameters keep their identity, so the optimizer still holds them
    for (auto& entry : optimizer->state()) {
      if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(entry.second.get())) {
        if (sgd->momentum_buffer().defined())
          sgd->momentum_buffer(sgd->momentum_buffer().to(device));
      } else if (auto* adam = dynamic_cast<torch::optim::AdamWParamState*>(entry.second.get())) {
        adam->exp_avg(adam->exp_avg().to(device));
        adam->exp_avg_sq(adam->exp_avg_sq().to(device));
        if (adam->max_exp_avg_sq().defined())
          adam->max_exp_avg_sq(adam->max_exp_avg_sq().to(device));
      }
    }
  }

  double learning_rate(int64_t t) const { return scheduled_lr(config.train, t); }

  void set_lr(double lr) {
    for (auto& group : optimizer->param_groups()) {
      if (config.train.optimizer == "sgd")
        static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
      else
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
    }
  }

  // Inputs, policy targets (dense), value targets (seat of the player to act first), win/draw/loss
  // and moves-left targets, the policy mask and the moves-left mask of a batch.
  struct Batch {
    torch::Tensor x, policy, value, wdl, moves_left, mask, moves_left_mask;
    torch::Tensor value_weight;  // per sample (train.fast_value_weight); undefined when all are 1
  };
  // Sample i is seen through symmetry sym[i] - 1 (0: as it is; no sym: all as they are). Value
  // targets follow train.value_target unless results_only (validation: the game's result).
  Batch make_batch(const std::vector<const Sample*>& samples, const std::vector<int>& sym = {},
                   bool results_only = false) const {
    const int n = int(samples.size()), players = game.num_players(), actions = game.num_actions();
    const int area = spec.plane_size(), size = spec.channels() * area;
    std::vector<uint8_t> mapped(size_t(spec.planes) * size_t(area));
    Batch b;
    b.x = torch::empty({n, spec.channels(), spec.height, spec.width});
    b.policy = torch::zeros({n, actions});
    b.value = torch::empty({n, players});
    b.wdl = torch::empty({n, 3});
    b.moves_left = torch::empty({n, 1});
    b.mask = torch::empty({n});
    b.moves_left_mask = torch::empty({n});
    float* x = b.x.data_ptr<float>();
    float* p = b.policy.data_ptr<float>();
    float* v = b.value.data_ptr<float>();
    float* wdl = b.wdl.data_ptr<float>();
    float* ml = b.moves_left.data_ptr<float>();
    float* m = b.mask.data_ptr<float>();
    float* mm = b.moves_left_mask.data_ptr<float>();
    for (int i = 0; i < n; ++i) {
      const Sample& s = *samples[i];
      const BoardSymmetry* g =
          sym.empty() || sym[size_t(i)] == 0 ? nullptr : &symmetries[size_t(sym[size_t(i)] - 1)];
      float* xi = x + size_t(i) * size;
      if (g) map_planes(*g, spec, s.planes.data(), mapped.data());
      expand_input(spec, g ? mapped.data() : s.planes.data(), s.scalars.data(), xi);
      for (size_t k = 0; k < s.policy_index.size(); ++k) {
        const int a = g ? g->action[size_t(s.policy_index[k])] : s.policy_index[k];
        p[size_t(i) * actions + a] = s.policy_weight[k];
      }
      const SampleTargets t = sample_targets(s, config.train, results_only);
      for (int r = 0; r < players; ++r) v[i * players + r] = t.value[size_t(r)];
      for (int k = 0; k < 3; ++k) wdl[i * 3 + k] = t.wdl[size_t(k)];
      ml[i] = std::max(0.0f, t.moves_left);
      mm[i] = t.moves_left >= 0.0f ? 1.0f : 0.0f;
      m[i] = s.full_search && !s.policy_index.empty() ? 1.0f : 0.0f;
    }
    if (config.train.fast_value_weight != 1.0 && !results_only) {
      b.value_weight = torch::ones({n});
      float* w = b.value_weight.data_ptr<float>();
      for (int i = 0; i < n; ++i)
        if (!samples[size_t(i)]->full_search) w[i] = float(config.train.fast_value_weight);
      b.value_weight = b.value_weight.to(device);
    }
    for (torch::Tensor* t :
         {&b.x, &b.policy, &b.value, &b.wdl, &b.moves_left, &b.mask, &b.moves_left_mask})
      *t = t->to(device);  // every field of Batch
    return b;
  }

  struct Losses {
    torch::Tensor policy, value, moves_left;  // moves_left undefined without the head
  };
  // The denominators of the masked means of b (policy, moves left): the masks' sums, at least
  // 1; with ranks, their sums over the whole batch divided by the ranks, so that the mean of the
  // ranks' losses is the whole batch's loss.
  std::pair<torch::Tensor, torch::Tensor> mask_counts(const Batch& b) const {
    if (!group) return {b.mask.sum().clamp_min(1.0), b.moves_left_mask.sum().clamp_min(1.0)};
    const std::vector<double> n =
        group->sum({b.mask.sum().item<double>(), b.moves_left_mask.sum().item<double>()});
    const auto share = [&](double x) {
      return torch::full({}, std::max(1.0, x) / world(), b.mask.options());
    };
    return {share(n[0]), share(n[1])};
  }

  // Policy cross-entropy (masked mean); value error: mean squared error, or the cross-entropy of
  // the win/draw/loss head; the moves-left head's Huber error on log(1 + plies), so that it
  // learns relative lengths at every scale.
  Losses losses(const Batch& b) {
    const NetOutput out = model->forward(b.x);
    const auto [policy_n, moves_left_n] = mask_counts(b);
    Losses l;
    const torch::Tensor ce = -(b.policy * torch::log_softmax(out.policy, 1)).sum(1);
    l.policy = (ce * b.mask).sum() / policy_n;
    if (b.value_weight
            .defined()) {  // a weighted mean: fast-search positions count fast_value_weight
      const torch::Tensor per = out.wdl.defined() ? -(b.wdl * torch::log_softmax(out.wdl, 1)).sum(1)
                                                  : (out.values - b.value).pow(2).mean(1);
      l.value = (per * b.value_weight).sum() / float(b.value_weight.size(0));
    } else {
      l.value = out.wdl.defined() ? -(b.wdl * torch::log_softmax(out.wdl, 1)).sum(1).mean()
                                  : (out.values - b.value).pow(2).mean();
    }
    if (out.moves_left.defined()) {
      const torch::Tensor error =
          torch::smooth_l1_loss(torch::log1p(out.moves_left), torch::log1p(b.moves_left),
                                torch::Reduction::None)
              .squeeze(1);
      l.moves_left = (error * b.moves_left_mask).sum() / moves_left_n;
    }
    return l;
  }
  // The loss the optimizer minimises.
  torch::Tensor total(const Losses& l) const {
    torch::Tensor loss = l.policy + config.train.value_weight * l.value;
    if (l.moves_left.defined()) loss = loss + config.train.moves_left_weight * l.moves_left;
    return loss;
  }
};

Trainer::Trainer(const Game& game, const RunConfig& config, const std::string& checkpoint,
                 ProcessGroup* group, bool weights_only)
    : impl_(std::make_unique<Impl>(game, config, group)) {
  at::set_num_threads(config.train.threads);
  const ModelIdentity id = ModelIdentity::of(game, config.model.encoding);
  if (checkpoint.empty()) {
    impl_->model = make_model(config.model, id, config.seed);
  } else {
    Checkpoint c = load_checkpoint(checkpoint, &id);
    ModelConfig wanted = config.model;
    wanted.encoding = id.encoding;
    if (weights_only && c.model->config.to_text() != wanted.to_text())
      throw Error("checkpoint '" + checkpoint + "' is a network of another shape than the run's " +
                  "[model]:\n" + c.model->config.to_text() + "against\n" + wanted.to_text());
    impl_->model = c.model;
    impl_->step = weights_only ? 0 : c.step;
  }
  // The plies input of this run's samples is scaled by its game-length cap.
  impl_->model->input_plies =
      config.selfplay.max_plies > 0 ? config.selfplay.max_plies : game.variant().max_plies;
  const TrainConfig& tc = config.train;
  if (tc.optimizer == "sgd")
    impl_->optimizer = std::make_unique<torch::optim::SGD>(impl_->model->parameters(),
                                                           torch::optim::SGDOptions(tc.lr)
                                                               .momentum(tc.momentum)
                                                               .weight_decay(tc.weight_decay)
                                                               .nesterov(true));
  else
    impl_->optimizer = std::make_unique<torch::optim::AdamW>(
        impl_->model->parameters(),
        torch::optim::AdamWOptions(tc.lr).weight_decay(tc.weight_decay));
  if (!checkpoint.empty() && !weights_only) {
    try {
      load_optimizer_state(checkpoint, *impl_->optimizer);
    } catch (const Error&) {
      // A checkpoint without optimizer state (a fresh generation): start the optimizer anew.
    }
  }
  impl_->move_to_device();
  if (group) {
    check(tc.batch_size % group->world() == 0,
          "train.batch_size " + std::to_string(tc.batch_size) + " is not divisible by the " +
              std::to_string(group->world()) + " ranks of distributed training");
    const double sum = checksum(), step = double(impl_->step);
    const std::vector<double> all = group->sum({sum, step});
    if (all[1] != step * group->world() ||
        std::fabs(all[0] - sum * group->world()) > 1e-9 * std::fabs(all[0]))
      throw Error("distributed training: the ranks start from different models (rank " +
                  std::to_string(group->rank()) + " at step " + std::to_string(impl_->step) + ")");
    impl_->model->batch_norm_override = [group](torch::nn::BatchNorm2dImpl& bn,
                                                const torch::Tensor& x) {
      return group->batch_norm(bn, x);
    };
  }
}

Trainer::~Trainer() = default;

int64_t Trainer::step() const { return impl_->step; }

TrainReport Trainer::train(const ReplayWindow& window, int steps, const std::string& save_path,
                           int save_every, const std::function<void(int64_t step)>& saved) {
  Impl& t = *impl_;
  at::set_num_threads(t.config.train.threads);
  t.model->train();
  TrainReport r;
  const auto start = std::chrono::steady_clock::now();
  const int batch = t.config.train.batch_size, share = batch / t.world(), first = t.rank() * share;
  std::vector<const Sample*> chosen(batch);
  std::vector<int> sym(size_t(batch), 0);
  const uint64_t views = t.symmetries.size() + 1;
  double policy_sum = 0.0, value_sum = 0.0, moves_left_sum = 0.0;
  for (int i = 0; i < steps; ++i) {
    // The batch depends only on the seed and the global step: resuming repeats it exactly.
    uint64_t rng = t.config.seed ^ (uint64_t(t.step + 1) * 0xD1B54A32D192ED03ull);
    for (int k = 0; k < batch; ++k)
      chosen[k] = &window.train[splitmix64(rng) % window.train.size()];
    if (views > 1)
      for (int k = 0; k < batch; ++k) sym[size_t(k)] = int(splitmix64(rng) % views);
    // Each rank trains on its share of the batch: together, the whole batch.
    const Impl::Batch b =
        t.group ? t.make_batch({chosen.begin() + first, chosen.begin() + first + share},
                               {sym.begin() + first, sym.begin() + first + share})
                : t.make_batch(chosen, sym);
    t.set_lr(t.learning_rate(t.step));
    t.optimizer->zero_grad();
    const Impl::Losses l = t.losses(b);
    t.total(l).backward();
    if (t.group) {
      std::vector<torch::Tensor> grads;
      for (const torch::Tensor& p : t.model->parameters())
        if (p.grad().defined()) grads.push_back(p.grad());
      t.group->average(grads);
    }
    t.optimizer->step();
    ++t.step;
    policy_sum += l.policy.item<double>();
    value_sum += l.value.item<double>();
    if (l.moves_left.defined()) moves_left_sum += l.moves_left.item<double>();
    if (!save_path.empty() && save_every > 0 && t.step % save_every == 0 && t.rank() == 0) {
      save_checkpoint(save_path, t.model, t.step, 0, t.optimizer.get());
      if (saved) saved(t.step);
    }
  }
  if (t.group) {  // each rank's losses are its share of the whole batch's
    const std::vector<double> sums = t.group->sum({policy_sum, value_sum, moves_left_sum});
    policy_sum = sums[0] / t.world(), value_sum = sums[1] / t.world(),
    moves_left_sum = sums[2] / t.world();
  }
  r.steps = steps;
  r.step = t.step;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.policy_loss = steps ? policy_sum / steps : 0.0;
  r.value_loss = steps ? value_sum / steps : 0.0;
  r.moves_left_loss = steps ? moves_left_sum / steps : 0.0;
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
  double se = 0.0, ce = 0.0, moves_left_error = 0.0, moves_left_n = 0.0;
  for (size_t at = 0; at < samples.size(); at += batch) {
    std::vector<const Sample*> chunk;
    for (size_t i = at; i < std::min(samples.size(), at + batch); ++i) chunk.push_back(&samples[i]);
    // Padded to a power of two, so that the network sees few distinct batch
    // shapes (oneDNN keeps compiled kernels per shape); only the first n rows count.
    const int64_t n = int64_t(chunk.size());
    while (chunk.size() & (chunk.size() - 1)) chunk.push_back(chunk.back());
    Impl::Batch b = t.make_batch(chunk, {}, true);  // value error against the game results
    const NetOutput out = t.model->forward(b.x);
    torch::Tensor logits = out.policy, values = out.values;
    torch::Tensor moves_left = out.moves_left;
    for (torch::Tensor* x : {&logits, &values, &moves_left, &b.policy, &b.value, &b.mask,
                             &b.moves_left, &b.moves_left_mask})
      if (x->defined()) *x = x->narrow(0, 0, n);
    se += (values - b.value).pow(2).mean(1).sum().item<double>();
    ce += (-(b.policy * torch::log_softmax(logits, 1)).sum(1) * b.mask).sum().item<double>();
    const torch::Tensor hit = (logits.argmax(1) == b.policy.argmax(1)).to(torch::kFloat) * b.mask;
    top1 += int(hit.sum().item<float>());
    policy_n += int(b.mask.sum().item<float>());
    if (moves_left.defined()) {
      moves_left_error +=
          ((moves_left - b.moves_left).abs().squeeze(1) * b.moves_left_mask).sum().item<double>();
      moves_left_n += b.moves_left_mask.sum().item<double>();
    }
  }
  v.samples = int(samples.size());
  v.value_mse = se / double(samples.size());
  v.policy_top1 = policy_n ? double(top1) / policy_n : 0.0;
  v.policy_loss = policy_n ? ce / policy_n : 0.0;
  v.moves_left_mae = moves_left_n > 0 ? moves_left_error / moves_left_n : -1.0;
  t.model->train();
  return v;
}

double Trainer::bench_synthetic(int steps) {
  Impl& t = *impl_;
  at::set_num_threads(t.config.train.threads);
  // A copy, so that the real model and optimizer stay untouched.
  PolicyValueNet model = make_model(t.config.model, t.model->identity, 7);
  model->to(t.device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int batch = t.config.train.batch_size;
  const auto on = torch::TensorOptions().device(t.device);
  const torch::Tensor x = torch::rand({batch, t.spec.channels(), t.spec.height, t.spec.width}, on);
  const torch::Tensor target = torch::softmax(torch::rand({batch, t.game.num_actions()}, on), 1);
  const torch::Tensor value = torch::rand({batch, t.game.num_players()}, on) * 2 - 1;
  const auto run = [&] {
    opt.zero_grad();
    const NetOutput out = model->forward(x);
    const torch::Tensor &logits = out.policy, &values = out.values;
    const torch::Tensor loss =
        -(target * torch::log_softmax(logits, 1)).sum(1).mean() + (values - value).pow(2).mean();
    loss.backward();
    opt.step();
  };
  const auto finish = [&] {  // GPU work is asynchronous: wait for it
    if (t.device.is_cuda()) torch::cuda::synchronize();
  };
  run();  // warm up
  finish();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) run();
  finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return double(steps) * batch / s;
}

void Trainer::save(const std::string& path, int generation) {
  if (impl_->rank() == 0)
    save_checkpoint(path, impl_->model, impl_->step, generation, impl_->optimizer.get());
}

double Trainer::checksum() {
  torch::NoGradGuard no_grad;
  double sum = 0.0;
  for (const torch::Tensor& p : impl_->model->parameters()) sum += p.abs().sum().item<double>();
  for (const torch::Tensor& b : impl_->model->buffers())
    if (b.is_floating_point()) sum += b.abs().sum().item<double>();
  return sum;
}

}  // namespace vzero
