#pragma once
// `vzero train` and the loop's training step: the continuous trainer of a run
// folder (models/train.pt) trained on its shards up to a target step fixed
// when the training starts, so that a killed training resumes exactly. No LibTorch.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "training/run_config.h"
#include "training/run_dir.h"
#include "training/trainer.h"

namespace vzero {

struct TrainOutcome {
  TrainReport report;
  Validation validation;  // of the trained model on the held-out games
  std::string line;       // a one-line summary
};

// What a caller asks of a training besides the config.
class ProcessGroup;

struct TrainRequest {
  int64_t new_positions = 0;  // samples new since the last training (0: the whole window)
  // > 0: the loop's training of that generation, which runs to its target
  // once, however often it is called; 0: a new training unless one is unfinished.
  int generation = 0;
  std::function<void(int64_t step)> saved;  // called after each periodic save of train.pt
  // Distributed training: every rank calls run_training with the same request;
  // rank 0 prepares the folder, chooses the shards and the target, validates
  // and writes; the other ranks' outcomes hold only the report.
  ProcessGroup* group = nullptr;
  bool prepared =
      false;  // the caller prepared the run folder (shared by several processes: no clean-up)
};

// Trains the run folder's models/train.pt (or a fresh model) on its shards,
// resuming an interrupted training exactly; the summary line goes to the log.
// Steps: train.steps if set, else sample_reuse * new_positions / batch_size.
TrainOutcome run_training(const RunContext& run, const TrainRequest& request = {});

// Saves the continuous trainer (models/train.pt) as the checkpoint of generation g
// (models/gen-NNN.pt).
void save_candidate(const RunContext& run, int generation);
// Throws Error unless loop.init_model is empty or a checkpoint of the run's variant and [model]
// (checked before a run folder is written to, and only until it holds gen-000).
void check_init_model(const RunContext& run);
// config with [model] encoding 0 (the newest) replaced by the version that the run's starting
// model reads: run_dir's gen-000 when it exists, else loop.init_model when set and present
// (throws Error when that checkpoint cannot be read). Unchanged otherwise, so that a run
// continued from a model of an older version goes on in it.
RunConfig in_init_model_encoding(RunConfig config, const std::string& run_dir);
// Writes models/gen-000.pt when the folder has none: the fresh model of [model] seeded by the
// run's seed, or the weights of loop.init_model (then also the trainer's starting point).
void save_fresh_model(const RunContext& run);

}  // namespace vzero
