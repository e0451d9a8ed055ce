// TorchScript export (TorchScript source generated from the folded layer
// list), the ONNX export's LibTorch side, and golden sets.
#include "net/export.h"

#include <torch/script.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "net/spec/export_info.h"
#include "net/spec/onnx_writer.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace {

// The model's layer list with batch norm folded, and the weights to match.
std::pair<NetworkGraph, Weights> folded(PolicyValueNet& model) {
  torch::NoGradGuard no_grad;
  model->eval();
  Weights w = model->weights();
  NetworkGraph g = fold_batch_norm(model->graph, w);
  return {std::move(g), std::move(w)};
}

c10::List<std::string> string_list(const std::vector<std::string>& v) {
  c10::List<std::string> l;
  for (const std::string& s : v) l.push_back(s);
  return l;
}

// The TorchScript forward of a folded layer list; registers the weights it reads on m.
std::string torchscript_source(const NetworkGraph& g, const Weights& weights,
                               torch::jit::Module& m) {
  const auto param = [&](const std::string& name) {
    std::string attr = name;
    for (char& c : attr)
      if (c == '.') c = '_';
    const FloatTensor& t = weights.at(name);
    m.register_parameter(attr, torch::tensor(t.data).view(t.shape), false);
    return "self." + attr;
  };
  const auto var = [](int layer) {
    return layer == kNetworkInput ? std::string("x") : "t" + std::to_string(layer);
  };
  std::ostringstream src;
  src << "def forward(self, x):\n";
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& l = g.layers[i];
    const std::string out = "    " + var(int(i)) + " = ", a = var(l.inputs[0]);
    const std::string b = l.inputs.size() > 1 ? var(l.inputs[1]) : "";
    switch (l.kind) {
      case LayerKind::Conv: {
        const std::string pad = std::to_string(l.kernel / 2);
        src << out << "torch.conv2d(" << a << ", " << param(l.name + ".weight") << ", "
            << (l.bias ? param(l.name + ".bias") : "None") << ", [1, 1], [" << pad << ", " << pad
            << "], [1, 1], 1)\n";
        break;
      }
      case LayerKind::BatchNorm:
        throw Error("TorchScript export: batch norm '" + l.name + "' was not folded");
      case LayerKind::Relu:
        src << out << "torch.relu(" << a << ")\n";
        break;
      case LayerKind::Tanh:
        src << out << "torch.tanh(" << a << ")\n";
        break;
      case LayerKind::Softplus:
        src << out << "torch.softplus(" << a << ", 1, 20)\n";
        break;
      case LayerKind::Add:
        src << out << a << " + " << b << "\n";
        break;
      case LayerKind::GlobalPool:
        src << out << "torch.cat([torch.mean(" << a << ", [2, 3]), torch.amax(" << a
            << ", [2, 3])], 1)\n";
        break;
      case LayerKind::ChannelBias:
        src << out << a << " + " << b << ".unsqueeze(2).unsqueeze(3)\n";
        break;
      case LayerKind::Flatten:
        src << out << "torch.flatten(" << a << ", 1)\n";
        break;
      case LayerKind::Linear:
        src << out << "torch.matmul(" << a << ", " << param(l.name + ".weight") << ".t()) + "
            << param(l.name + ".bias") << "\n";
        break;
      case LayerKind::Gather: {
        std::string attr = l.name + "_index";
        for (char& c : attr)
          if (c == '.') c = '_';
        m.register_buffer(attr, torch::tensor(l.index, torch::kLong));
        src << out << "torch.index_select(torch.flatten(" << a << ", 1), 1, self." << attr << ")\n";
        break;
      }
      case LayerKind::WdlValues:
        src << out << "torch.softmax(" << a << ", 1)\n";
        src << out << var(int(i)) << "[:, 0] - " << var(int(i)) << "[:, 2]\n";
        src << out << "torch.stack([" << var(int(i)) << ", -" << var(int(i)) << "], 1)\n";
        break;
    }
  }
  src << "    return ";
  for (size_t k = 0; k < g.outputs.size(); ++k) src << (k ? ", " : "") << var(g.outputs[k].layer);
  src << "\n";
  return src.str();
}

