// The winograd inference form: 3x3 convolutions as Winograd minimal filtering
// over NHWC activations (LibTorch's channels-last tensors), in chunks of tiles
// small enough to stay in the core's cache.
#include "net/winograd.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>

#include "net/blocked_product.h"
#include "net/dense.h"
#include "util/error.h"

namespace vzero {

namespace {

using namespace blocked;

// |x|, at compile time.
constexpr double magnitude(double x) { return x < 0 ? -x : x; }

// The Cook-Toom matrices of F(m, 3), m = A - 2, on the points 0, 1, -1, 1/2, -2 (the first A - 1
// of them; -2 rather than -1/2 halves F(4, 3)'s rounding error) and infinity: y = A^T [(G g) .*
// (B^T d)] is the correlation of the 3 taps g with the A inputs d. The linear convolution s = g * h
// (h of m entries) is C [(G g) .* (E h)], E evaluating h at the points, C interpolating s from its
// values there and its leading coefficient; the correlation is its transpose, so B^T = C^T and A^T
// = E^T. Computed at compile time, so the transforms skip the zeros.
template <int A>
struct CookToom {
  static constexpr int m = A - 2, n = A - 1;  // output tile, finite points
  double at[m][A] = {}, g[A][3] = {}, bt[A][A] = {};

  constexpr CookToom() {
    const double points[5] = {0.0, 1.0, -1.0, 0.5, -2.0};
    double power[n][n + 1] = {};  // power[j][i] = points[j]^i
    for (int j = 0; j < n; ++j) {
      power[j][0] = 1.0;
      for (int i = 1; i <= n; ++i) power[j][i] = power[j][i - 1] * points[j];
    }
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) at[i][j] = power[j][i];
      for (int k = 0; k < 3; ++k) g[j][k] = power[j][k];
    }
    at[m - 1][n] = 1.0;  // infinity: the leading coefficients
    g[n][2] = 1.0;
    // The inverse of the Vandermonde matrix power[.][0..n) (Gauss-Jordan; distinct points).
    double v[n][n] = {}, inv[n][n] = {};
    for (int j = 0; j < n; ++j) {
      inv[j][j] = 1.0;
      for (int i = 0; i < n; ++i) v[j][i] = power[j][i];
    }
    for (int c = 0; c < n; ++c) {
      int pivot = c;
      for (int r = c + 1; r < n; ++r)
        if (magnitude(v[r][c]) > magnitude(v[pivot][c])) pivot = r;
      for (int k = 0; k < n; ++k) {
        const double t1 = v[c][k], t2 = inv[c][k];
        v[c][k] = v[pivot][k];
        inv[c][k] = inv[pivot][k];
        v[pivot][k] = t1;
        inv[pivot][k] = t2;
      }
      const double d = v[c][c];
      for (int k = 0; k < n; ++k) {
        v[c][k] /= d;
        inv[c][k] /= d;
      }
      for (int r = 0; r < n; ++r) {
        const double f = v[r][c];
        if (r == c || f == 0.0) continue;
        for (int k = 0; k < n; ++k) {
          v[r][k] -= f * v[c][k];
          inv[r][k] -= f * inv[c][k];
        }
      }
    }
    // C: the low coefficients from the values less the leading term's; the leading one as is.
    double c[A][A] = {};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        c[i][j] = inv[i][j];
        c[i][n] -= inv[i][j] * power[j][n];
      }
    c[n][n] = 1.0;
    for (int i = 0; i < A; ++i)
      for (int j = 0; j < A; ++j) bt[i][j] = c[j][i];
    // Each row of B^T scaled to small integers (its smallest entry to 1), G's row by the inverse:
    // the same product, with an input transform of additions.
    for (int j = 0; j < A; ++j) {
      double smallest = 0.0;
      for (int k = 0; k < A; ++k)
        if (bt[j][k] != 0.0 && (smallest == 0.0 || magnitude(bt[j][k]) < smallest))
          smallest = magnitude(bt[j][k]);
      for (int k = 0; k < A; ++k) bt[j][k] /= smallest;
      for (int k = 0; k < 3; ++k) g[j][k] *= smallest;
    }
  }
};

template <int A>
constexpr CookToom<A> kCookToom{};

