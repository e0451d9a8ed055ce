// PUCT search with vector values, virtual-loss batching and exact results.
#include "search/search.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "search/proof.h"
#include "util/error.h"

namespace vzero {

namespace {

template <class V>
Values to_values(const V& v, int players) {
  VZERO_CHECK(int(v.size()) == players, "evaluator returned " + std::to_string(v.size()) +
                                            " values for " + std::to_string(players) + " seats");
  Values out{};
  for (int s = 0; s < players; ++s) out[s] = float(v[s]);
  return out;
}

// Raises node's priors to the power exponent and renormalises them (all zero stays all zero).
void temper_priors(Node& node, float exponent) {
  float sum = 0.0f;
  for (Edge& e : node.edges) sum += e.prior = e.prior > 0.0f ? std::pow(e.prior, exponent) : 0.0f;
  if (sum > 0.0f)
    for (Edge& e : node.edges) e.prior /= sum;
}

}  // namespace

Search::Search(Evaluator& evaluator, const SearchConfig& config, uint64_t seed, Attach attach)
    : evaluator_(evaluator), attach_(attach), config_(config), rng_(seed) {
  validate(config_);
  if (attach_ == Attach::Lifetime) evaluator_.attach();
}

Search::~Search() {
  if (attach_ == Attach::Lifetime) evaluator_.detach();
}

void Search::set_root(const GameState& state) {
  VZERO_CHECK(state.num_players() <= kMaxSeats, "search supports at most 4 players");
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
  VZERO_CHECK(state_ != nullptr, "search: advance before set_root");
  std::unique_ptr<Node> next;
  if (config_.reuse_tree)
    for (Edge& e : root_->edges)
      if (e.action == action) next = std::move(e.child);
  state_->apply(action);
  // A repetition is a draw only inside the tree, and so may be what a proof
  // below the new root rests on: the game goes on, the proof starts afresh.
  if (next && config_.two_fold_draw && (next->repetition || next->proven) && !state_->is_terminal())
    next.reset();
  // A proof seen on arrival (a repetition, a king that can be captured: win_in_one) has no edges;
  // as the root of a game that goes on, the search needs them.
  if (next && next->proven && !next->expanded && !state_->is_terminal()) next.reset();
  root_ = next ? std::move(next) : std::make_unique<Node>();
  root_noise_.clear();
  if (state_->is_terminal()) {
    if (!root_->proven) mark_terminal(*root_, *state_);
  } else {
    root_->player = int8_t(state_->current_player());
  }
}

float Search::c_puct(int visits) const {
  return float(config_.cpuct + config_.cpuct_growth * std::log((visits + config_.cpuct_base + 1.0) /
                                                               config_.cpuct_base));
}

void Search::mark_terminal(Node& node, const GameState& state) {
  mark_exact(node, state.returns());
}

void Search::mark_exact(Node& node, const std::vector<double>& returns) {
  node.player = -1;
  node.proven = true;
  node.exact = to_values(returns, players_);
}

void Search::mark_draw(Node& node) {
  node.player = -1;
  node.proven = true;
  node.exact = Values{};
}

float Search::draw_value(int seat) const {
  const float s = float(config_.draw_score);
  return seat == root_->player ? s : -s / float(std::max(players_ - 1, 1));
}

float Search::choice_value(const Node& child, int seat) const {
  if (child.proven) return child.exact[seat] + (is_draw(child.exact) ? draw_value(seat) : 0.0f);
  if (child.visits == 0) return 0.0f;
  return (child.value_sum[seat] + draw_value(seat) * float(child.draws)) / float(child.visits);
}

float Search::moves_left_utility(const Node& node, const Node& child, float parent_q) const {
  const double threshold = config_.moves_left_threshold;
  const double scale =
      threshold >= 1.0
          ? 0.0
          : std::clamp((std::fabs(parent_q) - threshold) / (1.0 - threshold), 0.0, 1.0);
  if (scale <= 0.0) return 0.0f;
  // The child's estimate is one ply nearer the end than its parent's.
  const double longer = child.moves_left() + 1.0 - node.moves_left();
  const double u = std::clamp(config_.moves_left_slope * longer, -config_.moves_left_cap,
                              config_.moves_left_cap);
  return float(parent_q > 0 ? -u * scale : u * scale);
}

int Search::select_edge(const Node& node, bool at_root) const {
  const int p = node.player;
  const int parent_n = node.visits + node.in_flight;
  const float explore = c_puct(parent_n) * std::sqrt(float(std::max(parent_n, 1)));
  float visited_prior = 0.0f;
  for (const Edge& e : node.edges)
    if (e.child && e.child->visits + e.child->in_flight > 0) visited_prior += e.prior;
  const float reduction = float(at_root ? config_.fpu_reduction_root : config_.fpu_reduction);
  const float parent_q = node.mean(p);
  const float fpu = parent_q - reduction * std::sqrt(visited_prior);
  const bool noisy = at_root && !root_noise_.empty();
  const bool forcing = noisy && config_.forced_playouts > 0.0;
  const bool moves_left = moves_left_known_ && config_.moves_left_slope > 0.0 && node.visits > 0;
  const float eps = float(config_.noise_fraction), vl = float(config_.virtual_loss);
  const bool contempt = config_.draw_score != 0.0;
  const float contempt_p = contempt ? draw_value(p) : 0.0f;

  assert(!node.edges.empty() && "an expanded, unproven node has edges");
  int best = 0;
  float best_score = -1e30f;
  for (size_t i = 0; i < node.edges.size(); ++i) {
    const Edge& e = node.edges[i];
    const float prior = noisy ? (1.0f - eps) * e.prior + eps * root_noise_[i] : e.prior;
    const Node* c = e.child.get();
    const int n = c ? c->visits + c->in_flight : 0;
    // KataGo's forced playouts: a noised root child below sqrt(k P N) visits goes first.
    if (forcing && !(c && c->proven) &&
        float(n) < std::sqrt(float(config_.forced_playouts) * prior * float(parent_n)))
      return int(i);
    float q = fpu;
    if (c && c->proven)
      q = c->exact[p] + (contempt && is_draw(c->exact) ? contempt_p : 0.0f);
    else if (n > 0)
      q = (c->value_sum[p] - vl * float(c->in_flight) + contempt_p * float(c->draws)) / float(n);
    if (moves_left && c && c->visits > 0) q += moves_left_utility(node, *c, parent_q);
    const float score = q + explore * prior / float(1 + n);
    if (score > best_score) {
      best_score = score;
      best = int(i);
    }
  }
  return best;
}

std::vector<Node*> Search::select(int forced_edge) {
  std::vector<Node*> path{root_.get()};
  Node* node = root_.get();
  std::vector<uint64_t> seen;  // the positions of the path (two_fold_draw)
  if (config_.two_fold_draw) seen.push_back(state_->hash());
  while (node->expanded && !node->proven) {
    const bool at_root = node == root_.get();
    Edge& e = node->edges[at_root && forced_edge >= 0 ? forced_edge : select_edge(*node, at_root)];
    state_->apply(e.action);
    if (config_.two_fold_draw) seen.push_back(state_->hash());
    if (!e.child) {
      e.child = std::make_unique<Node>();
      if (state_->is_terminal()) {
        mark_terminal(*e.child, *state_);
      } else if (config_.two_fold_draw &&
                 std::find(seen.begin(), seen.end() - 1, seen.back()) != seen.end() - 1) {
        // lc0's two-fold draw: shuffling back to a position inside the tree gains nothing.
        mark_draw(*e.child);
        e.child->repetition = true;
      } else if (state_->dead_draw()) {
        mark_draw(*e.child);  // nobody can win any more: a draw, whatever the network would say
      } else if (std::optional<std::vector<double>> solved;
                 config_.solve_endgames && (solved = state_->solved_returns())) {
        // The variant's exact answer, whatever the network would say.
        mark_exact(*e.child, *solved);
      } else if (const int win = config_.win_in_one ? state_->winning_action() : -1; win >= 0) {
        // Its player wins with one action: a proven win, whatever the network would say.
        state_->apply(win);
        mark_terminal(*e.child, *state_);
        state_->undo();
      } else {
        e.child->player = int8_t(state_->current_player());
      }
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
  VZERO_CHECK(e.priors.size() == legal.size(),
              "evaluator returned " + std::to_string(e.priors.size()) + " priors for " +
                  std::to_string(legal.size()) + " actions");
  node.edges.resize(legal.size());
  for (size_t i = 0; i < legal.size(); ++i) {
    node.edges[i].action = legal[i];
    node.edges[i].prior = e.priors[i];
  }
  if (config_.policy_temperature != 1.0)
    temper_priors(node, float(1.0 / config_.policy_temperature));
  node.player = int8_t(state.current_player());
  node.raw_value = e.values.empty() ? 0.0f : e.values[size_t(node.player)];
  node.expanded = true;
}

void Search::remove_virtual_loss(const std::vector<Node*>& path) {
  for (Node* n : path) {
    assert(n->in_flight > 0 && "virtual loss removed once per selection");
    --n->in_flight;
  }
}

void Search::backup(const std::vector<Node*>& path, const Values& v, float moves_left, bool draw) {
  assert(!path.empty() && path.front() == root_.get());
  for (size_t i = 0; i < path.size(); ++i) {
    Node* n = path[i];
    ++n->visits;
    n->draws += draw;
    for (int s = 0; s < players_; ++s) n->value_sum[s] += v[s];
    n->moves_left_sum += moves_left + float(path.size() - 1 - i);
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
    assert(best != nullptr && "a node proven by its children has a proven child");
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

namespace {

// The moves-left estimate of an evaluation (0 when it has none).
float moves_left_of(const Evaluation& e) { return std::max(0.0f, e.moves_left); }

}  // namespace

std::vector<Search::Leaf> Search::gather(int count, int in_flight, const std::vector<int>& forced,
                                         SearchResult& r, int& done) {
  std::vector<Leaf> leaves;
  std::vector<const GameState*> one;
  std::vector<Evaluation> evals;
  const int per_call = config_.batch;
  const auto forced_edge = [&](int i) {
    return forced.empty() ? -1 : forced[size_t(i) % forced.size()];
  };
  while (done + in_flight + int(leaves.size()) < count && int(leaves.size()) < per_call &&
         !root_->proven) {
    std::vector<Node*> path = select(forced_edge(done + in_flight + int(leaves.size())));
    Node* leaf = path.back();
    if (leaf->proven) {  // a terminal or solved position: its exact value, no evaluation
      undo_to_root(path.size() - 1);
      remove_virtual_loss(path);
      backup(path, leaf->exact, leaf->moves_left(), is_draw(leaf->exact));
      ++done;
      continue;
    }
    if (leaf->pending) {  // already in a batch: evaluate what we have
      undo_to_root(path.size() - 1);
      remove_virtual_loss(path);
      break;
    }
    if (per_call == 1) {  // no batch: evaluate in place
      one.assign(1, state_.get());
      evaluator_.evaluate(one, evals);
      expand(*leaf, *state_, evals[0]);
      undo_to_root(path.size() - 1);
      remove_virtual_loss(path);
      backup(path, to_values(evals[0].values, players_), moves_left_of(evals[0]));
      ++done;
      ++r.evaluations;
      continue;
    }
    leaf->pending = true;
    leaves.push_back({std::move(path), state_->clone()});
    undo_to_root(leaves.back().path.size() - 1);
  }
  return leaves;
}

void Search::finish(std::vector<Leaf>& leaves, const std::vector<Evaluation>& evals,
                    SearchResult& r, int& done) {
  assert(evals.size() >= leaves.size() && "one evaluation per state");
  for (size_t i = 0; i < leaves.size(); ++i) {
    Node* leaf = leaves[i].path.back();
    expand(*leaf, *leaves[i].state, evals[i]);
    leaf->pending = false;  // after expand: a leaf it throws on is still pending (playouts)
    remove_virtual_loss(leaves[i].path);
    backup(leaves[i].path, to_values(evals[i].values, players_), moves_left_of(evals[i]));
  }
  done += int(leaves.size());
  r.evaluations += int(leaves.size());
  leaves.clear();
}

void Search::playouts(int count, const std::vector<int>& forced, SearchResult& r) {
  // Batches in flight: the one the evaluator works on and, pipelined, the one gathered meanwhile.
  struct Flight {
    std::vector<Leaf> leaves;
    std::vector<const GameState*> states;
    std::vector<Evaluation> evals;
    std::unique_ptr<PendingEvaluation> pending;
  };
  const auto start = [&](Flight& f) {
    f.states.clear();
    for (const Leaf& l : f.leaves) f.states.push_back(l.state.get());
    f.pending = evaluator_.submit(f.states, f.evals);
  };
  const auto land = [&](Flight& f, int& done) {
    f.pending->wait();
    f.pending.reset();
    finish(f.leaves, f.evals, r, done);
  };
  int done = 0;
  // Each pending evaluation writes into its own flight's evals: flights swap as pointers.
  auto a = std::make_unique<Flight>(), b = std::make_unique<Flight>();
  // After a failed evaluation the leaves still in flight lose their pending mark and virtual loss,
  // so that the tree stays searchable (a pending leaf would stop every later batch at once).
  const auto abandon = [&](Flight& f) {
    f.pending.reset();  // waits for the evaluator to let go of the states
    for (Leaf& l : f.leaves)
      if (l.path.back()->pending) {
        l.path.back()->pending = false;
        remove_virtual_loss(l.path);
      }
    f.leaves.clear();
  };
  try {
    if (!config_.pipeline || config_.batch == 1) {
      while (done < count && !root_->proven) {
        a->leaves = gather(count, 0, forced, r, done);
        if (a->leaves.empty()) continue;
        start(*a);
        land(*a, done);
      }
    } else {
      a->leaves = gather(count, 0, forced, r, done);
      if (!a->leaves.empty()) start(*a);
      while (!a->leaves.empty()) {
        b->leaves = gather(count, int(a->leaves.size()), forced, r, done);
        if (!b->leaves.empty()) start(*b);
        land(*a, done);
        std::swap(a, b);
        if (a->leaves.empty() && done < count && !root_->proven) {
          a->leaves = gather(count, 0, forced, r, done);
          if (!a->leaves.empty()) start(*a);
        }
      }
    }
  } catch (...) {
    abandon(*a);
    abandon(*b);
    r.simulations += done;
    throw;
  }
  r.simulations += done;
}

SearchResult Search::run(int simulations) {
  VZERO_CHECK(state_ != nullptr, "search: run before set_root");
  VZERO_CHECK(!state_->is_terminal(), "search: the game is over");
  if (simulations <= 0) simulations = config_.simulations;
  // Attach::WhileRunning: a caller of the evaluator until this call returns (or throws).
  struct Attached {
    Evaluator* evaluator;
    explicit Attached(Evaluator* e) : evaluator(e) {
      if (evaluator) evaluator->attach();
    }
    ~Attached() {
      if (evaluator) evaluator->detach();
    }
  } attached(attach_ == Attach::WhileRunning ? &evaluator_ : nullptr);
  SearchResult r;

  if (!root_->expanded && !root_->proven) {
    std::vector<const GameState*> batch{state_.get()};
    std::vector<Evaluation> evals;
    evaluator_.evaluate(batch, evals);
    moves_left_known_ = moves_left_known_ || evals[0].moves_left >= 0.0f;
    expand(*root_, *state_, evals[0]);
    backup({root_.get()}, to_values(evals[0].values, players_), moves_left_of(evals[0]));
    ++r.simulations;
    ++r.evaluations;
  }
  if (!root_->proven) prove_root(r);
  const bool gumbel = config_.root_selection == "gumbel" && root_->edges.size() > 1;
  if (config_.root_noise && !gumbel)
    apply_root_noise();
  else
    root_noise_.clear();

  int gumbel_best = -1;
  if (gumbel && !root_->proven)
    gumbel_best = run_gumbel(simulations - r.simulations, r);
  else
    playouts(simulations - r.simulations, {}, r);
  report(r, gumbel_best);
  return r;
}

void Search::prove_root(SearchResult& r) {
  std::vector<double> returns;
  int action = config_.solve_endgames ? winning_child(&returns) : -1;
  if (action < 0) {
    const int64_t budget = config_.proof_nodes >= 0 ? config_.proof_nodes : state_->proof_budget();
    if (budget <= 0 || players_ != 2) return;
    const Proof proof = prove(*state_, budget);
    if (proof.winner != root_->player) return;
    action = proof.action;
    returns.assign(2, -1.0);
    returns[size_t(proof.winner)] = 1.0;
  }
  for (size_t i = 0; i < root_->edges.size(); ++i) {
    Edge& e = root_->edges[i];
    if (e.action != action) continue;
    e.child = std::make_unique<Node>();  // any subtree from tree reuse gives way to the proof
    mark_exact(*e.child, returns);
    playouts(1, {int(i)}, r);
    return;
  }
}

int Search::winning_child(std::vector<double>* returns) {
  const size_t me = size_t(root_->player);
  const auto won = [&](const std::optional<std::vector<double>>& r) {
    return r && (*r)[me] > 0.0 && *std::max_element(r->begin(), r->end()) == (*r)[me];
  };
  // A game-ending child is looked for only where the variant calls the root won (007's last move
  // of a turn); elsewhere the tree finds it, and MultiPV analysis keeps its lines.
  const bool root_won = won(state_->solved_returns());
  for (const Edge& e : root_->edges) {
    state_->apply(e.action);
    // solved_returns is nullopt once the game is over.
    std::optional<std::vector<double>> r =
        root_won && state_->is_terminal() ? state_->returns() : state_->solved_returns();
    state_->undo();
    if (won(r)) {
      *returns = std::move(*r);
      return e.action;
    }
  }
  return -1;
}

int Search::choose_action(const SearchResult& r) {
  VZERO_CHECK(!r.actions.empty(), "search: no action to choose");
  if (r.proven || config_.root_selection == "gumbel") return r.best_action;
  const double t = temperature_at(state_->plies());
  if (t < 0.01) return r.best_action;
  // Sample by visits^(1/t), leaving out proven losses unless nothing else is left.
  const double most = double(*std::max_element(r.visits.begin(), r.visits.end()));
  std::vector<double> weight(r.actions.size(), 0.0);
  double sum = 0.0;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const Node* c = root_->edges[i].child.get();
    if (r.visits[i] == 0 || (c && c->proven && is_loss(c->exact, r.player))) continue;
    sum += weight[i] = std::pow(double(r.visits[i]) / most, 1.0 / t);
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

double Search::temperature_at(int ply) const {
  if (config_.temperature_halflife > 0.0)
    return config_.final_temperature + (config_.temperature - config_.final_temperature) *
                                           std::exp2(-double(ply) / config_.temperature_halflife);
  return ply < config_.temperature_plies ? config_.temperature : config_.final_temperature;
}

}  // namespace vzero
