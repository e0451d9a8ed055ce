// TorchScript export: registered parameters and a forward defined in TorchScript.
#include "net/export.h"

#include <torch/script.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "game/error.h"

namespace vzero {

namespace {

// The weight and bias of a bias-free convolution followed by batch norm (eval mode), folded.
std::pair<torch::Tensor, torch::Tensor> fold(const torch::nn::Conv2d& conv, const torch::nn::BatchNorm2d& bn) {
  const auto& o = bn->options;
  const torch::Tensor scale = bn->weight / torch::sqrt(bn->running_var + o.eps());
  const torch::Tensor w = conv->weight * scale.view({-1, 1, 1, 1});
  const torch::Tensor b = bn->bias - bn->running_mean * scale;
  return {w.detach().clone(), b.detach().clone()};
}

c10::List<std::string> string_list(const std::vector<std::string>& v) {
  c10::List<std::string> l;
  for (const std::string& s : v) l.push_back(s);
  return l;
}

}  // namespace

void export_torchscript(PolicyValueNet& model, const Game& game, const std::string& path) {
  torch::NoGradGuard no_grad;
  model->eval();
  model->to(torch::kCPU);
  torch::jit::Module m("VzeroNet");
  std::ostringstream src;
  src << "def forward(self, x):\n";
  const auto conv_line = [&](const std::string& name, const torch::nn::Conv2d& c, const torch::nn::BatchNorm2d& bn,
                             const std::string& in, int pad) {
    auto [w, b] = fold(c, bn);
    m.register_parameter(name + "_w", w, false);
    m.register_parameter(name + "_b", b, false);
    std::ostringstream s;
    s << "torch.conv2d(" << in << ", self." << name << "_w, self." << name << "_b, [1, 1], [" << pad << ", " << pad
      << "], [1, 1], 1)";
    return s.str();
  };
  src << "    x = torch.relu(" << conv_line("input", model->input_conv, model->input_bn, "x", 1) << ")\n";
  int i = 0;
  for (const auto& module : *model->tower) {
    auto block = module->as<ResidualBlock>();
    const std::string n = "block" + std::to_string(i++);
    src << "    y = torch.relu(" << conv_line(n + "a", block->conv1, block->bn1, "x", 1) << ")\n";
    src << "    y = " << conv_line(n + "b", block->conv2, block->bn2, "y", 1) << "\n";
    src << "    x = torch.relu(x + y)\n";
  }
  const auto linear = [&](const std::string& name, const torch::nn::Linear& l) {
    m.register_parameter(name + "_w", l->weight.detach().clone(), false);
    m.register_parameter(name + "_b", l->bias.detach().clone(), false);
  };
  linear("policy_fc", model->policy_fc);
  linear("value_fc1", model->value_fc1);
  linear("value_fc2", model->value_fc2);
  src << "    p = torch.relu(" << conv_line("policy", model->policy_conv, model->policy_bn, "x", 0) << ")\n";
  src << "    p = torch.flatten(p, 1)\n";
  src << "    p = torch.matmul(p, self.policy_fc_w.t()) + self.policy_fc_b\n";
  src << "    v = torch.relu(" << conv_line("value", model->value_conv, model->value_bn, "x", 0) << ")\n";
  src << "    v = torch.flatten(v, 1)\n";
  src << "    v = torch.relu(torch.matmul(v, self.value_fc1_w.t()) + self.value_fc1_b)\n";
  src << "    v = torch.tanh(torch.matmul(v, self.value_fc2_w.t()) + self.value_fc2_b)\n";
  src << "    return p, v\n";

  const ModelIdentity& id = model->identity;
  const EncodingSpec& e = game.encoding();
  std::vector<std::string> actions;
  for (int a = 0; a < game.num_actions(); ++a) actions.push_back(game.action_text(a));
  std::vector<std::string> layout = e.plane_names;
  for (const std::string& s : e.scalar_names) layout.push_back("scalar: " + s);
  m.register_attribute("variant", c10::StringType::get(), id.variant);
  m.register_attribute("rules_hash", c10::StringType::get(), hash_hex(id.rules_hash));
  m.register_attribute("encoding_hash", c10::StringType::get(), hash_hex(id.encoding_hash));
  m.register_attribute("encoding_version", c10::IntType::get(), int64_t(EncodingSpec::kVersion));
  m.register_attribute("input_shape", c10::ListType::ofInts(),
                       c10::List<int64_t>({id.channels, id.height, id.width}));
  m.register_attribute("input_planes", c10::ListType::ofStrings(), string_list(layout));
  m.register_attribute("actions", c10::ListType::ofStrings(), string_list(actions));
  m.register_attribute("players", c10::IntType::get(), int64_t(id.players));
  m.register_attribute("values", c10::StringType::get(),
                       std::string("tanh value per seat; index 0 is the player to act, then the next seats in turn order"));
  m.register_attribute("model_config", c10::StringType::get(), model->config.to_text());
  try {
    m.define(src.str());
    const std::string tmp = path + ".tmp";
    m.save(tmp);
    std::filesystem::rename(tmp, path);
  } catch (const c10::Error& err) {
    throw Error("cannot export to '" + path + "': " + err.what_without_backtrace());
  } catch (const std::filesystem::filesystem_error& err) {
    throw Error("cannot export to '" + path + "': " + err.what());
  }
}

}  // namespace vzero
