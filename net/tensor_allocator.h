#pragma once
// A caching allocator for LibTorch's CPU tensors. The network allocates the
// same few large tensors on every call (inputs, activations, policy logits);
// through malloc each is a trip through the arena's free lists and, once the
// heap trims or a thread's arena shrinks, pages faulted in afresh. The cache
// keeps freed blocks by size class and hands them out again.
// No LibTorch header here: cli/main.cpp installs it without paying for them.
#include <cstddef>
#include <cstdint>

namespace vzero {

// Makes this allocator LibTorch's CPU allocator: blocks of at least
// kMinCachedBytes are kept when freed and handed out again for the same size
// class; smaller ones go straight back to the system. Safe to call more than
// once and from any thread; tensors allocated before keep their own deleter.
void install_tensor_allocator();

struct TensorAllocatorStats {
  int64_t reused = 0;        // allocations served from the cache
  int64_t fresh = 0;         // allocations that went to the system
  int64_t cached_bytes = 0;  // bytes in freed blocks held now
};

// The cache's counters since the program started (zero until installed).
TensorAllocatorStats tensor_allocator_stats();

// Blocks smaller than this are not cached.
constexpr size_t kMinCachedBytes = 16 << 10;
// Freed blocks beyond this many bytes are returned to the system.
constexpr size_t kMaxCachedBytes = size_t(512) << 20;

}  // namespace vzero
