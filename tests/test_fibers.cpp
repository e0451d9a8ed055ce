// Games as fibers: every task runs once, fibers of one thread interleave
// while they wait on an evaluation, a task's exception reaches the caller,
// and self-play plays the same games with fibers as with a thread per game.
#include <algorithm>
#include <atomic>
#include <catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "game/builtin/games.h"
#include "search/evaluators.h"
#include "selfplay/fibers.h"
#include "selfplay/selfplay.h"
#include "selfplay_test_util.h"
#include "test_util.h"
#include "util/error.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

// A pending evaluation made ready from outside (by its evaluator).
struct OpenPending : PendingEvaluation {
  std::mutex m;
  std::condition_variable cv;
  std::atomic<bool> done{false};
  std::function<void()> wake;
  void wait() override {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return done.load(); });
  }
  bool ready() const override { return done.load(); }
  void on_ready(std::function<void()> w) override {
    {
      std::lock_guard<std::mutex> lock(m);
      if (!done) {
        wake = std::move(w);
        return;
      }
    }
    w();
  }
  void complete() {
    std::lock_guard<std::mutex> lock(m);
    done = true;
    if (wake) wake();
    cv.notify_all();
  }
};

// Hands out pendings and completes them all once `gate` are outstanding.
struct GatedPendings {
  explicit GatedPendings(int g) : gate(g) {}
  std::unique_ptr<PendingEvaluation> submit() {
    auto p = std::make_unique<OpenPending>();
    std::vector<OpenPending*> release;
    {
      std::lock_guard<std::mutex> lock(m);
      open.push_back(p.get());
      most = std::max(most, int(open.size()));
      if (int(open.size()) >= gate) release.swap(open);
    }
    for (OpenPending* r : release) r->complete();
    return p;
  }
  int gate, most = 0;
  std::mutex m;
  std::vector<OpenPending*> open;
};

// The heuristic evaluator's answers, completed by a thread of its own some
// microseconds later: callers really wait (and fibers switch).
class LateEvaluator : public Evaluator {
 public:
  LateEvaluator() : worker_([this] { loop(); }) {}
  ~LateEvaluator() override {
    stop_ = true;
    worker_.join();
  }
  void evaluate(const std::vector<const GameState*>& states,
                std::vector<Evaluation>& out) override {
    submit(states, out)->wait();
  }
  std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                            std::vector<Evaluation>& out) override {
    inner_.evaluate(states, out);
    auto p = std::make_unique<Pending>(*this);
    std::lock_guard<std::mutex> lock(m_);
    open_.push_back(p.get());
    return p;
  }
  std::string name() const override { return "late heuristic"; }

 private:
  struct Pending : OpenPending {
    explicit Pending(LateEvaluator& e) : owner(e) {}
    ~Pending() override {  // still listed only if never completed
      std::lock_guard<std::mutex> lock(owner.m_);
      owner.open_.erase(std::remove(owner.open_.begin(), owner.open_.end(), this),
                        owner.open_.end());
    }
    LateEvaluator& owner;
  };
  void loop() {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      std::lock_guard<std::mutex> lock(m_);
      for (OpenPending* p : open_) p->complete();
      open_.clear();
    }
  }
  HeuristicEvaluator inner_;
  std::mutex m_;
  std::vector<OpenPending*> open_;
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

}  // namespace

TEST_CASE("fibers: every task runs once; one thread's fibers wait together", "[selfplay][fibers]") {
  if (!fibers_supported()) return;
  // Eight tasks on one thread, four fibers: each waits until four evaluations are out,
  // which only happens if the waiting fibers let the others run.
  GatedPendings gated(4);
  std::mutex m;
  std::multiset<int64_t> ran;
  run_fibers(8, 1, 4, [&](int64_t i) {
    auto p = gated.submit();
    fiber_wait(*p);
    CHECK(p->ready());
    std::lock_guard<std::mutex> lock(m);
    ran.insert(i);
  });
  CHECK(gated.most == 4);
  REQUIRE(ran.size() == 8);
  for (int64_t i = 0; i < 8; ++i) CHECK(ran.count(i) == 1);

  // Several threads: 100 tasks, each once. (No Catch assertion off the main thread.)
  ran.clear();
  std::atomic<int> wrong{0};
  run_fibers(100, 3, 7, [&](int64_t i) {
    LateEvaluator late;
    const Game& game = game_by_id("attrition");
    auto s = game.new_state();
    std::vector<Evaluation> out;
    FiberEvaluator fibered(late);
    fibered.evaluate({s.get()}, out);
    wrong += out.size() != 1;
    std::lock_guard<std::mutex> lock(m);
    ran.insert(i);
  });
  CHECK(wrong.load() == 0);
  REQUIRE(ran.size() == 100);
  for (int64_t i = 0; i < 100; ++i) CHECK(ran.count(i) == 1);
}

