// A UCI search on its own threads: limits, info lines, bestmove.
#include "frontend/uci_search.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "util/error.h"

namespace vzero {

namespace {

constexpr float kWin = 1.0f - 1e-6f;
constexpr auto kSnapshotEvery = std::chrono::milliseconds(50);
constexpr auto kInfoEvery = std::chrono::milliseconds(1000);

// The UCI mate distance of a proven line: the actions of the winner until
// the game ends (negative when the side to act loses).
int mate_distance(const GameState& root, const std::vector<int>& pv, bool win) {
  const int p = root.current_player();
  auto s = root.clone();
  int n = 0;
  for (int a : pv) {
    if (s->is_terminal()) break;
    const int seat = s->current_player();
    if ((seat == p) == win) ++n;
    s->apply(a);
  }
  return win ? std::max(n, 1) : -std::max(n, 1);
}

}  // namespace

int centipawns(float q) {
  const double x = std::clamp(double(q), -1.0, 1.0);
  return int(std::lround(100.0 * std::tan(1.5 * x)));
}

std::string info_line(const GameState& root, const RootStats& stats, int line, const InfoOptions& o,
                      int64_t nodes, int64_t elapsed_ms) {
  const ActionStat& a = stats.actions.at(size_t(line - 1));
  const int p = stats.player;
  const std::vector<int> pv = a.pv.empty() ? std::vector<int>{a.action} : a.pv;
  std::ostringstream out;
  out << "info depth " << pv.size() << " multipv " << line << " score ";
  const float q = a.value.empty() ? (stats.value.empty() ? 0.0f : stats.value[p]) : a.value[p];
  if (a.proven && std::fabs(q) >= kWin) {
    out << "mate " << mate_distance(root, pv, q > 0);
    if (o.wdl) out << (q > 0 ? " wdl 1000 0 0" : " wdl 0 0 1000");
  } else {
    out << "cp " << centipawns(q);
    if (o.wdl) {
      // The most draws a value of q allows: W - L = q, D = 1 - W - L.
      const int w = int(std::lround(1000.0 * std::max(0.0f, q)));
      const int l = int(std::lround(1000.0 * std::max(0.0f, -q)));
      out << " wdl " << w << ' ' << (1000 - w - l) << ' ' << l;
    }
  }
  const int64_t ms = std::max<int64_t>(elapsed_ms, 1);
  out << " nodes " << nodes << " nps " << nodes * 1000 / ms << " time " << elapsed_ms << " pv";
  for (int m : pv) out << ' ' << root.game().action_text(m);
  return out.str();
}

SearchJob::SearchJob(const GameState& root, Engine engine, const SearchLimits& limits,
                     std::vector<std::shared_ptr<Search>> searches, const InfoOptions& info,
                     Sink out)
    : root_(root.clone()),
      engine_(std::move(engine)),
      limits_(limits),
      info_(info),
      out_(std::move(out)),
      searches_(std::move(searches)) {
  check(!root_->is_terminal(), "the game is over");
  start_ = limits_from_ = std::chrono::steady_clock::now();
  pondering_ = limits_.ponder;
  int64_t cap = kMaxPlayouts;
  if (limits_.nodes > 0 && !limits_.infinite && !limits_.ponder) cap = std::min(cap, limits_.nodes);
  cap_ = cap;
  check(!searches_.empty(), "a search needs a thread");
  const size_t threads = searches_.size();
  snapshots_.resize(threads);
  workers_left_ = int(threads);
  for (size_t t = 0; t < threads; ++t) workers_.emplace_back([this, t] { work(int(t)); });
  driver_ = std::thread([this] { drive(); });
}

SearchJob::~SearchJob() {
  stop();
  if (driver_.joinable()) driver_.join();
}

void SearchJob::ponderhit() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pondering_) return;
  pondering_ = false;
  limits_from_ = std::chrono::steady_clock::now();
  if (limits_.nodes > 0 && !limits_.infinite)
    cap_ = std::min<int64_t>(kMaxPlayouts, reserved_.load() + limits_.nodes);
  wake_.notify_all();
}

bool SearchJob::pondering() {
  std::lock_guard<std::mutex> lock(mutex_);
  return pondering_;
}

void SearchJob::stop() {
  halt_ = true;
  std::lock_guard<std::mutex> lock(mutex_);
  stop_requested_ = true;
  wake_.notify_all();
}

