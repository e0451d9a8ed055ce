#pragma once
// TBB's hand-over of work to its threads, made visible to ThreadSanitizer.
// Debian's libtbb is not built with TSan, so TSan cannot see that what a
// thread wrote before tbb::parallel_for happens before every body, nor that
// every body happens before parallel_for returns, and reports races that
// cannot happen. Without -fsanitize=thread all of this compiles to nothing.
//
//   TbbHandover handover;                                  // before the call
//   tbb::parallel_for(0, n, 1, handover.wrap([&](int i) { ... }));
//   handover.collect();                                    // before reading results
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define VZERO_TSAN_ANNOTATE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VZERO_TSAN_ANNOTATE 1
#endif
#endif

#ifdef VZERO_TSAN_ANNOTATE
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace vzero {

class TbbHandover {
 public:
  // What this thread did so far happens before every wrapped body.
  TbbHandover() { release(&start_); }
  // The body, told to TSan: it starts after the constructor, it ends before collect().
  template <class Body>
  auto wrap(Body body) {
    return [this, body = std::move(body)](auto&&... args) {
      acquire(&start_);
      body(std::forward<decltype(args)>(args)...);
      release(&done_);
    };
  }
  // Every body that ran happens before what this thread does next.
  void collect() { acquire(&done_); }

 private:
#ifdef VZERO_TSAN_ANNOTATE
  static void acquire(char* key) { __tsan_acquire(key); }
  static void release(char* key) { __tsan_release(key); }
#else
  static void acquire(char*) {}
  static void release(char*) {}
#endif
  char start_ = 0, done_ = 0;
};

}  // namespace vzero
