#pragma once
// Games as fibers: a few OS threads each run many self-play games, switching
// between them in user space while their evaluations are under way. With a
// thread per game, every batch of leaves a game submits costs two kernel
// context switches (sleep, wake); here the thread goes on with another game
// and sleeps only when every game it holds waits on the evaluator.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/evaluator.h"

namespace vzero {

// True where games can run as fibers: not under a sanitizer, which cannot
// follow a stack switch; run_fibers then needs fibers_supported().
bool fibers_supported();

// The hardware threads this process may run on (its CPU affinity).
int usable_cpus();

// Runs task(i) for i in [0, count) as `fibers` fibers (stacks of stack_bytes)
// shared out over `threads` OS threads (at most one thread per fiber). A task
// gives its thread away only in fiber_wait. Returns when all have returned;
// the first exception a task throws is rethrown here once every started task
// has ended (after an exception no further task starts).
void run_fibers(int64_t count, int threads, int fibers, const std::function<void(int64_t)>& task,
                size_t stack_bytes = 1 << 20);

// Waits for an evaluation: inside a fiber, runs the thread's other fibers
// meanwhile; elsewhere blocks. Then returns what pending.wait() returns.
void fiber_wait(PendingEvaluation& pending);

// An evaluator whose waits go through fiber_wait: a search given it inside a
// fiber lets the other fibers of its thread run while its leaves are evaluated.
class FiberEvaluator : public Evaluator {
 public:
  explicit FiberEvaluator(Evaluator& inner) : inner_(inner) {}
  void evaluate(const std::vector<const GameState*>& states, std::vector<Evaluation>& out) override;
  std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                            std::vector<Evaluation>& out) override;
  std::string name() const override { return inner_.name(); }
  void attach() override { inner_.attach(); }
  void detach() override { inner_.detach(); }

 private:
  Evaluator& inner_;
};

}  // namespace vzero
