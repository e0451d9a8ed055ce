#pragma once
// Training from self-play samples: batches drawn from a replay window,
// policy cross-entropy (full searches only) plus value error, SGD with
// momentum or AdamW, warm-up and step decay, symmetry augmentation where the
// variant declares it; checkpoints carry the optimizer state and step, so a
// killed run resumes exactly (batches depend only on the seed and the step).
// This header holds no LibTorch.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"
#include "training/run_config.h"
#include "training/window.h"

namespace vzero {

class ProcessGroup;

struct TrainReport {
  int64_t step = 0;  // global step after training
  int steps = 0;     // steps this call
  double policy_loss = 0.0,
         value_loss = 0.0;       // means over the call (value: MSE, or the wdl cross-entropy)
  double moves_left_loss = 0.0;  // models with a moves-left head
  double samples_per_s = 0.0;
  double seconds = 0.0;
};

struct Validation {
  double policy_top1 =
      0.0;  // share of held-out full-search samples whose most visited action the net ranks first
  double value_mse = 0.0;  // mean squared error of values against results
  double policy_loss = 0.0;
  double moves_left_mae =
      -1.0;  // mean absolute error of the moves-left head in plies (-1: no head)
  int samples = 0;
};

class Trainer {
 public:
  // Starts from a checkpoint (its optimizer state too, when it has one) or a
  // fresh model of config.model when checkpoint is empty, on config.device.
  // With a process group, the ranks train one model together: each takes its
  // share of every batch of train.batch_size samples (which the ranks must
  // divide), gradients and batch-norm statistics are all-reduced, and only
  // rank 0 saves; throws Error when the ranks start from different models.
  // With weights_only, only the checkpoint's weights are taken (step 0, a
  // fresh optimizer), and its [model] must be config.model (else Error).
  Trainer(const Game& game, const RunConfig& config, const std::string& checkpoint,
          ProcessGroup* group = nullptr, bool weights_only = false);
  ~Trainer();

  // Runs steps optimizer steps on window.train; saves to save_path every
  // save_every steps (0: never) so that a killed run can resume, calling
  // saved(step) after each such save.
  TrainReport train(const ReplayWindow& window, int steps, const std::string& save_path = "",
                    int save_every = 0, const std::function<void(int64_t step)>& saved = {});
  Validation validate(const std::vector<Sample>& samples);
  // Raw forward+backward samples/s on synthetic tensors of the same shapes (the ceiling).
  double bench_synthetic(int steps);
  // Saves the model, its step and the optimizer state (on rank 0 of a process group only).
  void save(const std::string& path, int generation);
  int64_t step() const;
  // The sum of the absolute values of every weight and floating-point buffer.
  double checksum();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vzero
