// PUCT search with vector values, virtual-loss batching and exact results.
#include "mcts/search.h"

#include <algorithm>
#include <cmath>

#include "game/error.h"

namespace vzero {

namespace {

constexpr float kWin = 1.0f - 1e-6f;

// The best value a seat can get: a proven child reaching it decides its parent.
bool is_win(const Values& v, int seat) { return v[seat] >= kWin; }
bool is_loss(const Values& v, int seat) { return v[seat] <= -kWin; }

template <class V>
Values to_values(const V& v, int players) {
  check(int(v.size()) == players, "evaluator returned " + std::to_string(v.size()) +
                                      " values for " + std::to_string(players) + " seats");
  Values out{};
  for (int s = 0; s < players; ++s) out[s] = float(v[s]);
  return out;
}

}  // namespace

Search::Search(Evaluator& evaluator, const SearchConfig& config, uint64_t seed)
    : evaluator_(evaluator), config_(config), rng_(seed) {
  validate(config_);
}

Search::~Search() = default;

void Search::set_root(const GameState& state) {
  check(state.num_players() <= kMaxSeats, "search supports at most 4 players");
  state_ = state.clone();
  players_ = state.num_players();
  root_ = std::make_unique<Node>();
  root_noise_.clear();
  if (state_->is_terminal())
    mark_terminal(*root_, *state_);
  else
    root_->player = int8_t(state_->current_player());
}

void Search::advance(int action) {
  check(state_ != nullptr, "search: advance before set_root");
  std::unique_ptr<Node> next;
  if (config_.reuse_tree)
    for (Edge& e : root_->edges)
      if (e.action == action) next = std::move(e.child);
  state_->apply(action);
  root_ = next ? std::move(next) : std::make_unique<Node>();
  root_noise_.clear();
  if (state_->is_terminal()) {
    if (!root_->proven) mark_terminal(*root_, *state_);
  } else {
    root_->player = int8_t(state_->current_player());
  }
}

float Search::c_puct(int visits) const {
  return float(config_.cpuct +
               config_.cpuct_growth * std::log((visits + config_.cpuct_base + 1.0) / config_.cpuct_base));
}

void Search::mark_terminal(Node& node, const GameState& state) {
  node.player = -1;
  node.proven = true;
  node.exact = to_values(state.returns(), players_);
}

int Search::select_edge(const Node& node, bool at_root) const {
  const int p = node.player;
  const int parent_n = node.visits + node.in_flight;
  const float explore = c_puct(parent_n) * std::sqrt(float(std::max(parent_n, 1)));
  float visited_prior = 0.0f;
  for (const Edge& e : node.edges)
    if (e.child && e.child->visits + e.child->in_flight > 0) visited_prior += e.prior;
  const float reduction = float(at_root ? config_.fpu_reduction_root : config_.fpu_reduction);
  const float fpu = node.mean(p) - reduction * std::sqrt(visited_prior);
  const bool noisy = at_root && !root_noise_.empty();
  const float eps = float(config_.noise_fraction), vl = float(config_.virtual_loss);

  int best = 0;
  float best_score = -1e30f;
  for (size_t i = 0; i < node.edges.size(); ++i) {
    const Edge& e = node.edges[i];
    const float prior = noisy ? (1.0f - eps) * e.prior + eps * root_noise_[i] : e.prior;
    const Node* c = e.child.get();
    const int n = c ? c->visits + c->in_flight : 0;
    float q = fpu;
    if (c && c->proven)
      q = c->exact[p];
    else if (n > 0)
      q = (c->value_sum[p] - vl * float(c->in_flight)) / float(n);
    const float score = q + explore * prior / float(1 + n);
    if (score > best_score) {
      best_score = score;
      best = int(i);
    }
  }
  return best;
}

std::vector<Node*> Search::select() {
  std::vector<Node*> path{root_.get()};
  Node* node = root_.get();
  while (node->expanded && !node->proven) {
    Edge& e = node->edges[select_edge(*node, node == root_.get())];
    state_->apply(e.action);
    if (!e.child) {
      e.child = std::make_unique<Node>();
      if (state_->is_terminal())
        mark_terminal(*e.child, *state_);
      else
        e.child->player = int8_t(state_->current_player());
    }
    node = e.child.get();
    path.push_back(node);
  }
  for (Node* n : path) ++n->in_flight;
  return path;
}

void Search::undo_to_root(size_t depth) {
  for (size_t i = 0; i < depth; ++i) state_->undo();
}

void Search::expand(Node& node, const GameState& state, const Evaluation& e) {
  const std::vector<int>& legal = state.legal_actions();
  check(e.priors.size() == legal.size(), "evaluator returned " + std::to_string(e.priors.size()) +
                                             " priors for " + std::to_string(legal.size()) + " actions");
  node.edges.resize(legal.size());
  for (size_t i = 0; i < legal.size(); ++i) {
    node.edges[i].action = legal[i];
    node.edges[i].prior = e.priors[i];
  }
  node.player = int8_t(state.current_player());
  node.expanded = true;
}

void Search::remove_virtual_loss(const std::vector<Node*>& path) {
  for (Node* n : path) --n->in_flight;
}

void Search::backup(const std::vector<Node*>& path, const Values& v) {
  for (Node* n : path) {
    ++n->visits;
    for (int s = 0; s < players_; ++s) n->value_sum[s] += v[s];
  }
  // A node whose player has a proven win below, or whose children are all
  // proven, takes the exact value of its best child.
  for (size_t i = path.size() - 1; i-- > 0;) {
    Node& n = *path[i];
    if (n.proven || !n.expanded) break;
    const int p = n.player;
    const Node* best = nullptr;
    bool all = true, win = false;
    for (const Edge& e : n.edges) {
      const Node* c = e.child.get();
      if (!c || !c->proven) {
        all = false;
        continue;
      }
      if (!best || c->exact[p] > best->exact[p]) best = c;
      if (is_win(c->exact, p)) {
        win = true;
        break;
      }
    }
    if (!win && !all) break;
    n.proven = true;
    n.exact = best->exact;
  }
}

void Search::apply_root_noise() {
  const size_t n = root_->edges.size();
  root_noise_.assign(n, 0.0f);
  if (n < 2) return;
  std::gamma_distribution<double> gamma(config_.dirichlet_alpha / double(n), 1.0);
  double sum = 0.0;
  std::vector<double> g(n);
  for (double& x : g) sum += (x = gamma(rng_));
  for (size_t i = 0; i < n; ++i) root_noise_[i] = sum > 0 ? float(g[i] / sum) : 1.0f / float(n);
}

SearchResult Search::run(int simulations) {
  check(state_ != nullptr, "search: run before set_root");
  check(!state_->is_terminal(), "search: the game is over");
  if (simulations <= 0) simulations = config_.simulations;
  SearchResult r;
  std::vector<const GameState*> batch;
  std::vector<Evaluation> evals;

  if (!root_->expanded && !root_->proven) {
    batch.assign(1, state_.get());
    evaluator_.evaluate(batch, evals);
    expand(*root_, *state_, evals[0]);
    backup({root_.get()}, to_values(evals[0].values, players_));
    ++r.simulations;
    ++r.evaluations;
  }
  if (config_.root_noise)
    apply_root_noise();
  else
    root_noise_.clear();

  const int per_call = config_.batch;
  std::vector<Leaf> leaves;
  while (r.simulations < simulations && !root_->proven) {
    leaves.clear();
    while (r.simulations + int(leaves.size()) < simulations && int(leaves.size()) < per_call &&
           !root_->proven) {
      std::vector<Node*> path = select();
      Node* leaf = path.back();
      if (leaf->proven) {  // a terminal or solved position: its exact value, no evaluation
        undo_to_root(path.size() - 1);
        remove_virtual_loss(path);
        backup(path, leaf->exact);
        ++r.simulations;
        continue;
      }
      if (leaf->pending) {  // already in this batch: evaluate what we have
        undo_to_root(path.size() - 1);
        remove_virtual_loss(path);
        break;
      }
      if (per_call == 1) {  // no batch: evaluate in place
        batch.assign(1, state_.get());
        evaluator_.evaluate(batch, evals);
        expand(*leaf, *state_, evals[0]);
        undo_to_root(path.size() - 1);
        remove_virtual_loss(path);
        backup(path, to_values(evals[0].values, players_));
        ++r.simulations;
        ++r.evaluations;
        continue;
      }
      leaf->pending = true;
      leaves.push_back({std::move(path), state_->clone()});
      undo_to_root(leaves.back().path.size() - 1);
    }
    if (leaves.empty()) continue;
    batch.clear();
    for (const Leaf& l : leaves) batch.push_back(l.state.get());
    evaluator_.evaluate(batch, evals);
    for (size_t i = 0; i < leaves.size(); ++i) {
      Node* leaf = leaves[i].path.back();
      leaf->pending = false;
      expand(*leaf, *leaves[i].state, evals[i]);
      remove_virtual_loss(leaves[i].path);
      backup(leaves[i].path, to_values(evals[i].values, players_));
    }
    r.simulations += int(leaves.size());
    r.evaluations += int(leaves.size());
  }

  // Report the root.
  const Node& root = *root_;
  const int p = root.player;
  r.player = p;
  r.proven = root.proven;
  r.value.resize(players_);
  for (int s = 0; s < players_; ++s) r.value[s] = root.proven ? root.exact[s] : root.mean(s);
  int total = 0;
  for (const Edge& e : root.edges) {
    r.actions.push_back(e.action);
    const int n = e.child ? e.child->visits : 0;
    r.visits.push_back(n);
    total += n;
  }
  for (int n : r.visits) r.policy.push_back(total ? float(n) / float(total) : 1.0f / float(r.visits.size()));
  // Best: a proven child with the best exact value when the root is proven,
  // else the most visited child that is not a proven loss (ties: higher prior).
  int best = -1;
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Node* c = root.edges[i].child.get();
    if (root.proven) {
      if (!c || !c->proven) continue;
      const Node* b = best < 0 ? nullptr : root.edges[best].child.get();
      if (!b || c->exact[p] > b->exact[p] || (c->exact[p] == b->exact[p] && c->visits > b->visits))
        best = int(i);
      continue;
    }
    if (c && c->proven && is_loss(c->exact, p)) continue;
    if (best < 0 || r.visits[i] > r.visits[best] ||
        (r.visits[i] == r.visits[best] && root.edges[i].prior > root.edges[best].prior))
      best = int(i);
  }
  if (best < 0) best = int(std::max_element(r.visits.begin(), r.visits.end()) - r.visits.begin());
  r.best_action = r.actions[best];
  return r;
}

int Search::choose_action(const SearchResult& r) {
  check(!r.actions.empty(), "search: no action to choose");
  if (r.proven) return r.best_action;
  const double t = state_->plies() < config_.temperature_plies ? config_.temperature : config_.final_temperature;
  if (t <= 0.0) return r.best_action;
  // Sample by visits^(1/t), leaving out proven losses unless nothing else is left.
  std::vector<double> weight(r.actions.size(), 0.0);
  double sum = 0.0;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const Node* c = root_->edges[i].child.get();
    if (r.visits[i] == 0 || (c && c->proven && is_loss(c->exact, r.player))) continue;
    sum += weight[i] = std::pow(double(r.visits[i]), 1.0 / t);
  }
  if (sum <= 0.0) return r.best_action;
  std::uniform_real_distribution<double> u(0.0, sum);
  double x = u(rng_);
  for (size_t i = 0; i < weight.size(); ++i) {
    if (weight[i] <= 0.0) continue;
    if ((x -= weight[i]) <= 0.0) return r.actions[i];
  }
  return r.best_action;
}

}  // namespace vzero
