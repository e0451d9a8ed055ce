// vzero train | loop | bench train: learning from shards and the closed loop.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "game/builtin/games.h"
#include "training/distributed.h"
#include "training/loop.h"
#include "training/roles.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "training/trainer.h"
#include "util/error.h"

namespace vzero::cli {

namespace {

struct TrainOptions {
  std::string config, run_dir = "runs/default";
  std::vector<std::string> set;
  int steps = 20;
  bool follow = false;
};

void add_config_options(CLI::App* c, TrainOptions& o) {
  c->add_option("--config", o.config, "Run config (TOML); default: built-in defaults");
  c->add_option("--run-dir", o.run_dir,
                "Run folder (config.toml, shards/, models/, metrics.csv, curve.png)");
  c->add_option("--set", o.set, "Config override table.key=value (repeatable)");
}

// Samples/s of training on real shards against forward+backward on synthetic tensors.
void bench_train(const TrainOptions& o) {
  const RunConfig config = read_run_config(o.config, o.set);
  const Game& game = game_by_id(config.variant);
  const ReplayWindow window =
      load_window(game, RunFolder(o.run_dir).shards_dir(), config.train.window_positions,
                  config.train.holdout_fraction, 1.0, config.model.encoding);
  Trainer trainer(game, config, "");
  const double synthetic = trainer.bench_synthetic(o.steps);
  const TrainReport real = trainer.train(window, o.steps);
  std::cout << "train synthetic_samples_per_s " << int(synthetic) << " real_samples_per_s "
            << int(real.samples_per_s) << " ratio " << real.samples_per_s / synthetic
            << " window_samples " << window.train.size() << " batch " << config.train.batch_size
            << std::endl;
}

// vzero train: one process, or one rank of a job its launcher started
// (torchrun-style variables, mpirun, srun); rank 0 holds the folder and prints.
void train_command(const TrainOptions& o) {
  const RunConfig config =
      o.follow ? role_config(o.config, o.run_dir, o.set)
               : in_init_model_encoding(read_run_config(o.config, o.set), o.run_dir);
  const DistributedEnv env = detect_distributed_env();
  RoleOptions role;
  role.signal = o.follow ? install_stop_signals() : nullptr;
  if (!env.distributed() && o.follow) {
    run_trainer({config, o.run_dir, std::cout}, role);
    return;
  }
  if (!env.distributed()) {
    const FolderLock lock = RunFolder(o.run_dir).lock();
    run_training({config, o.run_dir, std::cout});
    return;
  }
  std::unique_ptr<FolderLock>
      lock;  // a following trainer shares the folder and locks its role instead
  if (env.rank == 0 && !o.follow) lock = std::make_unique<FolderLock>(o.run_dir, "run folder");
  const std::unique_ptr<ProcessGroup> group = ProcessGroup::join(env, o.run_dir, config.device);
  std::ostringstream quiet;
  std::ostream& log = env.rank == 0 ? std::cout : quiet;
  log << "distributed training: " << env.world << " ranks (" << env.source << "), "
      << group->backend() << ", "
      << (env.master_addr.empty()
              ? "file store in " + RunFolder(o.run_dir).rendezvous_dir()
              : "tcp store " + env.master_addr + ":" + std::to_string(env.master_port))
      << std::endl;
  if (o.follow) {
    role.group = group.get();
    run_trainer({config, o.run_dir, log}, role);
    return;
  }
  TrainRequest request;
  request.group = group.get();
  run_training({config, o.run_dir, log}, request);
}

}  // namespace

void add_train_commands(CLI::App& app) {
  auto train = std::make_shared<TrainOptions>();
  CLI::App* t = app.add_subcommand(
      "train", "Train on the run folder's shards (resumes a killed run exactly)");
  add_config_options(t, *train);
  t->add_flag(
      "--follow", train->follow,
      "The trainer of a shared run folder: a candidate per generation of new games, until stopped");
  t->callback([train] { train_command(*train); });

  auto loop = std::make_shared<TrainOptions>();
  CLI::App* l = app.add_subcommand(
      "loop", "The closed loop: self-play, train, arena, promote; again and again");
  add_config_options(l, *loop);
  l->callback([loop] {
    const RunConfig config =
        in_init_model_encoding(read_run_config(loop->config, loop->set), loop->run_dir);
    run_loop({config, loop->run_dir, std::cout});
  });

  auto bench = std::make_shared<TrainOptions>();
  CLI::App* b = app.get_subcommand("bench")->add_subcommand(
      "train", "Training samples/s: real shards vs synthetic");
  add_config_options(b, *bench);
  b->add_option("--steps", bench->steps, "Steps of each")->check(CLI::Range(1, 100000));
  b->callback([bench] { bench_train(*bench); });
}

}  // namespace vzero::cli
