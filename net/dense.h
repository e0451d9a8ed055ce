#pragma once
// Linear layers and 1x1 convolutions through our register-blocked product
// (net/blocked_product.h), for the winograd and int8 inference forms: for the
// few rows of a network head, LibTorch's linear (OpenBLAS here) and 1x1
// convolution (im2col) spend more on packing and dispatch than on products.
#include <torch/torch.h>

#include <vector>

#include "net/spec/model_graph.h"

namespace vzero {

class DenseLayer {
 public:
  // weight [out, in] (or a 1x1 convolution's [out, in, 1, 1]), bias [out] (null: none).
  DenseLayer(const FloatTensor& weight, const FloatTensor* bias);

  // y [rows, out] = relu?(x [rows, in] W^T + b), both row-major; rows split over the calling
  // thread's intra-op threads.
  void run(const float* x, int64_t rows, bool relu, float* y) const;
  // As a linear layer: y [batch, out] for x [batch, in] (float).
  torch::Tensor linear(const torch::Tensor& x) const;
  // As a 1x1 convolution: y [batch, out, height, width] channels-last for x [batch, in, height,
  // width] (float, any memory format).
  torch::Tensor pointwise(const torch::Tensor& x, bool relu) const;

 private:
  int in_ = 0, out_ = 0, out_pad_ = 0;
  std::vector<float> wt_;    // W^T [in x out_pad], zero past out, packed (blocked_product.h)
  std::vector<float> bias_;  // [out]
};

}  // namespace vzero
