// The train command and the loop's training step.
#include "training/train_run.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "net/checkpoint.h"
#include "selfplay/shard.h"
#include "training/distributed.h"
#include "training/run_dir.h"
#include "training/targets.h"
#include "util/error.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// The positions that metrics.csv records the run generating before this training's generation,
// plus the new ones: more than its shards hold when old shards are gone (a run resumed from a
// snapshot that kept the newest generations only), which the window's growth must not forget.
int64_t recorded_positions(const RunFolder& folder, const TrainRequest& request) {
  int64_t total = request.new_positions;
  std::error_code ec;
  if (!fs::exists(folder.metrics_path(), ec)) return total;
  for (const MetricsRow& row : folder.read_metrics())
    if (request.generation == 0 || row.generation < request.generation) total += row.positions;
  return total;
}

}  // namespace

TrainOutcome run_training(const RunContext& run, const TrainRequest& request) {
  const RunConfig& config = run.config;
  const RunFolder& folder = run.folder;
  const int generation = request.generation;
  ProcessGroup* group = request.group;
  const bool lead = !group || group->rank() == 0;  // rank 0 reads, decides and writes for all
  const Game& game = run.game;
  if (lead && !request.prepared) folder.prepare(config);
  if (group) group->barrier();
  const std::string train = folder.train_model_path();
  Trainer trainer(game, config, fs::exists(train) ? train : "", group);
  // The window: rank 0's list of shards, so that every rank sees the same samples.
  std::string shard_list;
  for (const std::string& path : list_shards(folder.shards_dir())) shard_list += path + "\n";
  std::istringstream listed(group ? group->broadcast_text(shard_list) : shard_list);
  std::vector<std::string> shards;
  int64_t positions = 0;
  for (std::string path; std::getline(listed, path);) shards.push_back(path);
  if (config.train.window_growth) {
    for (const std::string& path : shards) positions += readable_shard_counts(path).samples;
    if (lead) positions = std::max(positions, recorded_positions(folder, request));
    if (group) positions = std::stoll(group->broadcast_text(std::to_string(positions)));
  }
  if (shards.empty()) throw Error("no training samples in '" + folder.shards_dir() + "'");
  const ReplayWindow window =
      load_window(game, shards, window_size(config.train, positions), config.train.holdout_fraction,
                  config.train.bootstrap_share, config.model.encoding);
  // The target step is fixed when a training starts, so that a restart finishes
  // the same training; a generation of the loop trains once, however often it restarts.
  TrainTarget target = lead ? folder.read_train_target() : TrainTarget{};
  const bool resume = generation > 0 ? target.generation == generation
                                     : target.generation == 0 && target.step > trainer.step();
  if (lead && resume && target.step < trainer.step())
    throw Error("'" + folder.train_target_path() + "' names step " + std::to_string(target.step) +
                " but the trainer is at step " + std::to_string(trainer.step()));
  if (lead && !resume) {
    const double fresh =
        request.new_positions > 0 ? double(request.new_positions) : double(window.train.size());
    const int steps =
        config.train.steps > 0
            ? config.train.steps
            : std::max(1, int(config.train.sample_reuse * fresh / config.train.batch_size));
    target = TrainTarget{generation, trainer.step() + steps};
    folder.write_train_target(target);
  }
  if (group) target.step = std::stoll(group->broadcast_text(std::to_string(target.step)));
  TrainOutcome out;
  const TrainReport& r = out.report =
      trainer.train(window, int(target.step - trainer.step()), train, 50, request.saved);
  if (!lead) {
    group->barrier();  // rank 0 validates and saves
    return out;
  }
  // Validated before the save, so that only a kill in the instant between the
  // save and the caller's record of the outcome leaves it unknown.
  const Validation& v = out.validation = trainer.validate(window.validation);
  trainer.save(train, 0);
  std::ostringstream line;
  line << "train step " << r.step << " steps " << r.steps << " samples " << window.train.size()
       << " shards " << window.shards << std::setprecision(9) << " policy_loss " << r.policy_loss
       << " value_loss " << r.value_loss << std::setprecision(6) << " samples_per_s "
       << r.samples_per_s << " val_top1 " << v.policy_top1 << " val_value_mse " << v.value_mse;
  if (v.moves_left_mae >= 0.0)
    line << " moves_left_loss " << r.moves_left_loss << " val_moves_left_mae " << v.moves_left_mae;
  if (window.skipped > 0) line << " damaged_shards_skipped " << window.skipped;
  line << std::setprecision(12) << " checksum " << trainer.checksum();
  if (group) line << " ranks " << group->world();
  out.line = line.str();
  run.log << out.line << std::endl;
  if (group) group->barrier();
  return out;
}

void save_candidate(const RunContext& run, int generation) {
  Trainer(run.game, run.config, run.folder.train_model_path())
      .save(run.folder.model_path(generation), generation);
}

void check_init_model(const RunContext& run) {
  // Once gen-000 is written the run no longer reads the file (it may have been replaced or moved).
  if (!run.config.loop.init_model.empty() && !fs::exists(run.folder.model_path(0)))
    Trainer(run.game, run.config, run.config.loop.init_model, nullptr, true);
}

RunConfig in_init_model_encoding(RunConfig config, const std::string& run_dir) {
  if (config.model.encoding != 0 || config.loop.init_model.empty()) return config;
  std::error_code ec;
  const std::string gen0 = RunFolder(run_dir).model_path(0);
  const std::string start = fs::exists(gen0, ec) ? gen0 : config.loop.init_model;
  if (!fs::exists(start, ec)) return config;  // check_init_model says what is missing
  config.model.encoding = read_checkpoint_header(start).second.encoding;
  return config;
}

void save_fresh_model(const RunContext& run) {
  const std::string gen0 = run.folder.model_path(0), &init = run.config.loop.init_model;
  if (fs::exists(gen0)) return;
  if (init.empty()) {
    Trainer(run.game, run.config, "").save(gen0, 0);
    return;
  }
  // The trainer continues from the given weights too; gen-000 is written last (it marks this done).
  Trainer trainer(run.game, run.config, init, nullptr, true);
  trainer.save(run.folder.train_model_path(), 0);
  trainer.save(gen0, 0);
}

}  // namespace vzero
