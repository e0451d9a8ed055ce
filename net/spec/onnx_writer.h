#pragma once
// ONNX export from the layer list and plain float weights (no LibTorch):
// opset 17, IR version 8, input "input" [batch, C, H, W] with a dynamic
// batch dimension, the graph's outputs named as the layer list names them
// ("policy", "values", "wdl", "moves_left"), weights as initializers and
// metadata as metadata_props. Protobuf code lives only in onnx_writer.cpp.
#include <string>
#include <utility>
#include <vector>

#include "net/spec/model_graph.h"

namespace vzero {

constexpr int kOnnxOpset = 17;
constexpr int kOnnxIrVersion = 8;

// Writes graph (batch norm already folded) with weights to path, through a
// temporary file (throws Error when a layer cannot be written, a weight is
// missing or the file cannot be written).
void write_onnx(const NetworkGraph& graph, const Weights& weights,
                const std::vector<std::pair<std::string, std::string>>& metadata,
                const std::string& graph_name, const std::string& path);

}  // namespace vzero
