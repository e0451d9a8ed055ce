#pragma once
// `vzero train` and the loop's training step: the continuous trainer of a run
// folder (models/train.pt) trained on its shards up to a target step fixed
// when the training starts, so that a killed training resumes exactly. No LibTorch.
#include <cstdint>
#include <iosfwd>
#include <string>

#include "training/run_config.h"
#include "training/trainer.h"

namespace vzero {

struct TrainOutcome {
  TrainReport report;
  Validation validation;  // of the trained model on the held-out games
  std::string line;       // a one-line summary
};

// Trains the model of run_dir/models/train.pt (or a fresh one) on run_dir/shards,
// resuming an interrupted run exactly. Steps: train.steps if set, else
// sample_reuse * new_positions / batch_size (new_positions 0: the whole window).
TrainOutcome run_training(const RunConfig& config, const std::string& run_dir, std::ostream& log,
                          int64_t new_positions = 0);

}  // namespace vzero
