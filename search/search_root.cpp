// What a search says about its root: the report, the policy target (visits,
// pruned visits, or a Gumbel root's improved policy) and Gumbel sequential halving.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include "search/search.h"

namespace vzero {

namespace {

// A root value in [-1, 1] mapped to [0, 1], as the Gumbel paper's sigma expects.
float unit(float q) { return 0.5f * (q + 1.0f); }

}  // namespace

std::vector<float> Search::completed_q() const {
  const Node& root = *root_;
  const int p = root.player;
  // v_mix: the raw value, blended with the prior-weighted Q of the visited children.
  double visited_prior = 0.0, weighted_q = 0.0;
  int visits = 0;
  for (const Edge& e : root.edges)
    if (e.child && (e.child->visits > 0 || e.child->proven)) {
      visited_prior += e.prior;
      weighted_q += e.prior * unit(choice_value(*e.child, p));
      visits += std::max(1, e.child->visits);
    }
  double mix = unit(root.raw_value);
  if (visits > 0 && visited_prior > 0.0)
    mix = (mix + visits * (weighted_q / visited_prior)) / (1.0 + visits);
  std::vector<float> q(root.edges.size(), float(mix));
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Node* c = root.edges[i].child.get();
    if (c && (c->visits > 0 || c->proven)) q[i] = unit(choice_value(*c, p));
  }
  return q;
}

int Search::run_gumbel(int simulations, SearchResult& r) {
  const Node& root = *root_;
  const size_t k = root.edges.size();
  // Gumbel noise (on noised searches) plus the log prior: sampling the top m without replacement.
  gumbel_.assign(k, 0.0f);
  std::uniform_real_distribution<double> u(1e-12, 1.0);
  for (size_t i = 0; i < k; ++i) {
    const double g = config_.root_noise ? -std::log(-std::log(u(rng_))) : 0.0;
    gumbel_[i] = float(g + std::log(std::max(root.edges[i].prior, 1e-12f)));
  }
  std::vector<int> remaining(k);
  std::iota(remaining.begin(), remaining.end(), 0);
  std::stable_sort(remaining.begin(), remaining.end(),
                   [&](int a, int b) { return gumbel_[a] > gumbel_[b]; });
  remaining.resize(std::min<size_t>(k, size_t(config_.gumbel_actions)));

  // sigma(q) grows with the most visited child, so Q matters more as visits accumulate.
  const auto score = [&](const std::vector<float>& q, int i) {
    int most = 0;
    for (const Edge& e : root.edges) most = std::max(most, e.child ? e.child->visits : 0);
    return gumbel_[i] + float((config_.gumbel_c_visit + most) * config_.gumbel_c_scale) * q[i];
  };
  const int phases = std::max(1, int(std::ceil(std::log2(double(remaining.size())))));
  int budget = simulations;
  for (int phase = 0; phase < phases && budget > 0 && !root.proven && remaining.size() > 1;
       ++phase) {
    const int each = std::max(1, simulations / (phases * int(remaining.size())));
    const int count = std::min(budget, each * int(remaining.size()));
    playouts(count, remaining, r);
    budget -= count;
    const std::vector<float> q = completed_q();
    assert(q.size() == root.edges.size());
    std::stable_sort(remaining.begin(), remaining.end(),
                     [&](int a, int b) { return score(q, a) > score(q, b); });
    remaining.resize((remaining.size() + 1) / 2);
  }
  // What the halving left over deepens the winner (useful when the tree is reused).
  if (budget > 0 && !root.proven) playouts(budget, {remaining[0]}, r);
  return remaining[0];
}