// One 3x3 convolution (stride 1, padding 1) with its weights transformed.
struct WinogradConv {
  int cin = 0, cout = 0, cin_pad = 0, cout_pad = 0;  // channels, and rounded up to 16
  std::vector<float> u;     // [a * a][cin_pad x cout_pad, packed]: G g G^T of each channel pair
  std::vector<float> bias;  // [cout]

  template <int A>
  WinogradConv(const CookToom<A>& t, const FloatTensor& weight, const FloatTensor* b) {
    cout = int(weight.shape[0]);
    cin = int(weight.shape[1]);
    cin_pad = (cin + kLanes - 1) / kLanes * kLanes;
    cout_pad = (cout + kLanes - 1) / kLanes * kLanes;
    constexpr int a = A;
    u.assign(size_t(a * a) * size_t(cin_pad) * size_t(cout_pad), 0.0f);
    bias.assign(size_t(cout), 0.0f);
    if (b) std::copy(b->data.begin(), b->data.end(), bias.begin());
    for (int o = 0; o < cout; ++o)
      for (int i = 0; i < cin; ++i) {
        const float* w = weight.data.data() + (size_t(o) * size_t(cin) + size_t(i)) * 9;
        // G w G^T in double.
        for (int x = 0; x < a; ++x)
          for (int y = 0; y < a; ++y) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k)
              for (int l = 0; l < 3; ++l) s += t.g[x][k] * double(w[k * 3 + l]) * t.g[y][l];
            u[size_t(x * a + y) * size_t(cin_pad) * size_t(cout_pad) +
              packed_index(i, o, cin_pad, cout_pad)] = float(s);
          }
      }
  }
};

// The sum of c[k] * term(k) (and start) over the nonzero c[k]: c is known at compile time, so
// its zeros cost nothing and its ones no multiplication.
template <int K, class Term>
inline Vec weighted_sum(const double (&c)[K], Term term, Vec start = Vec{}) {
#pragma GCC unroll 8
  for (int k = 0; k < K; ++k)
    if (c[k] != 0.0) start += float(c[k]) * term(k);
  return start;
}

// The input transform of one tile and 16 channels: v[xi * stride] = (B^T d B)[xi], d the
// tile's a x a pixels (patch: pointers to their first channel, zeros off the board).
template <int A>
inline void input_tile(const float* const* patch, int n, float* v, size_t stride) {
  constexpr const auto& bt = kCookToom<A>.bt;
  Vec d[A][A], t[A][A];
#pragma GCC unroll 8
  for (int i = 0; i < A; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < A; ++j) d[i][j] = load(patch[i * A + j], n);
#pragma GCC unroll 8
  for (int i = 0; i < A; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < A; ++j) t[i][j] = weighted_sum(bt[i], [&](int k) { return d[k][j]; });
#pragma GCC unroll 8
  for (int i = 0; i < A; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < A; ++j)
      *reinterpret_cast<VecU*>(v + size_t(i * A + j) * stride) =
          weighted_sum(bt[j], [&](int l) { return t[i][l]; });
}

// The output transform of one tile and 16 channels: y = A^T o A (o[xi] at o + xi * stride), plus
// bias, residual and ReLU, stored where on the board (pixel: each output pixel's first channel,
// null off the board; residual likewise).
template <int A>
inline void output_tile(const float* o, size_t stride, const Vec& bias, float* const* pixel,
                        const float* const* residual, bool relu, int n) {
  constexpr int M = A - 2;
  constexpr const auto& at = kCookToom<A>.at;
  Vec t[M][A];
#pragma GCC unroll 8
  for (int i = 0; i < M; ++i)
#pragma GCC unroll 8
    for (int l = 0; l < A; ++l)
      t[i][l] = weighted_sum(at[i], [&](int k) {
        return Vec(*reinterpret_cast<const VecU*>(o + size_t(k * A + l) * stride));
      });
#pragma GCC unroll 8
  for (int i = 0; i < M; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < M; ++j) {
      float* dst = pixel[i * M + j];
      if (!dst) continue;
      Vec sum = weighted_sum(
          at[j], [&](int l) { return t[i][l]; }, bias);
      if (residual) sum += load(residual[i * M + j], n);
      if (relu) sum = sum > 0.0f ? sum : Vec{};
      store(dst, sum, n);
    }
}

