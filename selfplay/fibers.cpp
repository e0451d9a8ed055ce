// Games as fibers (ucontext): one scheduler per OS thread, round robin over
// its fibers, asleep only while every fiber it holds waits on an evaluation.
#include "selfplay/fibers.h"

#include <sched.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "util/error.h"

// A sanitizer would lose track of the stack switches: games run as threads there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_HWADDRESS__)
#define VZERO_NO_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer) || __has_feature(hwaddress_sanitizer)
#define VZERO_NO_FIBERS 1
#endif
#endif

namespace vzero {

namespace {

// What every scheduler of one run_fibers call shares.
struct Shared {
  Shared(const std::function<void(int64_t)>& t, int64_t n) : task(t), count(n) {}
  const std::function<void(int64_t)>& task;
  int64_t count;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex m;
  std::exception_ptr error;  // the first a task threw
};

// A fiber's stack: mapped, with 64 KiB of guard below it (an overflow faults
// rather than writing into the next stack, even from a frame of several pages).
class Stack {
 public:
  explicit Stack(size_t bytes) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    guard_ = (kGuard + page - 1) / page * page;
    size_ = (bytes + page - 1) / page * page + guard_;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw Error("self-play: cannot map a fiber stack");
    base_ = static_cast<char*>(p);
    if (mprotect(base_, guard_, PROT_NONE) != 0) {
      munmap(base_, size_);
      throw Error("self-play: cannot protect a fiber stack's guard");
    }
  }
  ~Stack() { munmap(base_, size_); }
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;
  void* bottom() const { return base_ + guard_; }
  size_t usable() const { return size_ - guard_; }

 private:
  static constexpr size_t kGuard = 64 << 10;
  size_t guard_ = 0, size_ = 0;
  char* base_ = nullptr;
};

struct Fiber {
  explicit Fiber(size_t stack_bytes) : stack(stack_bytes) {}
  ucontext_t context{};
  Stack stack;
  PendingEvaluation* waiting = nullptr;  // what it waits for (null: runnable)
  bool finished = false;
};

class Scheduler {
 public:
  Scheduler(Shared& shared, int fibers, size_t stack_bytes) : shared_(shared) {
    for (int i = 0; i < fibers; ++i) fibers_.push_back(std::make_unique<Fiber>(stack_bytes));
  }
  void run();
  // Wakes the scheduler if it sleeps (from any thread).
  void signal() {
    {
      std::lock_guard<std::mutex> lock(m_);
      signalled_ = true;
    }
    cv_.notify_one();
  }
  // Switches from the running fiber back to the scheduler until pending is ready.
  // The pending's owner must let go of it only after wake has returned (the
  // server calls wake under the lock that its wait() takes).
  void wait_in_fiber(PendingEvaluation& pending) {
    Fiber& f = *current_;
    f.waiting = &pending;
    pending.on_ready([this] { signal(); });
    swapcontext(&f.context, &main_);
  }
  bool in_fiber() const { return current_ != nullptr; }
  // True while a fiber other than the running one has not finished.
  bool others_alive() const { return alive_ > 1; }

 private:
  static void entry();

  Shared& shared_;
  std::vector<std::unique_ptr<Fiber>> fibers_;
  Fiber* current_ = nullptr;
  int alive_ = 0;  // fibers not finished
  ucontext_t main_{};
  std::mutex m_;
  std::condition_variable cv_;
  bool signalled_ = false;
};

thread_local Scheduler* tls_scheduler = nullptr;

// A fiber's life: tasks until none are left (or one failed), then back to the scheduler.
void Scheduler::entry() {
  Scheduler& s = *tls_scheduler;
  Shared& shared = s.shared_;
  while (!shared.failed.load()) {
    const int64_t i = shared.next.fetch_add(1);
    if (i >= shared.count) break;
    try {
      shared.task(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(shared.m);
      if (!shared.error) shared.error = std::current_exception();
      shared.failed = true;
    }
  }
  s.current_->finished = true;
  --s.alive_;
  // Returning follows uc_link back to the scheduler.
}

void Scheduler::run() {
  tls_scheduler = this;
  for (auto& f : fibers_) {
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->stack.bottom();
    f->context.uc_stack.ss_size = f->stack.usable();
    f->context.uc_link = &main_;
    makecontext(&f->context, &Scheduler::entry, 0);
  }
  alive_ = int(fibers_.size());
  for (;;) {
    bool alive = false, ran = false;
    for (auto& f : fibers_) {
      if (f->finished) continue;
      alive = true;
      if (f->waiting && !f->waiting->ready()) continue;
      f->waiting = nullptr;
      current_ = f.get();
      swapcontext(&main_, &f->context);
      current_ = nullptr;
      ran = true;
    }
    if (!alive) break;
    if (!ran) {  // every fiber waits: sleep until an evaluation comes back
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] { return signalled_; });
      signalled_ = false;
    }
  }
  tls_scheduler = nullptr;
}

}  // namespace

bool fibers_supported() {
#ifdef VZERO_NO_FIBERS
  return false;
#else
  return true;
#endif
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, int(std::thread::hardware_concurrency()));
}

void run_fibers(int64_t count, int threads, int fibers, const std::function<void(int64_t)>& task,
                size_t stack_bytes) {
  check(fibers_supported(), "self-play: fibers are not available in this build");
  check(threads >= 1 && fibers >= 1, "self-play: fibers need a thread and a fiber");
  threads = std::min(threads, fibers);
  Shared shared(task, count);
  std::vector<std::unique_ptr<Scheduler>> schedulers;
  for (int t = 0; t < threads; ++t)  // the fibers shared out: the first ones take one more
    schedulers.push_back(std::make_unique<Scheduler>(
        shared, fibers / threads + (t < fibers % threads ? 1 : 0), stack_bytes));
  std::vector<std::thread> pool;
  try {
    for (auto& s : schedulers) pool.emplace_back([&s] { s->run(); });
  } catch (...) {  // no thread to be had: stop the ones started, then report
    shared.failed = true;
    for (std::thread& t : pool) t.join();
    throw;
  }
  for (std::thread& t : pool) t.join();
  if (shared.error) std::rethrow_exception(shared.error);
}

void fiber_wait(PendingEvaluation& pending) {
  Scheduler* s = tls_scheduler;
  // A lone fiber has nothing to switch to: it waits as a thread would (the server spins for it).
  if (s && s->in_fiber() && s->others_alive() && !pending.ready()) s->wait_in_fiber(pending);
  pending.wait();
}

namespace {

// A pending evaluation whose wait lets the fiber's thread run other fibers.
struct FiberPending : PendingEvaluation {
  explicit FiberPending(std::unique_ptr<PendingEvaluation> p) : inner(std::move(p)) {}
  void wait() override { fiber_wait(*inner); }
  bool ready() const override { return inner->ready(); }
  void on_ready(std::function<void()> wake) override { inner->on_ready(std::move(wake)); }
  std::unique_ptr<PendingEvaluation> inner;
};

}  // namespace

void FiberEvaluator::evaluate(const std::vector<const GameState*>& states,
                              std::vector<Evaluation>& out) {
  fiber_wait(*inner_.submit(states, out));
}

std::unique_ptr<PendingEvaluation> FiberEvaluator::submit(
    const std::vector<const GameState*>& states, std::vector<Evaluation>& out) {
  return std::make_unique<FiberPending>(inner_.submit(states, out));
}

}  // namespace vzero
