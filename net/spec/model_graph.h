#pragma once
// The one description of the policy/value network: a list of layers that the
// LibTorch module (net/model.cpp), the TorchScript export (net/export.cpp)
// and the ONNX export (net/onnx_writer.cpp) each walk. No LibTorch here:
// the exports take their weights as plain float arrays.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "net/spec/model_config.h"

namespace vzero {

enum class LayerKind {
  Conv,  // 2-d convolution, stride 1, padding kernel / 2; weight [out, in, k, k] (+ bias [out])
  BatchNorm,    // per-channel batch norm over [B, C, H, W]; weight, bias, running_mean, running_var
                // [C]
  Relu,         // max(x, 0)
  Tanh,         // tanh(x)
  Softplus,     // log(1 + exp(x))
  Add,          // inputs[0] + inputs[1], the same shape
  GlobalPool,   // [B, C, H, W] -> [B, 2C]: each channel's mean over the board, then each one's max
  ChannelBias,  // inputs[0] [B, C, H, W] plus inputs[1] [B, C], one value per channel over the
                // board
  Flatten,      // [B, C, H, W] -> [B, C * H * W]
  Linear,       // [B, in] -> [B, out]: weight [out, in], bias [out]
  WdlValues,    // win/draw/loss logits [B, 3] -> values [B, 2]: softmax, then (W - L, L - W)
  Gather,       // [B, C, H, W] -> [B, index.size()]: flattened to [B, C * H * W], the columns of
                // index
};

// The network input planes, as an input of a layer.
constexpr int kNetworkInput = -1;
// Batch norm's epsilon (LibTorch's default).
constexpr double kBatchNormEps = 1e-5;

struct Layer {
  LayerKind kind = LayerKind::Relu;
  std::string name;            // unique; also the prefix of its parameters ("tower.0.conv1" ->
                               // "tower.0.conv1.weight")
  std::vector<int> inputs;     // indices of earlier layers, or kNetworkInput
  int in = 0, out = 0;         // channels (Conv, BatchNorm: out) or features (Linear)
  int kernel = 0;              // Conv
  bool bias = false;           // Conv: has a bias (true once batch norm is folded into it)
  std::vector<int64_t> index;  // Gather: the input entry (c * H * W + square) of each output
};

struct NetworkOutput {
  std::string name;     // "policy", "values", "wdl" or "moves_left"
  int layer = 0;        // the layer that computes it
  int width = 0;        // [B, width]
  std::string meaning;  // one line for exports' metadata
};

struct NetworkGraph {
  int channels = 0, height = 0, width = 0;  // the input [B, channels, height, width]
  std::vector<Layer> layers;                // in evaluation order
  std::vector<NetworkOutput> outputs;  // policy, values, then wdl and moves_left when configured

  // The names of a layer's parameters and buffers, in registration order (empty for parameter-free
  // layers).
  static std::vector<std::string> parameters(const Layer& layer);
  // For each layer, the index of the last layer reading it (outputs: layers.size()).
  std::vector<int> last_uses() const;
  // Floating-point operations of one evaluation (one position): 2 per multiply-add of the
  // convolutions and linear layers; the elementwise layers (a fraction of a percent) left out.
  double flops_per_eval() const;
};

// The network of config for identity (throws Error when the config does not fit the variant).
NetworkGraph describe_network(const ModelConfig& config, const ModelIdentity& identity);

// A tensor as plain floats (row-major).
struct FloatTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};
// Parameters and buffers by full name ("tower.0.conv1.weight").
using Weights = std::map<std::string, FloatTensor>;

// The same network with every batch norm folded into the convolution before
// it (eval mode: running statistics); weights are rewritten to match (the
// folded arithmetic is done in double). Throws Error when a batch norm does
// not follow a convolution it alone reads, or a weight is missing.
NetworkGraph fold_batch_norm(const NetworkGraph& graph, Weights& weights);

}  // namespace vzero
