// The residual policy/value network.
#include "net/model.h"

#include "game/error.h"

namespace vzero {

namespace {

torch::nn::Conv2d conv(int in, int out, int kernel) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false));
}

}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int filters) {
  conv1 = register_module("conv1", conv(filters, filters, 3));
  bn1 = register_module("bn1", torch::nn::BatchNorm2d(filters));
  conv2 = register_module("conv2", conv(filters, filters, 3));
  bn2 = register_module("bn2", torch::nn::BatchNorm2d(filters));
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = torch::relu(bn1(conv1(x)));
  y = bn2(conv2(y));
  return torch::relu(x + y);
}

PolicyValueNetImpl::PolicyValueNetImpl(const ModelConfig& c, const ModelIdentity& id) : config(c), identity(id) {
  const int area = id.height * id.width;
  input_conv = register_module("input_conv", conv(id.channels, c.filters, 3));
  input_bn = register_module("input_bn", torch::nn::BatchNorm2d(c.filters));
  tower = register_module("tower", torch::nn::ModuleList());
  for (int i = 0; i < c.blocks; ++i) tower->push_back(ResidualBlock(c.filters));
  policy_conv = register_module("policy_conv", conv(c.filters, c.policy_channels, 1));
  policy_bn = register_module("policy_bn", torch::nn::BatchNorm2d(c.policy_channels));
  policy_fc = register_module("policy_fc", torch::nn::Linear(c.policy_channels * area, id.num_actions));
  value_conv = register_module("value_conv", conv(c.filters, 1, 1));
  value_bn = register_module("value_bn", torch::nn::BatchNorm2d(1));
  value_fc1 = register_module("value_fc1", torch::nn::Linear(area, c.value_hidden));
  value_fc2 = register_module("value_fc2", torch::nn::Linear(c.value_hidden, id.players));
}

std::pair<torch::Tensor, torch::Tensor> PolicyValueNetImpl::forward(const torch::Tensor& x) {
  torch::Tensor h = torch::relu(input_bn(input_conv(x)));
  for (const auto& block : *tower) h = block->as<ResidualBlock>()->forward(h);
  torch::Tensor p = torch::relu(policy_bn(policy_conv(h))).flatten(1);
  p = policy_fc(p);
  torch::Tensor v = torch::relu(value_bn(value_conv(h))).flatten(1);
  v = torch::tanh(value_fc2(torch::relu(value_fc1(v))));
  return {p, v};
}

PolicyValueNet make_model(const ModelConfig& config, const ModelIdentity& identity, uint64_t seed) {
  torch::manual_seed(seed);
  return PolicyValueNet(config, identity);
}

torch::Device parse_device(const std::string& name) {
  if (name == "cpu") return torch::kCPU;
  if (name.rfind("cuda", 0) == 0) {
    if (!torch::cuda::is_available())
      throw Error("device '" + name + "': this LibTorch has no CUDA or no GPU is visible");
    try {
      return torch::Device(name);
    } catch (const c10::Error&) {
      throw Error("bad device '" + name + "' (expected cpu or cuda:N)");
    }
  }
  throw Error("bad device '" + name + "' (expected cpu or cuda:N)");
}

}  // namespace vzero
