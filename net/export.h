#pragma once
// Export to TorchScript for other frontends (Python, C++ programs, GUIs):
// a module with a real forward (input planes -> policy logits, values),
// batch norm folded into the convolutions, and the model's identity
// recorded as attributes.
#include <string>

#include "game/game.h"
#include "net/model.h"

namespace vzero {

// Writes model as a TorchScript file at path (throws Error when it cannot).
void export_torchscript(PolicyValueNet& model, const Game& game, const std::string& path);

}  // namespace vzero