TEST_CASE("fibers: a thread runs its other fibers while one waits", "[selfplay][fibers]") {
  if (!fibers_supported()) return;
  // One thread, five fibers: a waiting fiber resumes only on the scheduler's next pass,
  // so all five are inside their wait at once.
  std::atomic<int> waiting{0}, most{0};
  run_fibers(5, 1, 5, [&](int64_t) {
    LateEvaluator late;
    const Game& game = game_by_id("attrition");
    auto s = game.new_state();
    std::vector<Evaluation> out;
    FiberEvaluator fibered(late);
    most = std::max(most.load(), ++waiting);
    fibered.evaluate({s.get()}, out);
    --waiting;
  });
  CHECK(most.load() == 5);
}

TEST_CASE("fibers: a task's exception reaches the caller, and no new task starts after it",
          "[selfplay][fibers]") {
  if (!fibers_supported()) return;
  std::atomic<int> started{0};
  // One thread, so that the order is fixed: tasks 0-3 run on the first fiber, none after.
  CHECK_THROWS_WITH(run_fibers(1000, 1, 2,
                               [&](int64_t i) {
                                 ++started;
                                 if (i == 3) throw Error("task 3 failed");
                               }),
                    "task 3 failed");
  CHECK(started.load() == 4);
  CHECK_THROWS_WITH(run_fibers(4, 0, 2, [](int64_t) {}),
                    Catch::Contains("fibers need a thread and a fiber"));
}

TEST_CASE("fibers: outside a fiber, a fiber evaluator just waits", "[selfplay][fibers]") {
  LateEvaluator late;
  FiberEvaluator fibered(late);
  const Game& game = game_by_id("chess");
  auto s = game.new_state();
  std::vector<Evaluation> got, want;
  fibered.evaluate({s.get()}, got);
  HeuristicEvaluator().evaluate({s.get()}, want);
  REQUIRE(got.size() == 1);
  CHECK(got[0].priors == want[0].priors);
  CHECK(got[0].values == want[0].values);
}

TEST_CASE("selfplay: games as fibers are the games of a thread each", "[selfplay][fibers]") {
  if (!fibers_supported()) return;
  const Game& game = game_by_id("attrition");
  std::vector<std::vector<GameRecord>> runs;
  for (int threads : {0, 1, 2}) {
    const fs::path dir = vzero::testing::temp_dir("sp-fibers-" + std::to_string(threads));
    LateEvaluator late;
    SelfplayJob job = vzero::testing::selfplay_job(game, late, dir.string(),
                                                   vzero::testing::small_selfplay(6, 4, 3, 24, 6));
    job.selfplay.fiber_threads = threads;
    job.selfplay.full_fraction = 0.5;
    job.search.root_noise = true;
    job.seed = 11;
    const SelfplayStats stats = run_selfplay(job);
    CHECK(stats.games == 6);
    std::vector<GameRecord> games = vzero::testing::read_all_shards(dir).games;
    std::sort(games.begin(), games.end(),
              [](const GameRecord& a, const GameRecord& b) { return a.game_id < b.game_id; });
    runs.push_back(games);
  }
  for (size_t r = 1; r < runs.size(); ++r) {
    REQUIRE(runs[r].size() == runs[0].size());
    for (size_t g = 0; g < runs[0].size(); ++g) {
      CHECK(runs[r][g].game_id == runs[0][g].game_id);
      CHECK(runs[r][g].actions == runs[0][g].actions);
      CHECK(runs[r][g].result == runs[0][g].result);
    }
  }
}
