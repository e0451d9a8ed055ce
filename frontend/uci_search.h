#pragma once
// One UCI search: root-parallel PUCT searches of one position on their own
// threads, stopped by a node limit, a time limit or `stop`, reporting `info`
// lines at least once a second and at the end, then `bestmove`. The caller's
// thread stays free: stop() returns within a batch of playouts.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "frontend/analysis.h"

namespace vzero {

struct SearchLimits {
  int64_t nodes = 0;      // playouts; 0: no limit
  int64_t time_ms = 0;    // 0: no limit
  bool infinite = false;  // until stop(): bestmove only then, even when the search is done
  bool ponder = false;    // `go ponder`: searches without limits until ponderhit() (then the
                          // limits count from there) or stop()
};

struct InfoOptions {
  int multipv = 1;  // lines reported
  bool wdl = true;  // append "wdl W D L" to the score
};

// Searches are capped at this many playouts (about 1 GB of tree), infinite ones included.
constexpr int64_t kMaxPlayouts = 2000000;

// The UCI score of a root value q in [-1, 1] for the side to act: centipawns
// cp = round(100 * tan(1.5 * q)) (0 at q = 0, about 93 at 0.5, 1410 at 1).
int centipawns(float q);

// The `info ...` line of one root action (line 1-based) of a search.
std::string info_line(const GameState& root, const RootStats& stats, int line, const InfoOptions& o,
                      int64_t nodes, int64_t elapsed_ms);

class SearchJob {
 public:
  using Sink = std::function<void(const std::string& line)>;  // called from the job's thread

  // Starts searching root (not terminal) with the caller's searches of
  // engine at once, one thread each, each already at root (a tree they hold
  // is searched on: tree reuse), shared with the job until it ends.
  SearchJob(const GameState& root, Engine engine, const SearchLimits& limits,
            std::vector<std::shared_ptr<Search>> searches, const InfoOptions& info, Sink out);
  ~SearchJob();  // stops the search (its bestmove is still sent) and joins its threads
  void stop();   // asks the search to finish: the last info and bestmove follow at once
  void wait();   // blocks until bestmove has been sent (the threads may still free the tree)
  bool done() const { return done_.load(); }
  bool infinite() const { return limits_.infinite; }
  // The move the opponent played was the one pondered on: the search goes on
  // as a normal one, its limits counted from now. No effect when not pondering.
  void ponderhit();
  bool pondering();

 private:
  void drive();           // the job's own thread: limits, periodic info, bestmove
  void work(int thread);  // one search's thread: batches of playouts until halted
  void report();          // the info lines of the merged snapshots
  RootStats merged();     // every worker's latest root statistics added up

  std::unique_ptr<GameState> root_;
  Engine engine_;
  SearchLimits limits_;
  InfoOptions info_;
  Sink out_;
  std::chrono::steady_clock::time_point start_;

  std::atomic<bool> halt_{false};     // workers stop at their next batch
  std::atomic<int64_t> reserved_{0};  // playouts handed out (node limit)
  std::atomic<int64_t> nodes_{0};     // playouts done
  std::atomic<int64_t> cap_{0};  // playouts to hand out in all (node limit; ponderhit moves it)
  std::atomic<bool> done_{false};

  std::mutex mutex_;  // guards what follows
  std::condition_variable wake_;
  bool stop_requested_ = false;
  bool pondering_ = false;                             // go ponder until ponderhit
  std::chrono::steady_clock::time_point limits_from_;  // the time limit counts from here
  bool sent_ = false;                                  // bestmove is out
  int workers_left_ = 0;
  std::vector<RootStats> snapshots_;  // per worker, the latest root statistics

  std::vector<std::shared_ptr<Search>> searches_;  // one per worker (after engine_: freed first)

  std::vector<std::thread> workers_;
  std::thread driver_;
};

}  // namespace vzero
