// The LibTorch module of the layer list.
#include "net/model.h"

#include <malloc.h>

#include <cmath>
#include <limits>

#include "game/builtin/games.h"
#include "net/export.h"
#include "net/quantized.h"
#include "net/spec/server_config.h"
#include "net/winograd.h"
#include "util/error.h"

namespace vzero {

namespace {

// The module at a dotted path ("tower.0"), creating empty containers on the way,
// so parameters get the names (and checkpoints the layout) the layer list gives.
std::shared_ptr<torch::nn::Module> container(torch::nn::Module& root, const std::string& path) {
  torch::nn::Module* at = &root;
  std::shared_ptr<torch::nn::Module> found;
  size_t start = 0;
  while (start < path.size()) {
    const size_t dot = path.find('.', start);
    const std::string part =
        path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const auto children = at->named_children();
    found = children.contains(part)
                ? children[part]
                : at->register_module(part, std::make_shared<torch::nn::Module>());
    at = found.get();
    start = dot == std::string::npos ? path.size() : dot + 1;
  }
  return found;
}

// Registers module under the layer's dotted name.
template <class M>
M add_module(torch::nn::Module& root, const std::string& name, M module) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return root.register_module(name, module);
  return container(root, name.substr(0, dot))->register_module(name.substr(dot + 1), module);
}

FloatTensor plain(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  FloatTensor f;
  f.shape = c.sizes().vec();
  f.data.assign(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  return f;
}

}  // namespace

torch::Tensor& NetOutput::at(const std::string& name) {
  if (name == "policy") return policy;
  if (name == "values") return values;
  if (name == "wdl") return wdl;
  if (name == "moves_left") return moves_left;
  throw Error("the network has no output '" + name + "'");
}

PolicyValueNetImpl::PolicyValueNetImpl(const ModelConfig& c, const ModelIdentity& id)
    : PolicyValueNetImpl(c, id, describe_network(c, id)) {}

PolicyValueNetImpl::PolicyValueNetImpl(const ModelConfig& c, const ModelIdentity& id,
                                       NetworkGraph g)
    : config(c), identity(id), graph(std::move(g)) {
  config.encoding = identity.encoding;  // the version it reads, stored with it
  for (const Layer& l : graph.layers) {
    LayerModules m;
    if (l.kind == LayerKind::Conv) {
      const auto options =
          torch::nn::Conv2dOptions(l.in, l.out, l.kernel).padding(l.kernel / 2).bias(l.bias);
      m.conv = add_module(*this, l.name, torch::nn::Conv2d(options));
    } else if (l.kind == LayerKind::BatchNorm) {
      m.bn = add_module(
          *this, l.name,
          torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(l.out).eps(kBatchNormEps)));
    } else if (l.kind == LayerKind::Linear) {
      m.linear = add_module(*this, l.name, torch::nn::Linear(l.in, l.out));
    } else if (l.kind == LayerKind::Gather) {
      m.index = torch::tensor(l.index, torch::kLong);
    }
    modules_.push_back(m);
  }
  last_use_ = graph.last_uses();
}

NetOutput PolicyValueNetImpl::forward(const torch::Tensor& x) {
  if (compiled) return compiled(x);
  std::vector<torch::Tensor> t(graph.layers.size());
  for (size_t i = 0; i < graph.layers.size(); ++i) {
    const Layer& l = graph.layers[i];
    const auto in = [&](int k) -> const torch::Tensor& {
      return l.inputs[k] == kNetworkInput ? x : t[l.inputs[k]];
    };
    LayerModules& m = modules_[i];
    switch (l.kind) {
      case LayerKind::Conv:
        t[i] = m.conv(in(0));
        break;
      case LayerKind::BatchNorm:
        t[i] =
            batch_norm_override && is_training() ? batch_norm_override(*m.bn, in(0)) : m.bn(in(0));
        break;
      case LayerKind::Linear:
        t[i] = m.linear(in(0));
        break;
      case LayerKind::Gather: {
        // The index stays on the CPU with the layer list; it follows the input's device.
        const torch::Tensor& a = in(0);
        t[i] = a.flatten(1).index_select(
            1, m.index.device() == a.device() ? m.index : m.index.to(a.device()));
        break;
      }
      default:
        t[i] = weightless_layer(l, in(0), l.inputs.size() > 1 ? in(1) : torch::Tensor());
    }
    // Frees what no later layer reads (big towers would otherwise hold every activation).
    for (int k : l.inputs)
      if (k != kNetworkInput && last_use_[size_t(k)] == int(i)) t[size_t(k)] = torch::Tensor();
  }
  NetOutput out;
  for (const NetworkOutput& o : graph.outputs) out.at(o.name) = t[size_t(o.layer)];
  return out;
}

