// The batching inference server and its cache.
#include "net/server.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "game/symmetry.h"
#include "game/zobrist.h"
#include "net/checkpoint.h"
#include "net/model.h"
#include "net/spec/value_seats.h"
#include "util/error.h"

namespace vzero {

namespace {

// The requests of one evaluate() call: the caller sleeps until all are answered.
struct Ticket {
  std::mutex m;
  std::function<void()> done;  // called once every request is answered (before the caller wakes)
  std::function<void()> wake;  // likewise, after answered is set (PendingEvaluation::on_ready)
  std::condition_variable cv;
  int remaining = 0;
  std::atomic<bool> answered{false};  // remaining reached 0 (read without the lock by a spinner)
  std::string error;                  // set when the network failed on a batch
};

// How long a lone caller and the worker serving it spin before they sleep:
// a lone search sends its next batch within a fraction of a millisecond of
// the last answer, and a batch of a few positions takes about a millisecond,
// while waking a sleeping thread costs tens of microseconds each way.
constexpr auto kLoneSpin = std::chrono::microseconds(2000);

// Spins (yielding the core) until ready() or for at most kLoneSpin.
template <class Ready>
void spin_until(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kLoneSpin;
  while (!ready() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
}

struct Request {
  std::vector<float> input;       // channels x H x W
  const std::vector<int>* legal;  // the state's legal actions (alive while the caller waits)
  int player = 0;                 // seat to act: value index 0
  uint64_t key = 0;
  const BoardSymmetry* symmetry = nullptr;  // the input is seen through it (null: as it is)
  Evaluation* out = nullptr;
  Ticket* ticket = nullptr;
};

// A direct-mapped cache: a position's key picks one slot, and a new entry replaces the one there.
// The slots keep their vectors, so a warm cache allocates nothing: bounded memory, and no churn
// that would fragment the heap (a map cleared when full grew World self-play to gigabytes).
class Cache {
 public:
  explicit Cache(size_t entries) : slots_(entries) {}
  bool enabled() const { return !slots_.empty(); }
  bool find(uint64_t key, size_t legal, Evaluation& out) {
    const size_t i = index(key);
    std::lock_guard<std::mutex> lock(stripes_[i % kStripes]);
    const Slot& s = slots_[i];
    if (!s.used || s.key != key || s.priors.size() != legal) return false;
    out.priors.assign(s.priors.begin(), s.priors.end());
    out.values.assign(s.values.begin(), s.values.end());
    out.moves_left = s.moves_left;
    return true;
  }
  void put(uint64_t key, const Evaluation& e) {
    const size_t i = index(key);
    std::lock_guard<std::mutex> lock(stripes_[i % kStripes]);
    Slot& s = slots_[i];
    s.used = true;
    s.key = key;
    s.priors.assign(e.priors.begin(), e.priors.end());
    s.values.assign(e.values.begin(), e.values.end());
    s.moves_left = e.moves_left;
  }

 private:
  static constexpr size_t kStripes = 64;
  struct Slot {
    bool used = false;
    uint64_t key = 0;
    std::vector<float> priors, values;
    float moves_left = -1.0f;
  };
  // The slot of a key: its high bits, mixed (keys of one game differ little in their low bits).
  size_t index(uint64_t key) const {
    return size_t(((key * 0x9E3779B97F4A7C15ull) >> 32) % slots_.size());
  }
  std::vector<Slot> slots_;
  std::mutex stripes_[kStripes];
};

uint64_t mix_scalars(uint64_t key, const std::vector<float>& scalars) {
  uint64_t h = key ^ 0x9E3779B97F4A7C15ull;
  for (float f : scalars) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

}  // namespace

struct InferenceServer::Impl {
  const Game& game;
  ServerConfig config;
  EncodingSpec spec;  // the model's encoding
  PolicyValueNet model{nullptr};
  torch::Device device{torch::kCPU};
  int generation = 0;
  Cache cache;
  std::vector<BoardSymmetry> symmetries;  // for random_symmetry: the variant's declared ones

  std::mutex m;
  std::condition_variable cv;
  std::deque<Request*> queue;
  bool stopping = false;
  int attached = 0;                  // callers attached (guarded by m)
  std::atomic<int> attached_now{0};  // its value, for spinners without the lock
  std::atomic<int> queued{0};        // queue.size(), likewise
  int waiting = 0;                   // evaluate calls queued and not yet answered (guarded by m)
  std::vector<std::thread> workers;

  // Nobody else can add to a batch: every attached caller waits on the server.
  bool all_waiting() const { return attached > 0 && waiting >= attached; }
  // Few callers (a match's games, a frontend): each can have a worker of its own, so none waits
  // for another's leaves (guarded by m).
  bool worker_per_caller() const { return attached > 0 && attached <= config.workers; }

  std::mutex stats_m;
  ServerStats stats;

  Impl(const Game& g, const ServerConfig& c) : game(g), config(c), cache(c.cache_entries) {
    if (c.random_symmetry) symmetries = board_symmetries(g);
  }

  // Worker index runs whole batches; only worker 0 spins for a lone caller (more spinners would
  // take the cores that caller's search needs).
  void worker_loop(int index) {
    at::set_num_threads(config.threads_per_worker);
    c10::InferenceMode guard;
    std::vector<Request*> batch;
    for (;;) {
      batch.clear();
      {
        std::unique_lock<std::mutex> lock(m);
        if (index == 0 && queue.empty() && attached_now.load() == 1) {
          lock.unlock();  // a lone caller: its next batch comes soon
          spin_until([&] { return queued.load() > 0; });
          lock.lock();
        }
        cv.wait(lock, [&] { return stopping || !queue.empty(); });
        if (stopping && queue.empty()) return;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::microseconds(config.max_wait_us);
        while (int(queue.size()) < config.max_batch && !stopping && !all_waiting() &&
               !worker_per_caller() && cv.wait_until(lock, deadline) != std::cv_status::timeout) {
        }
        // With a worker per caller, a batch is one caller's call: two callers' calls run on two
        // workers at once instead of one after the other in one batch on one worker.
        const Ticket* first = queue.empty() ? nullptr : queue.front()->ticket;
        while (!queue.empty() && int(batch.size()) < config.max_batch &&
               (!worker_per_caller() || queue.front()->ticket == first)) {
          batch.push_back(queue.front());
          queue.pop_front();
        }
        queued = int(queue.size());
      }
      try {
        run_batch(batch);
      } catch (const std::exception& e) {
        for (Request* r : batch) finish(*r, std::string("network evaluation failed: ") + e.what());
      }
    }
  }

  // Marks one request answered (or failed) and wakes its caller when its call is complete.
  static void finish(Request& r, const std::string& error = "") {
    std::lock_guard<std::mutex> lock(r.ticket->m);
    if (!error.empty()) r.ticket->error = error;
    if (--r.ticket->remaining == 0) {
      if (r.ticket->done) r.ticket->done();
      r.ticket->answered = true;
      if (r.ticket->wake) r.ticket->wake();
      r.ticket->cv.notify_all();
    }
  }

  void run_batch(const std::vector<Request*>& batch) {
    const int n = int(batch.size());
    const int size = spec.channels() * spec.plane_size();
    torch::Tensor input = torch::empty({n, spec.channels(), spec.height, spec.width});
    float* dst = input.data_ptr<float>();
    for (int i = 0; i < n; ++i) {
      assert(batch[i]->input.size() == size_t(size) && "an encoded input of the network's shape");
      std::memcpy(dst + size_t(i) * size, batch[i]->input.data(), size * sizeof(float));
    }
    const NetOutput out = model->forward(input.to(device));
    const torch::Tensor policy = out.policy.to(torch::kCPU).contiguous();
    const torch::Tensor values = out.values.to(torch::kCPU).contiguous();
    const torch::Tensor moves_left =
        out.moves_left.defined() ? out.moves_left.to(torch::kCPU).contiguous() : torch::Tensor();
    const float* pl = policy.data_ptr<float>();
    const float* vl = values.data_ptr<float>();
    const float* ml = moves_left.defined() ? moves_left.data_ptr<float>() : nullptr;
    const int actions = int(policy.size(1)), players = int(values.size(1));
    // A diverged network (NaN or infinite weights) must not steer searches silently.
    const auto finite = [](const float* x, size_t count) {
      return std::all_of(x, x + count, [](float f) { return std::isfinite(f); });
    };
    if (!finite(pl, size_t(n) * actions) || !finite(vl, size_t(n) * players) ||
        (ml && !finite(ml, size_t(n))))
      throw Error("its outputs are not finite numbers (diverged weights?)");
    for (int i = 0; i < n; ++i) {
      Request& r = *batch[i];
      Evaluation& e = *r.out;
      const float* logits = pl + size_t(i) * actions;
      // Softmax over the legal actions only.
      assert(!r.legal->empty() && "only positions with legal actions are evaluated");
      e.priors.resize(r.legal->size());
      float top = -1e30f;
      // An input seen through a symmetry answers in its frame: action a's logit is at its image.
      const auto logit = [&](int a) {
        return logits[r.symmetry ? r.symmetry->action[size_t(a)] : a];
      };
      for (int a : *r.legal) top = std::max(top, logit(a));
      float sum = 0.0f;
      for (size_t k = 0; k < r.legal->size(); ++k)
        sum += e.priors[k] = std::exp(logit((*r.legal)[k]) - top);
      for (float& p : e.priors) p /= sum;
      e.values.assign(players, 0.0f);
      for (int k = 0; k < players; ++k)
        e.values[value_output_seat(r.player, k, players)] = vl[size_t(i) * players + k];
      e.moves_left = ml ? std::max(0.0f, ml[i]) : -1.0f;
      if (cache.enabled()) cache.put(r.key, e);
    }
    {
      std::lock_guard<std::mutex> lock(stats_m);
      stats.evaluated += n;
      stats.batches += 1;
    }
    for (Request* r : batch) finish(*r);
  }
};

InferenceServer::InferenceServer(const Game& game, const ServerConfig& config,
                                 const std::string& checkpoint, const ModelConfig& fresh,
                                 uint64_t seed)
    : impl_(std::make_unique<Impl>(game, config)) {
  impl_->device = parse_device(config.device);
  if (checkpoint.empty()) {
    impl_->model = make_model(fresh, ModelIdentity::of(game, fresh.encoding), seed);
  } else {
    Checkpoint c = load_checkpoint_for(game, checkpoint);
    impl_->model = c.model;
    impl_->generation = c.generation;
  }
  impl_->spec = game.encoding(impl_->model->identity.encoding);
  impl_->model->to(impl_->device);
  impl_->model = inference_model(impl_->model, config.form);
  for (int w = 0; w < config.workers; ++w)
    impl_->workers.emplace_back([this, w] { impl_->worker_loop(w); });
}

InferenceServer::~InferenceServer() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  for (std::thread& t : impl_->workers) t.join();
}

// A server evaluation under way: its requests wait in the queue or run in a batch.
struct ServerPending : PendingEvaluation {
  InferenceServer::Impl& s;
  Ticket ticket;
  std::vector<Request> requests;
  bool queued = false, waited = false;

