#pragma once
// The policy/value network in LibTorch: a residual tower, a policy head over
// the variant's action space and a value head with one value per seat,
// rotated so that index 0 is the player to act.
#include <torch/torch.h>

#include <utility>

#include "net/model_config.h"

namespace vzero {

struct ResidualBlockImpl : torch::nn::Module {
  explicit ResidualBlockImpl(int filters);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
};
TORCH_MODULE(ResidualBlock);

struct PolicyValueNetImpl : torch::nn::Module {
  PolicyValueNetImpl(const ModelConfig& config, const ModelIdentity& identity);
  // x: [B, channels, H, W] -> (policy logits [B, num_actions], values [B, players] in [-1, 1]).
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x);

  ModelConfig config;
  ModelIdentity identity;
  torch::nn::Conv2d input_conv{nullptr};
  torch::nn::BatchNorm2d input_bn{nullptr};
  torch::nn::ModuleList tower;
  torch::nn::Conv2d policy_conv{nullptr};
  torch::nn::BatchNorm2d policy_bn{nullptr};
  torch::nn::Linear policy_fc{nullptr};
  torch::nn::Conv2d value_conv{nullptr};
  torch::nn::BatchNorm2d value_bn{nullptr};
  torch::nn::Linear value_fc1{nullptr}, value_fc2{nullptr};
};
TORCH_MODULE(PolicyValueNet);

// A fresh model whose weights follow from seed.
PolicyValueNet make_model(const ModelConfig& config, const ModelIdentity& identity, uint64_t seed);

// The device of a name: "cpu" or "cuda:N" (throws Error when CUDA is not available).
torch::Device parse_device(const std::string& name);

}  // namespace vzero
