// The int8 inference form: quantized convolutions through LibTorch's
// quantized operators (called through the dispatcher, boxed).
#include "net/quantized.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "net/dense.h"
#include "util/error.h"

namespace vzero {

namespace {

// The quantized operators used, found once.
struct Ops {
  c10::OperatorHandle conv, conv_relu, add, add_relu, prepack;
  static const Ops& get() {
    static const Ops ops = [] {
      c10::Dispatcher& d = c10::Dispatcher::singleton();
      return Ops{d.findSchemaOrThrow("quantized::conv2d", "new"),
                 d.findSchemaOrThrow("quantized::conv2d_relu", "new"),
                 d.findSchemaOrThrow("quantized::add", ""),
                 d.findSchemaOrThrow("quantized::add_relu", ""),
                 d.findSchemaOrThrow("quantized::conv2d_prepack", "")};
    }();
    return ops;
  }
};

// The result of operator op called with args.
c10::IValue call(const c10::OperatorHandle& op, std::vector<c10::IValue> args) {
  std::vector<c10::IValue> stack(std::move(args));
  op.callBoxed(&stack);
  return stack.front();
}

// An affine quint8 scale and zero point covering [lo, hi] (and 0).
struct QParams {
  double scale = 1.0;
  int64_t zero_point = 0;
};
QParams covering(float lo, float hi) {
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  const double scale = std::max(double(hi - lo) / 255.0, 1e-8);
  return {scale, std::clamp<int64_t>(std::llround(-lo / scale), 0, 255)};
}

// x as a quint8 tensor of p: round(x / scale) + zero point, clamped to [0, 255], as LibTorch's
// quantize_per_tensor computes it, but in vectorised tensor operations (this LibTorch quantizes
// one value at a time: 3% of int8 self-play).
torch::Tensor to_quint8(const torch::Tensor& x, const QParams& p) {
  const float inverse = float(1.0 / p.scale);
  const torch::Tensor q =
      (x.contiguous() * inverse).round_().add_(float(p.zero_point)).clamp_(0.0f, 255.0f);
  return torch::_make_per_tensor_quantized_tensor(q.to(torch::kByte), p.scale, p.zero_point);
}

struct Int8Net {
  NetworkGraph g;
  std::vector<torch::Tensor> weight, bias;         // fp32 convolution parameters by layer (for
                                                   // calibration), Gather's index
  std::vector<std::shared_ptr<DenseLayer>> dense;  // the linear layers (fp32)
  std::vector<bool> fused;      // Conv/Add: the ReLU that alone reads it runs inside it
  std::vector<int> fused_into;  // Relu fused into its input: that layer (else -1)
  std::vector<bool> quantized;  // the layer's output is a quint8 tensor
  std::vector<QParams> out;     // quantized outputs: their scale and zero point
  std::vector<std::pair<float, float>> range;  // each layer's calibrated fp32 output range
  std::pair<float, float> input_range;         // the calibration inputs' range
  std::vector<int> last_use;

