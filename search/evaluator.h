#pragma once
// The search's view of a position evaluator: a batch of positions in, for
// each a prior over its legal actions and a value per seat out. Network-free
// evaluators live in evaluators.h; the network plugs in behind the same
// interface (net/).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero {

// What an evaluator says of one non-terminal position.
struct Evaluation {
  std::vector<float> priors;  // one per legal action, in legal_actions() order, summing to 1
  std::vector<float> values;  // one per seat (absolute seat index), each in [-1, 1]
  float moves_left = -1.0f;   // expected plies until the game ends; negative: no estimate
};

// An evaluation under way (Evaluator::submit).
class PendingEvaluation {
 public:
  virtual ~PendingEvaluation() = default;  // waits for it if wait() was not called
  // Blocks until every state is evaluated; throws what evaluate() would throw.
  virtual void wait() {}
  // True once wait() would return at once.
  virtual bool ready() const { return true; }
  // Calls wake once ready() holds (at once if it does already), from any
  // thread; wake must not throw. A caller with other work asks to be woken.
  virtual void on_ready(std::function<void()> wake) { wake(); }
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Evaluates every state (none terminal); out gets one Evaluation per state.
  // Safe to call from many threads at once.
  virtual void evaluate(const std::vector<const GameState*>& states,
                        std::vector<Evaluation>& out) = 0;
  // Starts evaluating states into out (both kept alive and untouched until
  // the returned evaluation's wait() returns): an evaluator that works on
  // other threads returns at once; by default the states are evaluated first.
  virtual std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                                    std::vector<Evaluation>& out) {
    evaluate(states, out);
    return std::make_unique<PendingEvaluation>();
  }
  virtual std::string name() const = 0;
  // A caller that will call evaluate again and again (a search) says so
  // first, and detaches once done: a batching evaluator then knows when
  // every caller there is waits on it, and need not wait for more.
  virtual void attach() {}
  virtual void detach() {}
};

}  // namespace vzero
