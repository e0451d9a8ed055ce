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

// C[rows x n_pad] = A[rows x K] B[K x n_pad], n_pad a multiple of 16; rows (<= kChunk) rounded
// up to the row block (A has kChunk rows, those past the chunk's tiles finite); sums in kSlice
// slices.
inline void chunk_product(const float* a, const float* b, float* c, int k_size, int n_pad,
                          int rows) {
  for (int col = 0; col < n_pad; col += 4 * kLanes) {
    const int nv = std::min(4, (n_pad - col) / kLanes);
    for (int k0 = 0; k0 < k_size; k0 += kSlice) {
      const int kn = std::min(kSlice, k_size - k0);
      const bool add = k0 > 0;
      const float* ap = a + k0;
      const float* bp = b + size_t(k0) * size_t(n_pad) + col;
      float* cp = c + col;
      switch (nv) {
        case 4:
          for (int r = 0; r < rows; r += 6)
            micro_kernel<6, 4>(ap + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, kn, add);
          break;
        case 3:
          for (int r = 0; r < rows; r += 8)
            micro_kernel<8, 3>(ap + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, kn, add);
          break;
        case 2:
          for (int r = 0; r < rows; r += 8)
            micro_kernel<8, 2>(ap + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, kn, add);
          break;
        default:
          for (int r = 0; r < rows; r += 8)
            micro_kernel<8, 1>(ap + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, kn, add);
          break;
      }
    }
  }
}

}  // namespace vzero::blocked