  // The convolutions' int8 weights packed for the engine (by layer), on the calling thread.
  std::vector<c10::IValue> pack() const;
  // Every layer's output for x: with packed, the int8 plan; without, fp32 with the ranges
  // recorded (calibration).
  NetOutput run(const torch::Tensor& x, const std::vector<c10::IValue>* packed);
};

NetOutput Int8Net::run(const torch::Tensor& x, const std::vector<c10::IValue>* packed) {
  const bool quantize = packed != nullptr;
  std::vector<torch::Tensor> t(g.layers.size());
  if (!quantize) input_range = {x.min().item<float>(), x.max().item<float>()};
  const auto fp32 = [](const torch::Tensor& v) { return v.is_quantized() ? v.dequantize() : v; };
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& l = g.layers[i];
    const auto in = [&](int k) -> const torch::Tensor& {
      return l.inputs[size_t(k)] == kNetworkInput ? x : t[size_t(l.inputs[size_t(k)])];
    };
    const bool q = quantize && quantized[i];
    switch (l.kind) {
      case LayerKind::Conv:
        if (q) {
          torch::Tensor a = in(0);
          if (!a.is_quantized()) {
            const int src = l.inputs[0];
            const auto [lo, hi] = src == kNetworkInput ? input_range : range[size_t(src)];
            const QParams p = covering(lo, hi);
            a = to_quint8(a, p);
          }
          t[i] = call(fused[i] ? Ops::get().conv_relu : Ops::get().conv,
                      {a, (*packed)[i], out[i].scale, out[i].zero_point})
                     .toTensor();
        } else {
          t[i] = torch::conv2d(fp32(in(0)), weight[i], bias[i], 1, l.kernel / 2);
        }
        break;
      case LayerKind::BatchNorm:
        throw Error("int8 form: batch norm '" + l.name + "' was not folded");
      case LayerKind::Relu:
        t[i] = fused_into[i] >= 0 && quantize ? in(0) : torch::relu(in(0));
        break;
      case LayerKind::Add:
        if (q && in(0).is_quantized() && in(1).is_quantized())
          t[i] = call(fused[i] ? Ops::get().add_relu : Ops::get().add,
                      {in(0), in(1), out[i].scale, out[i].zero_point})
                     .toTensor();
        else
          t[i] = fp32(in(0)) + fp32(in(1));
        break;
      case LayerKind::Linear:
        t[i] = dense[i]->linear(fp32(in(0)));
        break;
      case LayerKind::Gather:
        t[i] = fp32(in(0)).flatten(1).index_select(1, weight[i]);
        break;
      default:
        t[i] =
            weightless_layer(l, fp32(in(0)), l.inputs.size() > 1 ? fp32(in(1)) : torch::Tensor());
    }
    if (!quantize) {
      const torch::Tensor v = fp32(t[i]);
      range[i] = {v.min().item<float>(), v.max().item<float>()};
    }
    for (int k : l.inputs)
      if (k != kNetworkInput && last_use[size_t(k)] == int(i)) t[size_t(k)] = torch::Tensor();
  }
  NetOutput o;
  for (const NetworkOutput& n : g.outputs) o.at(n.name) = fp32(t[size_t(n.layer)]);
  return o;
}

// Picks a quantized engine of this LibTorch: onednn (x86), else qnnpack.
void choose_engine() {
  const auto& engines = at::globalContext().supportedQEngines();
  for (at::QEngine e : {at::QEngine::ONEDNN, at::QEngine::QNNPACK})
    if (std::find(engines.begin(), engines.end(), e) != engines.end()) {
      at::globalContext().setQEngine(e);
      return;
    }
  throw Error("int8 form: this LibTorch has no quantized engine (onednn or qnnpack)");
}

// The int8 plan of folded layer list g: ranges calibrated, weights packed and run once.
std::shared_ptr<Int8Net> build_int8(const NetworkGraph& g, const Weights& w,
                                    const torch::Tensor& calibration) {
  auto net = std::make_shared<Int8Net>();
  net->g = g;
  const size_t n = g.layers.size();
  net->weight.resize(n);
  net->dense.resize(n);
  net->bias.resize(n);
  net->fused.assign(n, false);
  net->fused_into.assign(n, -1);
  net->quantized.assign(n, false);
  net->out.resize(n);
  net->range.resize(n);
  net->last_use = g.last_uses();
  // How many layers read each layer (an output counts as a reader).
  std::vector<int> readers(n, 0);
  for (const Layer& l : g.layers)
    for (int k : l.inputs)
      if (k != kNetworkInput) ++readers[size_t(k)];
  for (const NetworkOutput& o : g.outputs) ++readers[size_t(o.layer)];
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = g.layers[i];
    if (l.kind == LayerKind::Conv) {
      net->weight[i] = tensor_of(w.at(l.name + ".weight"));
      if (l.bias) net->bias[i] = tensor_of(w.at(l.name + ".bias"));
    }
    if (l.kind == LayerKind::Linear)
      net->dense[i] =
          std::make_shared<DenseLayer>(w.at(l.name + ".weight"), &w.at(l.name + ".bias"));
    if (l.kind == LayerKind::Gather) net->weight[i] = torch::tensor(l.index, torch::kLong);
    if (l.kind == LayerKind::Conv) net->quantized[i] = true;
    if (l.kind == LayerKind::Add)
      net->quantized[i] = l.inputs[0] != kNetworkInput && l.inputs[1] != kNetworkInput &&
                          net->quantized[size_t(l.inputs[0])] &&
                          net->quantized[size_t(l.inputs[1])];
    if (l.kind == LayerKind::Relu && l.inputs[0] != kNetworkInput) {
      const size_t src = size_t(l.inputs[0]);
      const LayerKind k = g.layers[src].kind;
      if (net->quantized[src] && (k == LayerKind::Conv || k == LayerKind::Add) &&
          readers[src] == 1) {
        net->fused[src] = true;
        net->fused_into[i] = int(src);
      }
      net->quantized[i] = net->quantized[src];
    }
  }
  torch::NoGradGuard no_grad;
  net->run(calibration, nullptr);  // the fp32 ranges
  choose_engine();
  for (size_t i = 0; i < n; ++i) {
    // A fused conv or add answers with its ReLU's range.
    size_t ranged = i;
    if (net->fused[i])
      for (size_t j = i + 1; j < n; ++j)
        if (net->fused_into[j] == int(i)) ranged = j;
    if (net->quantized[i])
      net->out[i] = covering(net->range[ranged].first, net->range[ranged].second);
  }
  for (size_t i = 0; i < n; ++i)  // a fused ReLU hands on its input's quantized output
    if (net->fused_into[i] >= 0) net->out[i] = net->out[size_t(net->fused_into[i])];
  try {  // this LibTorch refuses the model here or never
    const std::vector<c10::IValue> packed = net->pack();
    net->run(calibration.narrow(0, 0, std::min<int64_t>(2, calibration.size(0))), &packed);
  } catch (const c10::Error& err) {
    throw Error(std::string("int8 form: ") + err.what_without_backtrace());
  }
  return net;
}

