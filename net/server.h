#pragma once
// The batching inference server: many search threads submit positions, a
// worker thread per model replica forms batches (max size, max wait), runs
// the network without gradients on threads it owns (at::set_num_threads
// set there, never inside TBB workers) and hands each caller its own
// results. A cache keyed by the position sits in front. It is the search's
// Evaluator. This header holds no LibTorch, so self-play code stays light.
#include <cstdint>
#include <memory>
#include <string>

#include "net/spec/model_config.h"
#include "net/spec/server_config.h"
#include "search/evaluator.h"

namespace vzero {

struct ServerStats {
  uint64_t requests = 0;    // positions asked for
  uint64_t cache_hits = 0;  // answered from the cache
  uint64_t evaluated = 0;   // positions run through the network
  uint64_t batches = 0;     // network calls
  double mean_batch() const { return batches ? double(evaluated) / double(batches) : 0.0; }
  double hit_rate() const { return requests ? double(cache_hits) / double(requests) : 0.0; }
};

class InferenceServer : public Evaluator {
 public:
  // Serves the model of a checkpoint, or a fresh model of `fresh` seeded by
  // seed when checkpoint is empty. Throws Error when the checkpoint does not
  // fit the game.
  InferenceServer(const Game& game, const ServerConfig& config, const std::string& checkpoint,
                  const ModelConfig& fresh = {}, uint64_t seed = 1);
  ~InferenceServer() override;

  void evaluate(const std::vector<const GameState*>& states, std::vector<Evaluation>& out) override;
  // Queues the positions that the cache does not answer and returns at once.
  std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                            std::vector<Evaluation>& out) override;
  std::string name() const override { return "network"; }
  // While every attached caller (each Search attaches) waits on the server,
  // a batch goes at once: max_wait_us is only waited out for callers that
  // are there but busy, or when nobody is attached. With no more callers
  // attached than workers, each call is a batch of its own and goes at once
  // (a match's games evaluate on as many workers as there are games).
  void attach() override;
  void detach() override;

  ServerStats stats() const;
  void reset_stats();
  int generation() const;  // of the checkpoint (0 for a fresh model)
  // Network evaluations/s on random inputs of this batch size, run on threads
  // laid out like the workers, all at once (the ceiling self-play is measured
  // against: with 2 workers, what both together evaluate).
  double measure_evals_per_s(int batch, double seconds);
  const ModelIdentity& identity() const;
  // The network input of a state exactly as evaluate() builds it before any
  // symmetry (channels x H x W floats): plies scaled by the model's input_plies.
  std::vector<float> input_of(const GameState& state) const;
  int input_plies() const;  // the model's plies scale (0: each state's cap)

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Adds the player kind "net:model=PATH,sims=N,..." (model omitted: a fresh
// network) to make_player; players of one model share one server.
void register_net_players(const ServerConfig& config);

}  // namespace vzero
