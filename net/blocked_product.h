#pragma once
// The register-blocked matrix product of the winograd and dense layers
// (net/winograd.cpp, net/dense.cpp): GCC vector types of 16 floats, so one
// AVX-512 register where the build targets it. Internal to net/.
#include <algorithm>
#include <cstring>

namespace vzero::blocked {

// 16 floats: one AVX-512 register (two AVX ones, four SSE ones where the build's target has less).
typedef float Vec __attribute__((vector_size(64)));
typedef float VecU __attribute__((vector_size(64), aligned(4)));  // the same, unaligned
constexpr int kLanes = 16;

// v with every lane s.
inline Vec splat(float s) { return Vec{s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s}; }

// The first n (<= 16) floats at p, the rest 0.
inline Vec load(const float* p, int n) {
  if (n == kLanes) return *reinterpret_cast<const VecU*>(p);
  Vec v = Vec{};
  std::memcpy(&v, p, sizeof(float) * size_t(n));
  return v;
}

// Stores the first n (<= 16) lanes of v at p.
inline void store(float* p, const Vec& v, int n) {
  if (n == kLanes)
    *reinterpret_cast<VecU*>(p) = v;
  else
    std::memcpy(p, &v, sizeof(float) * size_t(n));
}

// C[R x 16 NV] = A[R x K] B[K x 16 NV] (row strides lda, ldb, ldc), accumulated in registers;
// with add, C += that product instead.
template <int R, int NV>
inline void micro_kernel(const float* __restrict a, int lda, const float* __restrict b, int ldb,
                         float* __restrict c, int ldc, int k_size, bool add) {
  Vec acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = Vec{};
  for (int k = 0; k < k_size; ++k) {
    Vec bk[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bk[v] = *reinterpret_cast<const VecU*>(b + k * ldb + v * kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const Vec ar = splat(a[r * lda + k]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] += ar * bk[v];
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      VecU* out = reinterpret_cast<VecU*>(c + r * ldc + v * kLanes);
      *out = add ? Vec(*out) + acc[r][v] : acc[r][v];
    }
}

// Rows per product block (a winograd chunk's tiles, a dense layer's rows): a multiple of both
// row blocks (8 and 6).
constexpr int kChunk = 48;

// The inner dimension of a product is summed in slices of this many terms, each slice's sum in
// registers, then added to C: two-level summation, with less rounding error than one long sum for
// one more pass over C a slice. The winograd form's transforms amplify that error: on the shipped
// Los Alamos model the policy logits come within 8.6e-6 of the float64 answer, against 1.4e-5 in
// one sum (LibTorch's fp32 layers: 7.6e-6; slices of 24: 1.0e-5; only the winograd products
// sliced: 1.0e-5), for about 8% of the winograd form's speed.
constexpr int kSlice = 16;

// Columns per panel of a packed B: the widest micro kernel's (4 registers).
constexpr int kPanel = 4 * kLanes;

// The largest panel (bytes) that a product keeps in the L1 cache across row blocks.
constexpr size_t kPanelInL1 = 24 * 1024;

// Where B[k][col] of a K x n_pad matrix lies in its packed form: panels of kPanel columns (the
// last one narrower), each K rows of its width in a row, so a product streams B in order.
inline size_t packed_index(int k, int col, int k_size, int n_pad) {
  const int first = col / kPanel * kPanel, width = std::min(kPanel, n_pad - first);
  return size_t(k_size) * size_t(first) + size_t(k) * size_t(width) + size_t(col - first);
}

// C[rows x n_pad] = A[rows x K] B[K x n_pad], B packed (packed_index), n_pad a multiple of 16;
// rows rounded up to the row block (A has those rows, the ones past the chunk's finite); sums in
// kSlice slices.
inline void chunk_product(const float* a, const float* b, float* c, int k_size, int n_pad,
                          int rows) {
  for (int col = 0; col < n_pad; col += kPanel) {
    const int width = std::min(kPanel, n_pad - col), nv = width / kLanes;
    const float* panel = b + size_t(k_size) * size_t(col);
    const int step = nv == 4 ? 6 : 8;  // the micro kernel's rows
    // One row block's slices.
    const auto row_block = [&](int r, int k0, int kn) {
      const float* ap = a + size_t(r) * size_t(k_size) + size_t(k0);
      const float* bp = panel + size_t(k0) * size_t(width);
      float* cp = c + size_t(r) * size_t(n_pad) + size_t(col);
      const bool add = k0 > 0;
      switch (nv) {
        case 4:
          return micro_kernel<6, 4>(ap, k_size, bp, width, cp, n_pad, kn, add);
        case 3:
          return micro_kernel<8, 3>(ap, k_size, bp, width, cp, n_pad, kn, add);
        case 2:
          return micro_kernel<8, 2>(ap, k_size, bp, width, cp, n_pad, kn, add);
        default:
          return micro_kernel<8, 1>(ap, k_size, bp, width, cp, n_pad, kn, add);
      }
    };
    if (size_t(k_size) * size_t(width) * sizeof(float) <= kPanelInL1) {
      // The panel stays in L1 while each row block sums all its slices.
      for (int r = 0; r < rows; r += step)
        for (int k0 = 0; k0 < k_size; k0 += kSlice) row_block(r, k0, std::min(kSlice, k_size - k0));
    } else {
      // A slice of the panel stays in L1 while every row block adds its product.
      for (int k0 = 0; k0 < k_size; k0 += kSlice)
        for (int r = 0; r < rows; r += step) row_block(r, k0, std::min(kSlice, k_size - k0));
    }
  }
}

}  // namespace vzero::blocked