torch::Tensor tensor_of(const FloatTensor& t) {
  return torch::from_blob(const_cast<float*>(t.data.data()), t.shape).clone();
}

torch::Tensor weightless_layer(const Layer& l, const torch::Tensor& a, const torch::Tensor& b) {
  switch (l.kind) {
    case LayerKind::Relu:
      return torch::relu(a);
    case LayerKind::Tanh:
      return torch::tanh(a);
    case LayerKind::Softplus:
      return torch::softplus(a);
    case LayerKind::Add:
      return a + b;
    case LayerKind::GlobalPool:
      return torch::cat({a.mean({2, 3}), a.amax({2, 3})}, 1);
    case LayerKind::ChannelBias:
      return a + b.unsqueeze(2).unsqueeze(3);
    case LayerKind::Flatten:
      return a.flatten(1);
    case LayerKind::WdlValues: {
      const torch::Tensor p = torch::softmax(a, 1), v = p.select(1, 0) - p.select(1, 2);
      return torch::stack({v, -v}, 1);
    }
    default:
      throw Error("layer '" + l.name + "' has weights of its own");
  }
}

Weights PolicyValueNetImpl::weights() {
  Weights w;
  const auto params = named_parameters(), buffers = named_buffers();
  for (const Layer& l : graph.layers)
    for (const std::string& name : NetworkGraph::parameters(l))
      w[name] = plain(params.contains(name) ? params[name] : buffers[name]);
  return w;
}

PolicyValueNet make_model(const ModelConfig& config, const ModelIdentity& identity, uint64_t seed) {
  torch::manual_seed(seed);
  return PolicyValueNet(config, identity);
}

void keep_freed_memory() {
  static const bool done = [] {
    // glibc serves blocks above the mmap threshold (128 KiB, then the largest
    // block freed) with fresh mappings and trims the heap top above 128 KiB:
    // either hands an activation back to the system when it is freed and
    // faults it in again, page by page, in the next batch (a 6x64 chess net
    // at batch 128: 4-5x slower). 32 MiB is glibc's largest threshold.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
  }();
  (void)done;
}

PolicyValueNet inference_model(PolicyValueNet& model, const std::string& form) {
  keep_freed_memory();
  check(is_inference_form(form),
        "unknown inference form '" + form + "' (expected " + inference_forms_text() + ")");
  torch::NoGradGuard no_grad;
  if (form == "unfolded") {
    model->eval();
    return model;
  }
  const bool channels_last = form == "channels_last";
  const bool training = model->is_training();
  model->eval();
  Weights w = model->weights();
  if (training) model->train();
  NetworkGraph g = fold_batch_norm(model->graph, w);
  // A channel whose batch-norm scale is near 0 folds into denormal weights,
  // which x86 multiplies tens of times slower: they become 0 (|w| < 1.2e-38).
  for (auto& [name, t] : w)
    for (float& v : t.data)
      if (std::abs(v) < std::numeric_limits<float>::min()) v = 0.0f;
  const auto params = model->parameters();
  const torch::Device device =
      params.empty() ? torch::Device(torch::kCPU) : params.front().device();
  PolicyValueNet folded(model->config, model->identity, g);
  folded->input_plies = model->input_plies;  // the plies scale the model learned with
  for (auto& p : folded->named_parameters()) {
    const FloatTensor& t = w.at(p.key());
    torch::Tensor v = tensor_of(t);
    if (channels_last && v.dim() == 4) v = v.contiguous(torch::MemoryFormat::ChannelsLast);
    p.value().set_data(v);
  }
  folded->to(device);
  folded->eval();
  if (form == "frozen") folded->compiled = frozen_forward(g, w, device);
  if (form == "winograd")  // on a GPU, the frozen form (its convolutions are the GPU's own)
    folded->compiled = device.is_cpu() ? winograd_forward(g, w) : frozen_forward(g, w, device);
  if (form == "int8") {
    check(device.is_cpu(), "the int8 form runs on the CPU only");
    // Calibrated on 512 positions of seeded random play of the model's variant (seed 7: not
    // the positions bench nn measures its accuracy on, seed 1).
    folded->compiled = int8_forward(g, w,
                                    golden_inputs(game_by_id(model->identity.variant), 512, 7,
                                                  model->input_plies, model->identity.encoding));
  }
  return folded;
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
