// The layer list of the network, and batch-norm folding on plain weights.
#include "net/spec/model_graph.h"

#include <cmath>

#include "util/error.h"

namespace vzero {

namespace {

// Appends layers and hands back their indices.
class Builder {
 public:
  explicit Builder(NetworkGraph& g) : g_(g) {}

  int add(LayerKind kind, const std::string& name, std::vector<int> inputs, int in = 0, int out = 0,
          int kernel = 0) {
    Layer l;
    l.kind = kind;
    l.name = name;
    l.inputs = std::move(inputs);
    l.in = in;
    l.out = out;
    l.kernel = kernel;
    g_.layers.push_back(std::move(l));
    return int(g_.layers.size()) - 1;
  }
  // Convolution, batch norm and, when relu names one, a rectifier.
  int conv_bn(const std::string& conv, const std::string& bn, int x, int in, int out, int kernel,
              const std::string& relu) {
    int y = add(LayerKind::Conv, conv, {x}, in, out, kernel);
    y = add(LayerKind::BatchNorm, bn, {y}, out, out);
    return relu.empty() ? y : add(LayerKind::Relu, relu, {y});
  }
  // A head's trunk: 1x1 convolution to `channels`, batch norm, rectifier, flatten.
  int head_planes(const std::string& prefix, int x, int filters, int channels) {
    const int y =
        conv_bn(prefix + "_conv", prefix + "_bn", x, filters, channels, 1, prefix + "_relu");
    return add(LayerKind::Flatten, prefix + "_flatten", {y});
  }
  void output(const std::string& name, int layer, int width, const std::string& meaning) {
    g_.outputs.push_back({name, layer, width, meaning});
  }