// The per-thread working memory of one chunk.
struct Scratch {
  std::vector<float> v, o, zeros;
  void fit(size_t v_size, size_t o_size, size_t zeros_size) {
    if (v.size() < v_size) v.resize(v_size);
    if (o.size() < o_size) o.resize(o_size);
    if (zeros.size() < zeros_size) zeros.resize(zeros_size, 0.0f);
  }
};

struct Plan {
  int a;  // the input tile: the output tile + 2

  // The transformed weights of a 3x3 convolution.
  std::unique_ptr<WinogradConv> transform(const FloatTensor& weight, const FloatTensor* b) const {
    switch (a) {
      case 4:
        return std::make_unique<WinogradConv>(kCookToom<4>, weight, b);
      case 5:
        return std::make_unique<WinogradConv>(kCookToom<5>, weight, b);
      default:
        return std::make_unique<WinogradConv>(kCookToom<6>, weight, b);
    }
  }

  // y = relu?(conv(x) + bias + residual?) for NHWC x [batch, height, width, cin].
  void run(const WinogradConv& conv, const float* x, int batch, int height, int width,
           const float* residual, bool relu, float* y) const {
    switch (a) {
      case 4:
        return run<4>(conv, x, batch, height, width, residual, relu, y);
      case 5:
        return run<5>(conv, x, batch, height, width, residual, relu, y);
      default:
        return run<6>(conv, x, batch, height, width, residual, relu, y);
    }
  }
  template <int A>
  void run(const WinogradConv& conv, const float* x, int batch, int height, int width,
           const float* residual, bool relu, float* y) const;
};

template <int A>
void Plan::run(const WinogradConv& conv, const float* x, int batch, int height, int width,
               const float* residual, bool relu, float* y) const {
  constexpr int M = A - 2, AA = A * A;
  const int th = (height + M - 1) / M, tw = (width + M - 1) / M;
  const int64_t tiles = int64_t(batch) * th * tw;
  const int64_t chunks = (tiles + kChunk - 1) / kChunk;
  const int cin = conv.cin, cout = conv.cout, kp = conv.cin_pad, np = conv.cout_pad;
  at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    thread_local Scratch s;
    // The a * a blocks of v and o lie a cache line more than their size apart: at a multiple of
    // 4 KiB all of a tile's entries would share one set of the L1 cache.
    const size_t v_stride = kChunk * size_t(kp) + kLanes, o_stride = kChunk * size_t(np) + kLanes;
    s.fit(size_t(AA) * v_stride, size_t(AA) * o_stride, size_t(kp));
    for (int64_t chunk = begin; chunk < end; ++chunk) {
      const int64_t first = chunk * kChunk;
      const int n = int(std::min<int64_t>(kChunk, tiles - first));
      // Input transform: v[xi][row][channel]; the product reads rows up to the next row block
      // (of 6 or 8), so a last chunk zeroes at most 7 rows past its tiles.
      for (int row = 0; row < std::min(kChunk, n + 7); ++row) {
        float* v = s.v.data() + size_t(row) * size_t(kp);
        if (row >= n) {  // padding rows of the last chunk
          for (int xi = 0; xi < AA; ++xi) std::fill_n(v + size_t(xi) * v_stride, kp, 0.0f);
          continue;
        }
        const int64_t tile = first + row;
        const int b = int(tile / (th * tw)), ty = int(tile / tw % th), tx = int(tile % tw);
        const float* patch[AA];
        for (int i = 0; i < A; ++i)
          for (int j = 0; j < A; ++j) {
            const int h = ty * M - 1 + i, w = tx * M - 1 + j;
            patch[i * A + j] = h >= 0 && h < height && w >= 0 && w < width
                                   ? x + ((size_t(b) * height + h) * width + w) * size_t(cin)
                                   : s.zeros.data();
          }
        for (int c = 0; c < kp; c += kLanes) {
          const float* shifted[AA];
          for (int k = 0; k < AA; ++k)
            shifted[k] = patch[k] == s.zeros.data() ? patch[k] : patch[k] + c;
          input_tile<A>(shifted, std::min(kLanes, cin - c), v + c, v_stride);
        }
      }
      // The a * a products of the chunk's transformed inputs and the transformed weights.
      for (int xi = 0; xi < AA; ++xi)
        chunk_product(s.v.data() + size_t(xi) * v_stride,
                      conv.u.data() + size_t(xi) * size_t(kp) * size_t(np),
                      s.o.data() + size_t(xi) * o_stride, kp, np, n);
      // Output transform: y = A^T o A + bias (+ residual, ReLU) where on the board.
      for (int row = 0; row < n; ++row) {
        const int64_t tile = first + row;
        const int b = int(tile / (th * tw)), ty = int(tile / tw % th), tx = int(tile % tw);
        float* pixel[M * M];
        const float* res[M * M];
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < M; ++j) {
            const int h = ty * M + i, w = tx * M + j;
            const bool on = h < height && w < width;
            const size_t at_pixel = ((size_t(b) * height + h) * width + w) * size_t(cout);
            pixel[i * M + j] = on ? y + at_pixel : nullptr;
            res[i * M + j] = on && residual ? residual + at_pixel : nullptr;
          }
        for (int c = 0; c < np; c += kLanes) {
          const int valid = std::min(kLanes, cout - c);
          float* dst[M * M];
          const float* r[M * M];
          for (int k = 0; k < M * M; ++k) {
            dst[k] = pixel[k] ? pixel[k] + c : nullptr;
            r[k] = res[k] ? res[k] + c : nullptr;
          }
          output_tile<A>(s.o.data() + size_t(row) * size_t(np) + c, o_stride,
                         load(conv.bias.data() + c, valid), dst, residual ? r : nullptr, relu,
                         valid);
        }
      }
    }
  });
}

