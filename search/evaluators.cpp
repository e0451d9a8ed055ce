// The network-free evaluators.
#include "search/evaluators.h"

#include "game/zobrist.h"
#include "util/error.h"

namespace vzero {

namespace {

// Uniform priors over the legal actions of s.
std::vector<float> uniform_priors(const GameState& s) {
  const size_t n = s.legal_actions().size();
  return std::vector<float>(n, n ? 1.0f / float(n) : 0.0f);
}

std::vector<float> to_float(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

}  // namespace

void ConstantEvaluator::evaluate(const std::vector<const GameState*>& states,
                                 std::vector<Evaluation>& out) {
  out.resize(states.size());
  for (size_t i = 0; i < states.size(); ++i) {
    out[i].priors = uniform_priors(*states[i]);
    out[i].values.assign(states[i]->num_players(), 0.0f);
  }
}

void RolloutEvaluator::evaluate(const std::vector<const GameState*>& states,
                                std::vector<Evaluation>& out) {
  out.resize(states.size());
  for (size_t i = 0; i < states.size(); ++i) {
    const GameState& s = *states[i];
    out[i].priors = uniform_priors(s);
    uint64_t call = calls_.fetch_add(1, std::memory_order_relaxed);
    uint64_t rng = seed_ ^ s.hash() ^ splitmix64(call);
    std::unique_ptr<GameState> play = s.clone();
    for (int ply = 0; ply < max_plies_ && !play->is_terminal(); ++ply) {
      const std::vector<int>& legal = play->legal_actions();
      play->apply(legal[(splitmix64(rng) >> 11) % legal.size()]);
    }
    out[i].values = to_float(play->is_terminal() ? play->returns() : play->heuristic_values());
  }
}

void HeuristicEvaluator::evaluate(const std::vector<const GameState*>& states,
                                  std::vector<Evaluation>& out) {
  out.resize(states.size());
  for (size_t i = 0; i < states.size(); ++i) {
    out[i].priors = uniform_priors(*states[i]);
    out[i].values = to_float(states[i]->heuristic_values());
  }
}

std::unique_ptr<Evaluator> make_basic_evaluator(const std::string& name, uint64_t seed) {
  if (name == "constant") return std::make_unique<ConstantEvaluator>();
  if (name == "rollout") return std::make_unique<RolloutEvaluator>(seed);
  if (name == "heuristic") return std::make_unique<HeuristicEvaluator>();
  throw Error("unknown evaluator '" + name + "' (expected constant, rollout or heuristic)");
}

}  // namespace vzero