// The positions of a golden set: seeded random games cut after a random number of plies.
std::vector<std::unique_ptr<GameState>> random_positions(const Game& game, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::unique_ptr<GameState>> out;
  while (int(out.size()) < n) {
    auto s = game.new_state();
    const int plies = int(rng() % 120);
    for (int p = 0; p < plies && !s->is_terminal(); ++p) {
      const auto& legal = s->legal_actions();
      s->apply(legal[rng() % legal.size()]);
    }
    if (s->is_terminal()) s->undo();
    out.push_back(std::move(s));
  }
  return out;
}

void write_floats(const std::string& path, const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kCPU, torch::kFloat).contiguous();
  write_file_atomically(
      path, std::string(static_cast<const char*>(c.data_ptr()), size_t(c.nbytes())), "golden file");
}

}  // namespace

void export_torchscript(PolicyValueNet& model, const Game& game, const std::string& path) {
  torch::jit::Module m("VzeroNet");
  const auto [graph, weights] = folded(model);
  const std::string src = torchscript_source(graph, weights, m);
  const ExportInfo info = export_info(game, model->config, graph);
  const ModelIdentity& id = info.identity;
  std::vector<std::string> layout = info.planes, outputs;
  for (const std::string& s : info.scalars) layout.push_back("scalar: " + s);
  for (const NetworkOutput& o : info.outputs) outputs.push_back(o.name);
  m.register_attribute("variant", c10::StringType::get(), id.variant);
  m.register_attribute("rules_hash", c10::StringType::get(), hash_hex(id.rules_hash));
  m.register_attribute("encoding_hash", c10::StringType::get(), hash_hex(id.encoding_hash));
  m.register_attribute("encoding_version", c10::IntType::get(), int64_t(EncodingSpec::kVersion));
  m.register_attribute("input_shape", c10::ListType::ofInts(),
                       c10::List<int64_t>({id.channels, id.height, id.width}));
  m.register_attribute("input_planes", c10::ListType::ofStrings(), string_list(layout));
  m.register_attribute("actions", c10::ListType::ofStrings(), string_list(info.actions));
  m.register_attribute("players", c10::IntType::get(), int64_t(id.players));
  m.register_attribute("outputs", c10::ListType::ofStrings(), string_list(outputs));
  m.register_attribute("values", c10::StringType::get(), graph.outputs[1].meaning);
  m.register_attribute("model_config", c10::StringType::get(), info.model_config);
  m.register_attribute("vzero_version", c10::StringType::get(), std::string(vzero_version()));
  try {
    m.define(src);
    write_file_durably(path, [&](const std::string& tmp) { m.save(tmp); });
  } catch (const c10::Error& err) {
    throw Error("cannot export to '" + path + "': " + err.what_without_backtrace());
  } catch (const Error& err) {
    throw Error("cannot export to '" + path + "': " + err.what());
  }
}

void export_onnx(PolicyValueNet& model, const Game& game, const std::string& path,
                 const std::string& sidecar_path) {
  const auto [graph, weights] = folded(model);
  const ExportInfo info = export_info(game, model->config, graph);
  write_onnx(graph, weights, export_metadata(info), "vzero_" + info.identity.variant, path);
  write_sidecar(info, sidecar_path);
}