void SearchJob::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [this] { return sent_; });
}

void SearchJob::work(int thread) {
  Search& search = *searches_[size_t(thread)];
  // Stop waits for at most one batch (pipelined: 4, so that gathering overlaps the network for
  // 3 of them). The search's own batch (the Batch option), not the engine's config: a run of
  // fewer playouts than a batch would cap its batches.
  const int64_t chunk = std::max(8, search.config().batch) * (search.config().pipeline ? 4 : 1);
  auto last_snapshot = std::chrono::steady_clock::now();
  bool first = true;  // every worker runs one batch, so that there is a root to report
  try {
    while (first || !halt_) {
      const int64_t from = reserved_.fetch_add(chunk);
      const int64_t cap = cap_.load();
      if (from >= cap && !first) {
        // Pondering: wait for ponderhit (which may raise the cap) or stop.
        std::unique_lock<std::mutex> lock(mutex_);
        if (!pondering_ || halt_) break;
        reserved_ -= chunk;
        wake_.wait_for(lock, kSnapshotEvery);
        continue;
      }
      const int64_t n = std::max<int64_t>(1, std::min(chunk, cap - from));
      const SearchResult r = search.run(int(n));
      nodes_ += r.simulations;
      first = false;
      const auto now = std::chrono::steady_clock::now();
      const bool finished = search.root().proven || r.simulations == 0;
      if (now - last_snapshot >= kSnapshotEvery || finished) {
        RootStats s = root_stats(search, info_.multipv);
        std::lock_guard<std::mutex> lock(mutex_);
        snapshots_[size_t(thread)] = std::move(s);
        last_snapshot = now;
      }
      if (finished) break;
    }
  } catch (const std::exception& e) {
    out_(std::string("info string search error: ") + e.what());
  }
  RootStats s = root_stats(search, info_.multipv);
  std::lock_guard<std::mutex> lock(mutex_);
  snapshots_[size_t(thread)] = std::move(s);
  --workers_left_;
  wake_.notify_all();
}

RootStats SearchJob::merged() {
  std::lock_guard<std::mutex> lock(mutex_);
  RootStats all;
  for (const RootStats& s : snapshots_) {
    if (s.actions.empty()) continue;
    if (all.actions.empty())
      all = s;
    else
      merge_root_stats(all, s);
  }
  return all;
}

void SearchJob::report() {
  const RootStats stats = merged();
  if (stats.actions.empty()) return;
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start_)
                         .count();
  // Lines for the searched actions only (an unvisited one has no value of its own).
  int searched = 0;
  for (const ActionStat& a : stats.actions) searched += a.visits > 0 || a.proven;
  const int lines = std::max(1, std::min(info_.multipv, searched));
  for (int i = 1; i <= lines; ++i) out_(info_line(*root_, stats, i, info_, nodes_.load(), ms));
}

void SearchJob::drive() {
  using clock = std::chrono::steady_clock;
  // The time limit, counted from the start or from ponderhit (none while pondering).
  const auto deadline = [this] {
    return limits_.time_ms > 0 && !limits_.infinite && !pondering_
               ? limits_from_ + std::chrono::milliseconds(limits_.time_ms)
               : clock::time_point::max();
  };
  auto next_info = start_ + kInfoEvery;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    // Done: every worker finished (a node limit or a proven root), unless
    // the search is infinite or pondering, which only stop ends.
    while (!stop_requested_ && !(workers_left_ == 0 && !limits_.infinite && !pondering_) &&
           clock::now() < deadline()) {
      if (clock::now() >= next_info) {
        lock.unlock();
        report();
        lock.lock();
        next_info += kInfoEvery;
        continue;
      }
      wake_.wait_until(lock, std::min(deadline(), next_info));
    }
    halt_ = true;
    wake_.notify_all();
    wake_.wait(lock, [this] { return workers_left_ == 0; });
  }
  report();
  const RootStats stats = merged();
  const int best = stats.actions.empty() ? root_->legal_actions().front() : best_action(stats);
  done_ = true;  // before bestmove: a client may send the next go at once
  out_("bestmove " + root_->action_to_text(best));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sent_ = true;
  }
  wake_.notify_all();
  for (std::thread& w : workers_) w.join();
}

}  // namespace vzero
