// The train command and the loop's training step.
#include "training/train_run.h"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "game/error.h"
#include "training/run_dir.h"

namespace vzero {

namespace fs = std::filesystem;

TrainOutcome run_training(const RunConfig& config, const std::string& run_dir, std::ostream& log,
                          int64_t new_positions) {
  const Game& game = game_by_id(config.variant);
  const fs::path dir(run_dir);
  prepare_run_dir(config, run_dir);
  const fs::path train = dir / "models" / "train.pt", target_file = dir / "models" / "train-target.txt";
  Trainer trainer(game, config, fs::exists(train) ? train.string() : "");
  const ReplayWindow window =
      load_window(game, (dir / "shards").string(), config.train.window_positions, config.train.holdout_fraction);
  // The target step is fixed when a training starts, so that a restart finishes the same run.
  int64_t target = 0;
  if (fs::exists(target_file)) target = std::stoll(read_text_file(target_file.string()));
  if (target <= trainer.step()) {
    const double fresh = new_positions > 0 ? double(new_positions) : double(window.train.size());
    const int steps = config.train.steps > 0
                          ? config.train.steps
                          : std::max(1, int(config.train.sample_reuse * fresh / config.train.batch_size));
    target = trainer.step() + steps;
    write_text_file(target_file.string(), std::to_string(target));
  }
  TrainOutcome out;
  const TrainReport& r = out.report = trainer.train(window, int(target - trainer.step()), train.string(), 50);
  trainer.save(train.string(), 0);
  const Validation& v = out.validation = trainer.validate(window.validation);
  std::ostringstream line;
  line << "train step " << r.step << " steps " << r.steps << " samples " << window.train.size() << " shards "
       << window.shards << " policy_loss " << r.policy_loss << " value_loss " << r.value_loss << " samples_per_s "
       << r.samples_per_s << " val_top1 " << v.policy_top1 << " val_value_mse " << v.value_mse;
  out.line = line.str();
  log << out.line << std::endl;
  return out;
}

}  // namespace vzero