std::function<NetOutput(const torch::Tensor&)> frozen_forward(const NetworkGraph& g,
                                                              const Weights& weights,
                                                              const torch::Device& device) {
  std::vector<std::string> names;
  for (const NetworkOutput& o : g.outputs) names.push_back(o.name);
  std::shared_ptr<torch::jit::Module> frozen;
  try {
    torch::jit::Module m("VzeroFrozen");
    m.define(torchscript_source(g, weights, m));
    m.to(device);
    m.eval();
    torch::jit::Module f = torch::jit::freeze(m);
    frozen = std::make_shared<torch::jit::Module>(torch::jit::optimize_for_inference(f));
    // The first calls profile the graph and build oneDNN's kernels (tens of ms): here, at
    // load, rather than in a first search (batch 8, the searches' default).
    c10::InferenceMode guard;
    for (int i = 0; i < 2; ++i)
      frozen->forward({torch::zeros({8, g.channels, g.height, g.width}).to(device)});
  } catch (const c10::Error& err) {
    throw Error(std::string("cannot compile the frozen form: ") + err.what_without_backtrace());
  }
  return [frozen, names](const torch::Tensor& x) {
    const c10::IValue y = frozen->forward({x});
    NetOutput out;
    const auto& parts = y.toTupleRef().elements();
    for (size_t k = 0; k < names.size(); ++k) out.at(names[k]) = parts[k].toTensor();
    return out;
  };
}

namespace {

// The network inputs of states in encoding `version` (0: the newest).
torch::Tensor encode_states(const Game& game, const std::vector<std::unique_ptr<GameState>>& states,
                            int plies_cap, int version) {
  version = resolved_encoding(game, version);
  const EncodingSpec& e = game.encoding(version);
  const int64_t n = int64_t(states.size());
  torch::Tensor x = torch::empty({n, e.channels(), e.height, e.width});
  std::vector<uint8_t> planes(size_t(e.planes) * e.plane_size());
  std::vector<float> scalars(size_t(e.scalars));
  for (int64_t i = 0; i < n; ++i) {
    states[size_t(i)]->encode(planes.data(), scalars.data(), plies_cap, version);
    expand_input(e, planes.data(), scalars.data(),
                 x.data_ptr<float>() + size_t(i) * e.channels() * e.plane_size());
  }
  return x;
}

}  // namespace

torch::Tensor golden_inputs(const Game& game, int n, uint64_t seed, int plies_cap, int encoding) {
  return encode_states(game, random_positions(game, n, seed), plies_cap, encoding);
}

void write_golden(PolicyValueNet& model, const Game& game, int positions, uint64_t seed,
                  const std::string& dir) {
  check(positions > 0, "a golden set needs at least one position");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create golden folder '" + dir + "': " + ec.message());
  const auto states = random_positions(game, positions, seed);
  const torch::Tensor x = encode_states(game, states, 0, model->identity.encoding);
  nlohmann::ordered_json fens = nlohmann::ordered_json::array(),
                         legal = nlohmann::ordered_json::array();
  for (int i = 0; i < positions; ++i) {
    const GameState& s = *states[size_t(i)];
    fens.push_back(s.fen());
    std::vector<std::string> texts;
    for (int a : s.legal_actions()) texts.push_back(s.action_to_text(a));
    legal.push_back(texts);
  }
  torch::NoGradGuard no_grad;
  model->eval();
  model->to(torch::kCPU);
  NetOutput y = model->forward(x);
  nlohmann::ordered_json manifest;
  manifest["variant"] = game.id();
  manifest["positions"] = positions;
  manifest["seed"] = seed;
  manifest["input"] = {{"file", "input.bin"}, {"shape", x.sizes().vec()}};
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  write_floats(dir + "/input.bin", x);
  for (const NetworkOutput& o : model->graph.outputs) {
    const torch::Tensor& t = y.at(o.name);
    write_floats(dir + "/" + o.name + ".bin", t);
    outputs.push_back({{"name", o.name}, {"file", o.name + ".bin"}, {"shape", t.sizes().vec()}});
  }
  manifest["outputs"] = outputs;
  manifest["fens"] = fens;
  manifest["legal"] = legal;
  write_file_atomically(dir + "/manifest.json", manifest.dump(1) + "\n", "golden manifest");
}

}  // namespace vzero