// The folded layer list run with its 3x3 convolutions through Plan.
struct WinogradNet {
  NetworkGraph g;
  std::unique_ptr<Plan> plan;
  std::vector<std::unique_ptr<WinogradConv>> conv;  // by layer: the 3x3 convolutions
  std::vector<std::unique_ptr<DenseLayer>> dense;   // by layer: linear layers, 1x1 convolutions
  std::vector<torch::Tensor> weight, bias;          // the other convolutions; Gather's index
  std::vector<int> residual;    // a 3x3 convolution: the layer whose output it adds (-2: none)
  std::vector<bool> relu;       // a convolution: a ReLU follows, fused
  std::vector<int> fused_into;  // a layer computed inside a convolution: its input that holds
                                // the same output (else -1)
  std::vector<int> last_use;

  NetOutput operator()(const torch::Tensor& x) const;
};

NetOutput WinogradNet::operator()(const torch::Tensor& input) const {
  torch::NoGradGuard no_grad;
  check(input.dim() == 4 && input.size(1) == g.channels && input.size(2) == g.height &&
            input.size(3) == g.width && input.device().is_cpu(),
        "winograd form: the input must be [batch, " + std::to_string(g.channels) + " channels, " +
            std::to_string(g.height) + ", " + std::to_string(g.width) + "] on the CPU");
  const torch::Tensor x = input.to(torch::kFloat);
  std::vector<torch::Tensor> t(g.layers.size());
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& l = g.layers[i];
    const auto in = [&](int k) -> const torch::Tensor& {
      return l.inputs[size_t(k)] == kNetworkInput ? x : t[size_t(l.inputs[size_t(k)])];
    };
    if (fused_into[i] >= 0)
      t[i] = t[size_t(fused_into[i])];  // computed inside a convolution
    else
      switch (l.kind) {
        case LayerKind::Conv:
          if (conv[i]) {
            const torch::Tensor a = in(0).contiguous(torch::MemoryFormat::ChannelsLast);
            const int64_t batch = a.size(0), height = a.size(2), width = a.size(3);
            torch::Tensor res;
            if (residual[i] != -2)
              res = (residual[i] == kNetworkInput ? x : t[size_t(residual[i])])
                        .contiguous(torch::MemoryFormat::ChannelsLast);
            torch::Tensor out = torch::empty({batch, l.out, height, width},
                                             torch::TensorOptions().dtype(torch::kFloat))
                                    .contiguous(torch::MemoryFormat::ChannelsLast);
            plan->run(*conv[i], a.data_ptr<float>(), int(batch), int(height), int(width),
                      res.defined() ? res.data_ptr<float>() : nullptr, relu[i],
                      out.data_ptr<float>());
            t[i] = out;
          } else if (dense[i]) {
            t[i] = dense[i]->pointwise(in(0), relu[i]);
          } else {
            t[i] = torch::conv2d(in(0), weight[i], bias[i], 1, l.kernel / 2);
          }
          break;
        case LayerKind::BatchNorm:
          throw Error("winograd form: batch norm '" + l.name + "' was not folded");
        case LayerKind::Linear:
          t[i] = dense[i]->linear(in(0));
          break;
        case LayerKind::Gather:
          t[i] = in(0).flatten(1).index_select(1, weight[i]);
          break;
        default:
          t[i] = weightless_layer(l, in(0), l.inputs.size() > 1 ? in(1) : torch::Tensor());
      }
    for (int k : l.inputs)
      if (k != kNetworkInput && last_use[size_t(k)] == int(i)) t[size_t(k)] = torch::Tensor();
  }
  NetOutput o;
  for (const NetworkOutput& n : g.outputs) o.at(n.name) = t[size_t(n.layer)].contiguous();
  return o;
}

}  // namespace

