#pragma once
// Checkpoints: weights, the model's identity (variant, rules hash, encoding
// hash, shapes), its config, the training step and generation, optionally
// the optimizer state, and a checksum of the weights. Written under a
// temporary name and renamed, so a killed run never leaves half a file.
#include <torch/torch.h>

#include <string>

#include "net/model.h"

namespace vzero {

struct Checkpoint {
  PolicyValueNet model{nullptr};
  int64_t step = 0;
  int generation = 0;
};

// Saves model (and optimizer when given) to path.
void save_checkpoint(const std::string& path, PolicyValueNet& model, int64_t step, int generation,
                     torch::optim::Optimizer* optimizer = nullptr);
// Loads a checkpoint; when expected is given, its identity must match
// (throws Error on a mismatch, a truncated or corrupt file).
Checkpoint load_checkpoint(const std::string& path, const ModelIdentity* expected = nullptr);
// Restores the optimizer state saved with a checkpoint (throws Error when absent or corrupt).
void load_optimizer_state(const std::string& path, torch::optim::Optimizer& optimizer);
// The identity and config of a checkpoint without building its model.
std::pair<ModelIdentity, ModelConfig> read_checkpoint_header(const std::string& path);

}  // namespace vzero
