#include "net/tensor_allocator.h"

#include <c10/core/CPUAllocator.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

namespace vzero {
namespace {

// Size classes: 8 per power of two from kMinCachedBytes up (at most 12.5% rounding).
constexpr int kStepsPerOctave = 8;
constexpr int kMinOctave = 14;  // log2(kMinCachedBytes)
constexpr int kOctaves = 48 - kMinOctave;
constexpr int kClasses = kOctaves * kStepsPerOctave;
constexpr size_t kHeader = 64;  // before each block: its class; keeps the data 64-byte aligned
constexpr uint32_t kMagic = 0x76a110c5;
constexpr int kUncached = -1;  // the class of blocks too small (or too large) to cache
static_assert(size_t(1) << kMinOctave == kMinCachedBytes);

struct BlockHeader {
  uint32_t magic;
  int32_t size_class;
};

// The class of an n-byte request (n >= kMinCachedBytes), or -1 past the largest.
int size_class(size_t n) {
  const int octave = 63 - __builtin_clzll(uint64_t(n));
  if (octave - kMinOctave >= kOctaves) return -1;
  const size_t base = size_t(1) << octave, step = base / kStepsPerOctave;
  const int sub = int((n - base + step - 1) / step);  // 0..kStepsPerOctave
  return (octave - kMinOctave) * kStepsPerOctave + sub;
}

// The bytes a block of class c holds (>= every request of that class).
size_t class_bytes(int c) {
  const size_t base = size_t(1) << (kMinOctave + c / kStepsPerOctave);
  return base + base / kStepsPerOctave * size_t(c % kStepsPerOctave);
}

class CachingAllocator final : public c10::Allocator {
 public:
  // Every block carries the header, cached or not, so that one deleter frees them all.
  c10::DataPtr allocate(size_t n) const override {
    const int c = n >= kMinCachedBytes ? size_class(n) : kUncached;
    void* data = c >= 0 && c < kClasses ? self().take(c) : fresh_block(kUncached, n);
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &release; }

  TensorAllocatorStats stats() const {
    return {reused_.load(), fresh_.load(), int64_t(cached_bytes_.load())};
  }

  static CachingAllocator* instance;

 private:
  CachingAllocator& self() const { return const_cast<CachingAllocator&>(*this); }

  // A block of class c: a cached one, or a fresh one from the system.
  void* take(int c) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<void*>& list = free_[size_t(c)];
      if (!list.empty()) {
        void* data = list.back();
        list.pop_back();
        cached_bytes_ -= class_bytes(c);
        ++reused_;
        return data;
      }
    }
    ++fresh_;
    return fresh_block(c, class_bytes(c));
  }

  // A new block of the system for `bytes` of data, its header saying class c.
  static void* fresh_block(int c, size_t bytes) {
    // No size near SIZE_MAX may wrap around below.
    if (bytes > std::numeric_limits<size_t>::max() / 2) throw std::bad_alloc();
    // aligned_alloc wants a multiple of the alignment.
    const size_t total = (kHeader + bytes + kHeader - 1) / kHeader * kHeader;
    void* base = std::aligned_alloc(kHeader, total);
    if (!base) throw std::bad_alloc();
    auto* header = static_cast<BlockHeader*>(base);
    header->magic = kMagic;
    header->size_class = c;
    return static_cast<char*>(base) + kHeader;
  }

  // Keeps a freed block for reuse, or frees it once the cache holds kMaxCachedBytes.
  void give_back(void* data) {
    void* base = static_cast<char*>(data) - kHeader;
    const BlockHeader& header = *static_cast<const BlockHeader*>(base);
    if (header.magic != kMagic || header.size_class < kUncached || header.size_class >= kClasses)
      std::abort();  // not ours: a deleter mix-up would corrupt the heap
    if (header.size_class == kUncached) {
      std::free(base);
      return;
    }
    const size_t bytes = class_bytes(header.size_class);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cached_bytes_ + bytes <= kMaxCachedBytes) {
        free_[size_t(header.size_class)].push_back(data);
        cached_bytes_ += bytes;
        return;
      }
    }
    std::free(base);
  }

  static void release(void* data) {
    if (data) instance->give_back(data);
  }

  std::mutex mutex_;
  std::array<std::vector<void*>, kClasses> free_;
  std::atomic<size_t> cached_bytes_{0};
  std::atomic<int64_t> reused_{0}, fresh_{0};
};

CachingAllocator* CachingAllocator::instance = nullptr;

}  // namespace

void install_tensor_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Never destroyed: tensors may outlive every static destructor.
    CachingAllocator::instance = new CachingAllocator();
    c10::SetCPUAllocator(CachingAllocator::instance, /*priority=*/1);
  });
}

TensorAllocatorStats tensor_allocator_stats() {
  return CachingAllocator::instance ? CachingAllocator::instance->stats() : TensorAllocatorStats{};
}

}  // namespace vzero
