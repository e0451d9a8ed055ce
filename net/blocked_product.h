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

// C[R x 16 NV] = A[R x K] B[K x 16 NV] (row strides lda, ldb, ldc), accumulated in registers.
template <int R, int NV>
inline void micro_kernel(const float* __restrict a, int lda, const float* __restrict b, int ldb,
                         float* __restrict c, int ldc, int k_size) {
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
    for (int v = 0; v < NV; ++v) *reinterpret_cast<VecU*>(c + r * ldc + v * kLanes) = acc[r][v];
}

// Rows per product block (a winograd chunk's tiles, a dense layer's rows): a multiple of both
// row blocks (8 and 6).
constexpr int kChunk = 48;

// C[rows x n_pad] = A[rows x K] B[K x n_pad], n_pad a multiple of 16; rows (<= kChunk) rounded
// up to the row block (A has kChunk rows, those past the chunk's tiles 0).
inline void chunk_product(const float* a, const float* b, float* c, int k_size, int n_pad,
                          int rows) {
  for (int col = 0; col < n_pad; col += 4 * kLanes) {
    const int nv = std::min(4, (n_pad - col) / kLanes);
    const float* bp = b + col;
    float* cp = c + col;
    switch (nv) {
      case 4:
        for (int r = 0; r < rows; r += 6)
          micro_kernel<6, 4>(a + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, k_size);
        break;
      case 3:
        for (int r = 0; r < rows; r += 8)
          micro_kernel<8, 3>(a + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, k_size);
        break;
      case 2:
        for (int r = 0; r < rows; r += 8)
          micro_kernel<8, 2>(a + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, k_size);
        break;
      default:
        for (int r = 0; r < rows; r += 8)
          micro_kernel<8, 1>(a + r * k_size, k_size, bp, n_pad, cp + r * n_pad, n_pad, k_size);
        break;
    }
  }
}

}  // namespace vzero::blocked