  explicit ServerPending(InferenceServer::Impl& server) : s(server) {}
  ~ServerPending() override {  // the workers must be done with the requests
    if (queued && !waited) {
      std::unique_lock<std::mutex> lock(ticket.m);
      ticket.cv.wait(lock, [&] { return ticket.remaining == 0; });
    }
  }
  void wait() override {
    waited = true;
    if (!queued) return;
    if (s.attached_now.load() == 1) spin_until([&] { return ticket.answered.load(); });
    std::unique_lock<std::mutex> lock(ticket.m);
    ticket.cv.wait(lock, [&] { return ticket.remaining == 0; });
    if (!ticket.error.empty()) throw Error(ticket.error);
  }
  bool ready() const override { return !queued || ticket.answered.load(); }
  void on_ready(std::function<void()> wake) override {
    {
      std::lock_guard<std::mutex> lock(ticket.m);
      if (queued && ticket.remaining > 0) {
        ticket.wake = std::move(wake);
        return;
      }
    }
    wake();
  }
};

void InferenceServer::evaluate(const std::vector<const GameState*>& states,
                               std::vector<Evaluation>& out) {
  submit(states, out)->wait();
}

std::unique_ptr<PendingEvaluation> InferenceServer::submit(
    const std::vector<const GameState*>& states, std::vector<Evaluation>& out) {
  Impl& s = *impl_;
  const EncodingSpec& spec = s.spec;
  out.resize(states.size());
  auto pending = std::make_unique<ServerPending>(s);
  std::vector<Request>& requests = pending->requests;
  requests.resize(states.size());
  Ticket& ticket = pending->ticket;
  std::vector<uint8_t> planes(size_t(spec.planes) * spec.plane_size()), mapped(planes.size());
  std::vector<float> scalars(spec.scalars);
  std::vector<Request*> misses;
  uint64_t hits = 0;
  for (size_t i = 0; i < states.size(); ++i) {
    const GameState& st = *states[i];
    st.encode(planes.data(), scalars.data(), s.model->input_plies, s.model->identity.encoding);
    Request& r = requests[i];
    r.key = mix_scalars(st.hash(), scalars);
    r.legal = &st.legal_actions();
    if (s.cache.enabled() && s.cache.find(r.key, r.legal->size(), out[i])) {
      ++hits;
      continue;
    }
    r.input.resize(size_t(spec.channels()) * spec.plane_size());
    uint64_t mix =
        r.key;  // the view follows from the position: repeatable, and the cache stays right
    const size_t view =
        s.symmetries.empty() ? 0 : size_t(splitmix64(mix) % (s.symmetries.size() + 1));
    r.symmetry = view == 0 ? nullptr : &s.symmetries[view - 1];
    if (r.symmetry) map_planes(*r.symmetry, spec, planes.data(), mapped.data());
    expand_input(spec, r.symmetry ? mapped.data() : planes.data(), scalars.data(), r.input.data());
    r.player = st.current_player();
    r.out = &out[i];
    r.ticket = &ticket;
    misses.push_back(&r);
  }
  {
    std::lock_guard<std::mutex> lock(s.stats_m);
    s.stats.requests += states.size();
    s.stats.cache_hits += hits;
  }
  if (misses.empty()) return pending;
  ticket.remaining = int(misses.size());
  ticket.done = [&s] {
    std::lock_guard<std::mutex> lock(s.m);
    --s.waiting;
  };
  {
    std::lock_guard<std::mutex> lock(s.m);
    for (Request* r : misses) s.queue.push_back(r);
    s.queued = int(s.queue.size());
    ++s.waiting;
  }
  pending->queued = true;
  s.cv.notify_all();
  return pending;
}

void InferenceServer::attach() {
  std::lock_guard<std::mutex> lock(impl_->m);
  impl_->attached_now = ++impl_->attached;
}

void InferenceServer::detach() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->attached_now = --impl_->attached;
  }
  impl_->cv.notify_all();  // the callers left may all be waiting now
}