int winograd_tile(int height, int width) {
  int best = 2;
  int64_t best_cost = -1;
  for (int m = 2; m <= 4; ++m) {
    const int64_t cost = int64_t((height + m - 1) / m) * ((width + m - 1) / m) * (m + 2) * (m + 2);
    if (best_cost < 0 || cost < best_cost) {
      best = m;
      best_cost = cost;
    }
  }
  return best;
}

std::function<NetOutput(const torch::Tensor&)> winograd_forward(const NetworkGraph& g,
                                                                const Weights& w) {
  auto net = std::make_shared<WinogradNet>();
  net->g = g;
  net->plan = std::make_unique<Plan>(Plan{winograd_tile(g.height, g.width) + 2});
  const size_t n = g.layers.size();
  net->conv.resize(n);
  net->dense.resize(n);
  net->weight.resize(n);
  net->bias.resize(n);
  net->residual.assign(n, -2);
  net->relu.assign(n, false);
  net->fused_into.assign(n, -1);
  net->last_use = g.last_uses();
  // Who reads each layer (an output counts as a reader that is not a layer).
  std::vector<std::vector<int>> readers(n);
  for (size_t i = 0; i < n; ++i)
    for (int k : g.layers[i].inputs)
      if (k != kNetworkInput) readers[size_t(k)].push_back(int(i));
  for (const NetworkOutput& o : g.outputs) readers[size_t(o.layer)].push_back(-1);
  const auto only_reader = [&](size_t layer, LayerKind kind) {
    return readers[layer].size() == 1 && readers[layer][0] >= 0 &&
           g.layers[size_t(readers[layer][0])].kind == kind;
  };
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = g.layers[i];
    if (l.kind == LayerKind::Conv && l.kernel == 3) {
      net->conv[i] = net->plan->transform(w.at(l.name + ".weight"),
                                          l.bias ? &w.at(l.name + ".bias") : nullptr);
      size_t last = i;  // the last layer computed inside this convolution
      if (only_reader(i, LayerKind::Add)) {
        const size_t add = size_t(readers[i][0]);
        const Layer& a = g.layers[add];
        const int other = a.inputs[0] == int(i) ? a.inputs[1] : a.inputs[0];
        if (a.inputs[0] != a.inputs[1] && other < int(i)) {  // computed before the convolution
          net->residual[i] = other;
          net->fused_into[add] = int(i);
          last = add;
        }
      }
      if (only_reader(last, LayerKind::Relu)) {
        net->relu[i] = true;
        net->fused_into[size_t(readers[last][0])] = int(last);
      }
    } else if (l.kind == LayerKind::Linear) {
      net->dense[i] =
          std::make_unique<DenseLayer>(w.at(l.name + ".weight"), &w.at(l.name + ".bias"));
    } else if (l.kind == LayerKind::Conv && l.kernel == 1) {
      net->dense[i] = std::make_unique<DenseLayer>(w.at(l.name + ".weight"),
                                                   l.bias ? &w.at(l.name + ".bias") : nullptr);
      if (only_reader(i, LayerKind::Relu)) {
        net->relu[i] = true;
        net->fused_into[size_t(readers[i][0])] = int(i);
      }
    } else if (l.kind == LayerKind::Conv) {
      net->weight[i] = tensor_of(w.at(l.name + ".weight"));
      if (l.bias) net->bias[i] = tensor_of(w.at(l.name + ".bias"));
    } else if (l.kind == LayerKind::Gather) {
      net->weight[i] = torch::tensor(l.index, torch::kLong);
    }
  }
  return [net](const torch::Tensor& x) { return (*net)(x); };
}

}  // namespace vzero