std::vector<c10::IValue> Int8Net::pack() const {
  std::vector<c10::IValue> packed(g.layers.size());
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& l = g.layers[i];
    if (l.kind != LayerKind::Conv) continue;
    const torch::Tensor& wt = weight[i];
    const torch::Tensor scales =
        (wt.abs().amax({1, 2, 3}).to(torch::kDouble) / 127.0).clamp_min(1e-12);
    const torch::Tensor qw = torch::quantize_per_channel(
        wt, scales, torch::zeros({wt.size(0)}, torch::kLong), 0, torch::kQInt8);
    const int64_t pad = l.kernel / 2;
    packed[i] =
        call(Ops::get().prepack, {qw, bias[i].defined() ? c10::IValue(bias[i]) : c10::IValue(),
                                  std::vector<int64_t>{1, 1}, std::vector<int64_t>{pad, pad},
                                  std::vector<int64_t>{1, 1}, int64_t(1)});
  }
  return packed;
}

// One calibrated net run by many threads. LibTorch 1.13's oneDNN quantized convolution builds
// (JIT-compiles) a primitive for every input shape other than the first one its packed weights
// ran, and two inference workers doing so crashed within seconds (segfaults in oneDNN's kernel
// generation, bad_alloc, heap corruption), even one call at a time. So every thread and every
// batch size bucket (8, then multiples of 16) has its own packed weights, first run at that
// bucket's shape, and a batch is padded to its bucket: after warm-up no primitive is built.
struct Int8Runner {
  std::shared_ptr<Int8Net> net;  // run with packed weights only reads it
  std::mutex m;
  std::map<std::tuple<std::thread::id, int64_t>, std::shared_ptr<const std::vector<c10::IValue>>>
      packed;

  NetOutput operator()(const torch::Tensor& x) {
    const int64_t n = x.size(0);
    const int64_t bucket = n <= 8 ? 8 : (n + 15) / 16 * 16;
    const auto key = std::make_tuple(std::this_thread::get_id(), bucket);
    std::shared_ptr<const std::vector<c10::IValue>> mine;
    {
      std::lock_guard<std::mutex> lock(m);
      mine = packed[key];
    }
    std::vector<int64_t> shape = x.sizes().vec();
    shape[0] = bucket;
    if (!mine) {
      auto fresh = std::make_shared<std::vector<c10::IValue>>(net->pack());
      net->run(torch::zeros(shape), fresh.get());  // the shape its primitives keep
      mine = fresh;
      std::lock_guard<std::mutex> lock(m);
      packed[key] = mine;
    }
    const torch::Tensor padded =
        bucket == n ? x : torch::cat({x, torch::zeros({bucket - n, shape[1], shape[2], shape[3]})});
    NetOutput o = net->run(padded, mine.get());
    if (bucket != n)
      for (torch::Tensor* t : {&o.policy, &o.values, &o.wdl, &o.moves_left})
        if (t->defined()) *t = t->narrow(0, 0, n);
    return o;
  }
};

}  // namespace

std::function<NetOutput(const torch::Tensor&)> int8_forward(const NetworkGraph& g, const Weights& w,
                                                            const torch::Tensor& calibration) {
  auto runner = std::make_shared<Int8Runner>();
  runner->net = build_int8(g, w, calibration);
  return [runner](const torch::Tensor& x) { return (*runner)(x); };
}

}  // namespace vzero