ServerStats InferenceServer::stats() const {
  std::lock_guard<std::mutex> lock(impl_->stats_m);
  return impl_->stats;
}

void InferenceServer::reset_stats() {
  std::lock_guard<std::mutex> lock(impl_->stats_m);
  impl_->stats = ServerStats{};
}

int InferenceServer::generation() const { return impl_->generation; }

double InferenceServer::measure_evals_per_s(int batch, double seconds) {
  Impl& s = *impl_;
  std::vector<double> rates(size_t(s.config.workers), 0.0);
  std::vector<std::thread> threads;
  for (int w = 0; w < s.config.workers; ++w)
    threads.emplace_back([&, w] {
      at::set_num_threads(s.config.threads_per_worker);
      c10::InferenceMode guard;
      const torch::Tensor x =
          torch::rand({batch, s.spec.channels(), s.spec.height, s.spec.width}).to(s.device);
      for (int i = 0; i < 3; ++i) s.model->forward(x);
      int iters = 0;
      double elapsed = 0.0;
      const auto start = std::chrono::steady_clock::now();
      while (elapsed < seconds || iters < 3) {
        s.model->forward(x).policy.to(torch::kCPU);
        ++iters;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      rates[size_t(w)] = batch * iters / elapsed;
    });
  for (std::thread& t : threads) t.join();
  double total = 0.0;
  for (double r : rates) total += r;
  return total;
}

const ModelIdentity& InferenceServer::identity() const { return impl_->model->identity; }

int InferenceServer::input_plies() const { return impl_->model->input_plies; }

std::vector<float> InferenceServer::input_of(const GameState& state) const {
  const EncodingSpec& spec = impl_->spec;
  std::vector<uint8_t> planes(size_t(spec.planes) * spec.plane_size());
  std::vector<float> scalars(spec.scalars), input(size_t(spec.channels()) * spec.plane_size());
  state.encode(planes.data(), scalars.data(), impl_->model->input_plies,
               impl_->model->identity.encoding);
  expand_input(spec, planes.data(), scalars.data(), input.data());
  return input;
}

}  // namespace vzero
