#pragma once
// Evaluators that need no network: uniform priors with a constant, a random
// rollout or a heuristic value. They let search, arena and self-play run and
// be tested before any model exists.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "search/evaluator.h"

namespace vzero {

// Uniform priors and zero values: the cheapest evaluator (benchmarks, tests).
class ConstantEvaluator : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, std::vector<Evaluation>& out) override;
  std::string name() const override { return "constant"; }
};

// Uniform priors; the value is the result of one game played on with
// uniformly random actions (at most max_plies of them; unfinished counts as
// the state's heuristic value).
class RolloutEvaluator : public Evaluator {
 public:
  explicit RolloutEvaluator(uint64_t seed, int max_plies = 1000)
      : seed_(seed), max_plies_(max_plies) {}
  void evaluate(const std::vector<const GameState*>& states, std::vector<Evaluation>& out) override;
  std::string name() const override { return "rollout"; }

 private:
  uint64_t seed_;
  int max_plies_;
  std::atomic<uint64_t> calls_{0};
};

// Uniform priors; the value is the game's static heuristic (material, mobility).
class HeuristicEvaluator : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, std::vector<Evaluation>& out) override;
  std::string name() const override { return "heuristic"; }
};

// The network-free evaluator of a name: "constant", "rollout" or "heuristic" (throws Error
// otherwise).
std::unique_ptr<Evaluator> make_basic_evaluator(const std::string& name, uint64_t seed);

}  // namespace vzero
