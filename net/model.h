#pragma once
// The policy/value network in LibTorch, built by walking the layer list of
// net/model_graph.h: a residual tower, a policy head over the variant's
// action space, a value head with one value per seat (rotated so that index
// 0 is the player to act) and the optional wdl and moves-left outputs.
#include <torch/torch.h>

#include <functional>

#include "net/spec/model_config.h"
#include "net/spec/model_graph.h"

namespace vzero {

// What the network computes for a batch [B, channels, H, W].
struct NetOutput {
  torch::Tensor policy;  // [B, num_actions] logits
  torch::Tensor values;  // [B, players] in [-1, 1], index 0 the player to act
  torch::Tensor
      wdl;  // [B, 3] win/draw/loss logits of the player to act (value_head = "wdl"; else undefined)
  torch::Tensor moves_left;  // [B, 1] expected remaining plies (moves_left_head; else undefined)

  // The output of a name of the layer list ("policy", "values", "wdl", "moves_left"; throws Error
  // otherwise).
  torch::Tensor& at(const std::string& name);
};

struct PolicyValueNetImpl : torch::nn::Module {
  PolicyValueNetImpl(const ModelConfig& config, const ModelIdentity& identity);
  // The module of a given layer list of config (a folded one: no batch norm, biased convolutions).
  PolicyValueNetImpl(const ModelConfig& config, const ModelIdentity& identity, NetworkGraph graph);
  NetOutput forward(const torch::Tensor& x);
  // Every parameter and buffer the layer list names, as plain floats on the CPU.
  Weights weights();

  ModelConfig config;
  ModelIdentity identity;
  // The cap in plies that the plies input of the training data was scaled by
  // (selfplay.max_plies, else the variant's); 0: unknown, each state's own cap.
  // Every evaluator of this model encodes with it (net/server.cpp).
  int input_plies = 0;
  NetworkGraph graph;
  // When set, batch-norm layers in training mode call it instead of their module
  // (distributed training: statistics over every rank's samples).
  std::function<torch::Tensor(torch::nn::BatchNorm2dImpl&, const torch::Tensor&)>
      batch_norm_override;
  // When set (the inference forms "frozen" and "int8"), forward runs it instead of the layers:
  // a compiled module of the same layer list.
  std::function<NetOutput(const torch::Tensor&)> compiled;

 private:
  // The LibTorch module of each layer (null for parameter-free layers).
  struct LayerModules {
    torch::nn::Conv2d conv{nullptr};
    torch::nn::BatchNorm2d bn{nullptr};
    torch::nn::Linear linear{nullptr};
    torch::Tensor index;  // Gather: the layer's index as int64, on the CPU
  };
  std::vector<LayerModules> modules_;
  std::vector<int> last_use_;
};
TORCH_MODULE(PolicyValueNet);

// The output of a layer without weights of its own (Relu, Tanh, Softplus, Add, GlobalPool,
// ChannelBias, Flatten, WdlValues) for its input a (and b: Add, ChannelBias); every form runs
// these alike. Throws Error for another kind.
torch::Tensor weightless_layer(const Layer& layer, const torch::Tensor& a,
                               const torch::Tensor& b = {});

// A CPU tensor holding a copy of t's floats, in t's shape.
torch::Tensor tensor_of(const FloatTensor& t);

// A fresh model whose weights follow from seed.
PolicyValueNet make_model(const ModelConfig& config, const ModelIdentity& identity, uint64_t seed);

// The network of model for inference in one of the forms of ServerConfig::form
// (net/spec/server_config.h), each an eval-mode copy with every batch norm
// folded into its convolution once: "folded" runs the layer list eagerly;
// "channels_last" too, with its convolution weights (hence activations) in
// NHWC order; "frozen" runs the TorchScript of the layer list (the export's,
// net/export.h) frozen and optimised for inference (constant weights,
// oneDNN convolutions with fused ReLU and add where LibTorch has them);
// "unfolded" is model itself in eval mode. The same outputs as model in eval
// mode (within float rounding), on model's device. "int8" (CPU only, a
// variant of the registry) runs the convolutions in int8 (net/quantized.h),
// calibrated on positions of the variant: close to the fp32 outputs, not
// equal. Throws Error on another form.
PolicyValueNet inference_model(PolicyValueNet& model, const std::string& form = "folded");

// Keeps freed memory in the process (glibc's mmap and trim thresholds raised,
// once, process-wide) so that the activations a network allocates and frees
// every batch are not returned to the system and faulted in again;
// inference_model calls it.
void keep_freed_memory();

// The device of a name: "cpu" or "cuda:N" (throws Error when CUDA is not available).
torch::Device parse_device(const std::string& name);

}  // namespace vzero
