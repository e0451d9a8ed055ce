// Linear layers and 1x1 convolutions as blocked products of padded row blocks.
#include "net/dense.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstring>

#include "net/blocked_product.h"
#include "util/error.h"

namespace vzero {

using blocked::chunk_product;
using blocked::kChunk;
using blocked::kLanes;

DenseLayer::DenseLayer(const FloatTensor& weight, const FloatTensor* bias)
    : in_(int(weight.shape[1])),
      out_(int(weight.shape[0])),
      out_pad_((out_ + kLanes - 1) / kLanes * kLanes),
      wt_(size_t(in_) * size_t(out_pad_), 0.0f),
      bias_(bias ? bias->data : std::vector<float>(size_t(out_), 0.0f)) {
  for (int o = 0; o < out_; ++o)
    for (int i = 0; i < in_; ++i)
      wt_[blocked::packed_index(i, o, in_, out_pad_)] =
          weight.data[size_t(o) * size_t(in_) + size_t(i)];
}

void DenseLayer::run(const float* x, int64_t rows, bool relu, float* y) const {
  const int64_t blocks = (rows + kChunk - 1) / kChunk;
  at::parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
    thread_local std::vector<float> a, c;  // a block of x padded to whole row blocks; its product
    if (a.size() < size_t(kChunk) * size_t(in_)) a.resize(size_t(kChunk) * size_t(in_));
    if (c.size() < size_t(kChunk) * size_t(out_pad_)) c.resize(size_t(kChunk) * size_t(out_pad_));
    for (int64_t block = begin; block < end; ++block) {
      const int64_t first = block * kChunk;
      const int n = int(std::min<int64_t>(kChunk, rows - first));
      const int rounded = (n + 23) / 24 * 24;  // whole row blocks of 8 and of 6
      std::memcpy(a.data(), x + size_t(first) * size_t(in_),
                  sizeof(float) * size_t(n) * size_t(in_));
      std::fill(a.begin() + ptrdiff_t(n) * in_, a.begin() + ptrdiff_t(rounded) * in_, 0.0f);
      chunk_product(a.data(), wt_.data(), c.data(), in_, out_pad_, n);
      for (int r = 0; r < n; ++r) {
        const float* cr = c.data() + size_t(r) * size_t(out_pad_);
        float* yr = y + size_t(first + r) * size_t(out_);
        for (int o = 0; o < out_; ++o) {
          const float v = cr[o] + bias_[size_t(o)];
          yr[o] = relu && v < 0.0f ? 0.0f : v;
        }
      }
    }
  });
}

torch::Tensor DenseLayer::linear(const torch::Tensor& input) const {
  check(input.dim() == 2 && input.size(1) == in_,
        "dense layer: a linear layer of " + std::to_string(in_) + " inputs got another shape");
  const torch::Tensor x = input.to(torch::kFloat).contiguous();
  torch::Tensor y = torch::empty({x.size(0), out_}, torch::TensorOptions().dtype(torch::kFloat));
  run(x.data_ptr<float>(), x.size(0), false, y.data_ptr<float>());
  return y;
}

torch::Tensor DenseLayer::pointwise(const torch::Tensor& input, bool relu) const {
  check(input.dim() == 4 && input.size(1) == in_,
        "dense layer: a 1x1 convolution of " + std::to_string(in_) + " channels got another shape");
  const torch::Tensor x = input.to(torch::kFloat).contiguous(torch::MemoryFormat::ChannelsLast);
  torch::Tensor y = torch::empty({x.size(0), out_, x.size(2), x.size(3)},
                                 torch::TensorOptions().dtype(torch::kFloat))
                        .contiguous(torch::MemoryFormat::ChannelsLast);
  run(x.data_ptr<float>(), x.size(0) * x.size(2) * x.size(3), relu, y.data_ptr<float>());
  return y;
}

}  // namespace vzero
