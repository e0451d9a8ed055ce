#pragma once
// Checkpoints: weights, the model's identity (variant, rules hash, encoding
// hash, shapes), its config, the training step and generation, optionally
// the optimizer state, and a checksum of the weights; the LibTorch archive
// behind a header with its length and hash, checked before LibTorch reads it
// (its reader can crash on a corrupt archive). Written under a temporary name
// and renamed, so a killed run never leaves half a file.
#include <torch/torch.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "net/model.h"

namespace vzero {

struct Checkpoint {
  PolicyValueNet model{nullptr};
  int64_t step = 0;
  int generation = 0;
};

// What a checkpoint holds besides its weights.
struct CheckpointHeader {
  ModelIdentity identity;
  ModelConfig config;
  int64_t step = 0;
  int generation = 0;
  std::string weights_hash;
  int input_plies = 0;  // the model's plies scale; -1 when the checkpoint predates the field
};
// The header's fields as save_checkpoint writes them ("format" first).
std::vector<std::pair<std::string, c10::IValue>> checkpoint_fields(const CheckpointHeader& header);
// Looks up one field of a checkpoint archive: false when absent.
using FieldReader = std::function<bool(const std::string& key, c10::IValue& value)>;
// Reads and checks the header fields: types and ranges, the identity against
// expected when given (what: names the checkpoint in that error), and a model
// config whose largest layers fit in a file of file_bytes. Throws Error. The
// layer the readers below share (and fuzz/fuzz_checkpoint.cpp feeds).
CheckpointHeader read_checkpoint_fields(const FieldReader& field, const ModelIdentity* expected,
                                        int64_t file_bytes, const std::string& what);

// Saves model (and optimizer when given) to path.
void save_checkpoint(const std::string& path, PolicyValueNet& model, int64_t step, int generation,
                     torch::optim::Optimizer* optimizer = nullptr);
// Loads a checkpoint; when expected is given, its identity must match
// (throws Error on a mismatch, a truncated or corrupt file). A checkpoint
// older than the input_plies field takes it from the run config beside it
// (checkpoint_plies_fallback).
Checkpoint load_checkpoint(const std::string& path, const ModelIdentity* expected = nullptr);
// Loads a checkpoint of a model of game, in whichever of game's encodings it
// reads (throws Error as load_checkpoint when it was made for something else).
Checkpoint load_checkpoint_for(const Game& game, const std::string& path);
// Restores the optimizer state saved with a checkpoint (throws Error when absent or corrupt).
void load_optimizer_state(const std::string& path, torch::optim::Optimizer& optimizer);
// The plies scale of a checkpoint saved before checkpoint carried one: the
// [selfplay] max_plies of the run config beside it (DIR/NAME.toml for
// DIR/NAME.pt, as models/*.toml; else the run folder's config.toml for
// RUN/models/gen-NNN.pt), 0 when there is none or it is 0 (the variant's
// cap, which is what such a run trained with). Throws Error on a malformed config.
int checkpoint_plies_fallback(const std::string& path);
// The identity and config of a checkpoint without building its model.
std::pair<ModelIdentity, ModelConfig> read_checkpoint_header(const std::string& path);

}  // namespace vzero