std::vector<int> Search::pruned_visits(int best) const {
  const Node& root = *root_;
  const int p = root.player;
  const int total = root.visits;
  const float explore = c_puct(total) * std::sqrt(float(std::max(total, 1)));
  const auto q_of = [&](const Node& c) { return choice_value(c, p); };
  std::vector<int> visits(root.edges.size(), 0);
  for (size_t i = 0; i < root.edges.size(); ++i)
    visits[i] = root.edges[i].child ? root.edges[i].child->visits : 0;
  const Edge& b = root.edges[size_t(best)];
  if (!b.child) return visits;
  const auto prior = [&](size_t i) {
    const float eps = float(config_.noise_fraction);
    return root_noise_.empty() ? root.edges[i].prior
                               : (1.0f - eps) * root.edges[i].prior + eps * root_noise_[i];
  };
  const float best_score =
      q_of(*b.child) + explore * prior(size_t(best)) / float(1 + visits[size_t(best)]);
  for (size_t i = 0; i < root.edges.size(); ++i) {
    const Node* c = root.edges[i].child.get();
    if (int(i) == best || !c || visits[i] == 0) continue;
    // Take out forced playouts while the child would still not have been chosen over the best.
    const float forced = std::sqrt(float(config_.forced_playouts) * prior(i) * float(total));
    const float gap = best_score - q_of(*c);
    int keep = visits[i];
    if (gap > 0.0f) {
      const float needed =
          explore * prior(i) / gap - 1.0f;  // fewest visits that keep its score below the best
      keep = std::max(int(std::ceil(needed)), visits[i] - int(std::floor(forced)));
      keep = std::min(keep, visits[i]);
    }
    visits[i] = keep <= 1 ? 0 : keep;
  }
  return visits;
}

void Search::report(SearchResult& r, int gumbel_best) const {
  const Node& root = *root_;
  const int p = root.player;
  r.player = p;
  r.proven = root.proven;
  r.value.resize(players_);
  for (int s = 0; s < players_; ++s) r.value[s] = root.proven ? root.exact[s] : root.mean(s);
  r.moves_left = moves_left_known_ ? root.moves_left() : -1.0f;
  for (const Edge& e : root.edges) {
    r.actions.push_back(e.action);
    r.visits.push_back(e.child ? e.child->visits : 0);
  }
  // Best: a proven child with the best exact value when the root is proven,
  // the Gumbel winner, else the most visited child that is not a proven loss
  // (ties: higher prior).
  assert(!root.edges.empty() && "a searched root has actions");
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
  if (!root.proven && gumbel_best >= 0) best = gumbel_best;
  if (best < 0) best = int(std::max_element(r.visits.begin(), r.visits.end()) - r.visits.begin());
  r.best_action = r.actions[size_t(best)];

  if (gumbel_best >= 0) {  // the improved policy: softmax(log prior + sigma(completed Q))
    const std::vector<float> q = completed_q();
    const int most = *std::max_element(r.visits.begin(), r.visits.end());
    const double sigma = (config_.gumbel_c_visit + most) * config_.gumbel_c_scale;
    std::vector<double> logit(root.edges.size());
    for (size_t i = 0; i < logit.size(); ++i)
      logit[i] = std::log(std::max(root.edges[i].prior, 1e-12f)) + sigma * q[i];
    const double top = *std::max_element(logit.begin(), logit.end());
    double sum = 0.0;
    for (double& x : logit) sum += (x = std::exp(x - top));
    for (double x : logit) r.policy.push_back(float(x / sum));
    return;
  }
  if (root.proven && is_win(root.exact, p)) {  // a proven win: its action is the whole target
    for (size_t i = 0; i < root.edges.size(); ++i) r.policy.push_back(int(i) == best ? 1.0f : 0.0f);
    return;
  }
  const std::vector<int> counts = config_.policy_target_pruning && config_.forced_playouts > 0.0
                                      ? pruned_visits(best)
                                      : r.visits;
  assert(counts.size() == root.edges.size());
  const int total = std::accumulate(counts.begin(), counts.end(), 0);
  for (int n : counts)
    r.policy.push_back(total ? float(n) / float(total) : 1.0f / float(counts.size()));
}

}  // namespace vzero
