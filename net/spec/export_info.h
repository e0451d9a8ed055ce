#pragma once
// What every export records about a model besides its weights: identity,
// config, the input layout and the action texts in policy order, as
// key/value metadata and as the JSON sidecar that lets a frontend map
// outputs to moves without vzero. No LibTorch here.
#include <string>
#include <utility>
#include <vector>

#include "game/game.h"
#include "net/spec/model_graph.h"

namespace vzero {

// The version of this vzero build.
const char* vzero_version();

struct ExportInfo {
  ModelIdentity identity;
  std::string model_config;         // ModelConfig::to_text()
  std::vector<std::string> planes;  // names of the 0/1 input planes (the first channels)
  std::vector<std::string>
      scalars;  // names of the scalars (the channels after them, each one constant)
  std::vector<std::string> actions;    // action texts in policy order
  std::vector<NetworkOutput> outputs;  // names, widths and meanings of the outputs
};

// The export information of a network made for game.
ExportInfo export_info(const Game& game, const ModelConfig& config, const NetworkGraph& graph);

// The metadata as key/value pairs (ONNX metadata_props; all values are text).
std::vector<std::pair<std::string, std::string>> export_metadata(const ExportInfo& info);

// Writes the JSON sidecar (input layout, outputs, actions, identity) to path (throws Error when it
// cannot).
void write_sidecar(const ExportInfo& info, const std::string& path);

// Replaces path with text durably (util/files.h write_file_durably: temporary file, fsync,
// rename, fsync of the folder); throws Error naming what when it cannot.
void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what);

}  // namespace vzero