 private:
  NetworkGraph& g_;
};

// The kernel of the convolutional policy head's one convolution (docs in net/README.md).
constexpr int kPolicyKernel = 3;

// Whether residual block i carries a global pooling bias.
bool pooled_block(const ModelConfig& c, int i) {
  return c.global_pooling > 0 && (i + 1) % c.global_pooling == 0;
}

}  // namespace

std::vector<std::string> NetworkGraph::parameters(const Layer& l) {
  switch (l.kind) {
    case LayerKind::Conv:
      if (l.bias) return {l.name + ".weight", l.name + ".bias"};
      return {l.name + ".weight"};
    case LayerKind::BatchNorm:
      return {l.name + ".weight", l.name + ".bias", l.name + ".running_mean",
              l.name + ".running_var"};
    case LayerKind::Linear:
      return {l.name + ".weight", l.name + ".bias"};
    default:
      return {};
  }
}

std::vector<int> NetworkGraph::last_uses() const {
  std::vector<int> last(layers.size(), -1);
  for (size_t i = 0; i < layers.size(); ++i)
    for (int in : layers[i].inputs)
      if (in != kNetworkInput) last[size_t(in)] = int(i);
  for (const NetworkOutput& o : outputs) last[size_t(o.layer)] = int(layers.size());
  return last;
}

double NetworkGraph::flops_per_eval() const {
  double flops = 0.0;
  const double area = double(height) * double(width);
  for (const Layer& l : layers) {
    if (l.kind == LayerKind::Conv)
      flops += 2.0 * l.in * l.out * l.kernel * l.kernel * area;
    else if (l.kind == LayerKind::Linear)
      flops += 2.0 * l.in * l.out;
  }
  return flops;
}

NetworkGraph describe_network(const ModelConfig& c, const ModelIdentity& id) {
  if (c.value_head == "wdl")
    check(id.players == 2, "value_head = \"wdl\" needs a 2-player variant ('" + id.variant +
                               "' has " + std::to_string(id.players) + " players)");
  NetworkGraph g;
  g.channels = id.channels;
  g.height = id.height;
  g.width = id.width;
  const int area = id.height * id.width, f = c.filters;
  Builder b(g);
  int x = b.conv_bn("input_conv", "input_bn", kNetworkInput, id.channels, f, 3, "input_relu");
  for (int i = 0; i < c.blocks; ++i) {
    const std::string p = "tower." + std::to_string(i) + ".";
    int y = b.conv_bn(p + "conv1", p + "bn1", x, f, f, 3, p + "relu1");
    if (pooled_block(c, i)) {
      const int pooled = b.add(LayerKind::GlobalPool, p + "pool", {y});
      const int bias = b.add(LayerKind::Linear, p + "gpool", {pooled}, 2 * f, f);
      y = b.add(LayerKind::ChannelBias, p + "pool_bias", {y, bias});
    }
    y = b.conv_bn(p + "conv2", p + "bn2", y, f, f, 3, "");
    x = b.add(LayerKind::Relu, p + "relu2", {b.add(LayerKind::Add, p + "add", {x, y})});
  }
  const std::string policy_meaning =
      "policy logits over the action space, in the order of the sidecar's actions";
  if (c.policy_head == "conv") {
    check(id.policy_planes > 0 && int(id.policy_index.size()) == id.num_actions,
          "policy_head = \"conv\" needs the variant's actions as board planes, and '" + id.variant +
              "' has none (use policy_head = \"fc\")");
    for (int64_t k : id.policy_index)
      check(k >= 0 && k < int64_t(id.policy_planes) * area, "the policy map is out of range");
    const int planes =
        b.add(LayerKind::Conv, "policy_planes", {x}, f, id.policy_planes, kPolicyKernel);
    g.layers[size_t(planes)].bias = true;
    const int gather = b.add(LayerKind::Gather, "policy_gather", {planes}, 0, id.num_actions);
    g.layers[size_t(gather)].index = id.policy_index;
    b.output("policy", gather, id.num_actions, policy_meaning);
  } else {
    const int policy = b.head_planes("policy", x, f, c.policy_channels);
    b.output(
        "policy",
        b.add(LayerKind::Linear, "policy_fc", {policy}, c.policy_channels * area, id.num_actions),
        id.num_actions, policy_meaning);
  }

  int v = b.head_planes("value", x, f, 1);
  v = b.add(LayerKind::Relu, "value_relu1",
            {b.add(LayerKind::Linear, "value_fc1", {v}, area, c.value_hidden)});
  if (c.value_head == "wdl") {
    const int wdl = b.add(LayerKind::Linear, "wdl_fc", {v}, c.value_hidden, 3);
    b.output(
        "values", b.add(LayerKind::WdlValues, "wdl_values", {wdl}), 2,
        "value per seat in [-1, 1] from the wdl head (win - loss); index 0 is the player to act");
    b.output("wdl", wdl, 3, "win, draw and loss logits for the player to act");
  } else {
    const int fc2 = b.add(LayerKind::Linear, "value_fc2", {v}, c.value_hidden, id.players);
    b.output(
        "values", b.add(LayerKind::Tanh, "value_tanh", {fc2}), id.players,
        "tanh value per seat; index 0 is the player to act, then the next seats in turn order");
  }
  if (c.moves_left_head) {
    int m = b.head_planes("moves_left", x, f, 1);
    m = b.add(LayerKind::Relu, "moves_left_relu1",
              {b.add(LayerKind::Linear, "moves_left_fc1", {m}, area, c.value_hidden)});
    m = b.add(LayerKind::Linear, "moves_left_fc2", {m}, c.value_hidden, 1);
    b.output("moves_left", b.add(LayerKind::Softplus, "moves_left_softplus", {m}), 1,
             "expected remaining plies of the game (softplus, non-negative)");
  }
  return g;
}

NetworkGraph fold_batch_norm(const NetworkGraph& graph, Weights& w) {
  const auto get = [&](const std::string& name) -> FloatTensor& {
    auto it = w.find(name);
    check(it != w.end(), "weight '" + name + "' is missing");
    return it->second;
  };
  std::vector<int> readers(graph.layers.size(), 0);
  for (const Layer& l : graph.layers)
    for (int in : l.inputs)
      if (in != kNetworkInput) ++readers[size_t(in)];
  NetworkGraph out = graph;
  out.layers.clear();
  std::vector<int> moved(graph.layers.size());  // old index -> new index
  for (size_t i = 0; i < graph.layers.size(); ++i) {
    Layer l = graph.layers[i];
    for (int& in : l.inputs)
      if (in != kNetworkInput) in = moved[size_t(in)];
    if (l.kind != LayerKind::BatchNorm) {
      out.layers.push_back(l);
      moved[i] = int(out.layers.size()) - 1;
      continue;
    }
    const int src = graph.layers[i].inputs[0];
    check(src != kNetworkInput && graph.layers[size_t(src)].kind == LayerKind::Conv &&
              readers[size_t(src)] == 1 && !graph.layers[size_t(src)].bias,
          "batch norm '" + l.name + "' does not follow a convolution of its own");
    Layer& conv = out.layers[size_t(moved[size_t(src)])];
    FloatTensor& weight = get(conv.name + ".weight");
    const FloatTensor &gamma = get(l.name + ".weight"), &beta = get(l.name + ".bias");
    const FloatTensor &mean = get(l.name + ".running_mean"), &var = get(l.name + ".running_var");
    const size_t channels = size_t(conv.out), per = weight.data.size() / channels;
    FloatTensor bias{{int64_t(channels)}, std::vector<float>(channels)};
    for (size_t c = 0; c < channels; ++c) {
      const double scale = double(gamma.data[c]) / std::sqrt(double(var.data[c]) + kBatchNormEps);
      for (size_t k = 0; k < per; ++k)
        weight.data[c * per + k] = float(double(weight.data[c * per + k]) * scale);
      bias.data[c] = float(double(beta.data[c]) - double(mean.data[c]) * scale);
    }
    w[conv.name + ".bias"] = std::move(bias);
    for (const char* s : {".weight", ".bias", ".running_mean", ".running_var"}) w.erase(l.name + s);
    conv.bias = true;
    moved[i] = moved[size_t(src)];
  }
  for (NetworkOutput& o : out.outputs) o.layer = moved[size_t(o.layer)];
  return out;
}

}  // namespace vzero
