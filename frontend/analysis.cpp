// Engines behind players, and a search's root as statistics.
#include "frontend/analysis.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "search/evaluators.h"
#include "util/error.h"

namespace vzero {

namespace {

constexpr float kWin = 1.0f - 1e-6f;
constexpr size_t kMaxPv = 64;  // plies of a principal variation

// c without root noise or temperature: the same search every time.
SearchConfig deterministic(SearchConfig c) {
  c.root_noise = false;
  c.temperature_plies = 0;
  c.final_temperature = 0.0;
  return c;
}

// The child a principal variation follows from node: the best proven child
// for the player to act when node is proven, else the most visited child.
const Edge* pv_edge(const Node& node) {
  const Edge* best = nullptr;
  for (const Edge& e : node.edges) {
    const Node* c = e.child.get();
    if (!c) continue;
    if (node.proven) {
      if (!c->proven) continue;
      if (!best || c->exact[node.player] > best->child->exact[node.player]) best = &e;
    } else if (c->visits > 0 && (!best || c->visits > best->child->visits)) {
      best = &e;
    }
  }
  return best;
}

// The line that starts with first and follows pv_edge down the tree.
std::vector<int> principal_variation(const Edge& first) {
  std::vector<int> pv{first.action};
  const Node* node = first.child.get();
  while (node && node->player >= 0 && node->expanded && pv.size() < kMaxPv) {
    const Edge* e = pv_edge(*node);
    if (!e) break;
    pv.push_back(e->action);
    node = e->child.get();
  }
  return pv;
}

// Proven wins for the seat to act first, proven losses last; else by visits.
int outcome_rank(const ActionStat& a, int player) {
  if (!a.proven || a.value.empty() || player < 0) return 1;
  return a.value[size_t(player)] >= kWin ? 0 : a.value[size_t(player)] <= -kWin ? 2 : 1;
}

// Best first (see RootStats::actions).
void sort_actions(std::vector<ActionStat>& actions, int player) {
  std::stable_sort(actions.begin(), actions.end(),
                   [player](const ActionStat& a, const ActionStat& b) {
                     const int ra = outcome_rank(a, player), rb = outcome_rank(b, player);
                     if (ra != rb) return ra < rb;
                     if (a.visits != b.visits) return a.visits > b.visits;
                     if (a.prior != b.prior) return a.prior > b.prior;
                     return a.action < b.action;
                   });
}

}  // namespace

Engine basic_engine(const std::string& evaluator, const SearchConfig& search, uint64_t seed) {
  return Engine{make_basic_evaluator(evaluator, seed), deterministic(search)};
}

Engine engine_of(const Player& player, const SearchConfig& fallback, uint64_t seed) {
  if (const auto* searcher = dynamic_cast<const SearchPlayer*>(&player))
    return Engine{searcher->evaluator(), deterministic(searcher->config())};
  return basic_engine(kFallbackEvaluator, fallback, seed);
}

std::vector<std::string> default_model_dirs() {
  if (const char* env = std::getenv("VZERO_MODELS"); env && *env) return {env};
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back((exe.parent_path() / ".." / "models").lexically_normal().string());
    dirs.push_back((exe.parent_path() / ".." / ".." / "models").lexically_normal().string());
  }
#ifdef VZERO_SOURCE_DIR
  dirs.push_back(std::string(VZERO_SOURCE_DIR) + "/models");
#endif
  return dirs;
}

std::string shipped_model(const std::string& variant, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    const std::filesystem::path p = std::filesystem::path(dir) / (variant + ".pt");
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

RootStats root_stats(const Search& search, int pv_lines) {
  const Node& root = search.root();
  const int seats = search.root_state().num_players();
  RootStats r;
  r.player = root.player;
  r.visits = root.visits;
  r.proven = root.proven;
  for (int s = 0; s < seats; ++s) r.value.push_back(root.proven ? root.exact[s] : root.mean(s));
  for (const Edge& e : root.edges) {
    ActionStat a;
    a.action = e.action;
    a.prior = e.prior;
    if (const Node* c = e.child.get()) {
      a.visits = c->visits;
      a.proven = c->proven;
      if (c->proven || c->visits > 0)
        for (int s = 0; s < seats; ++s) a.value.push_back(c->proven ? c->exact[s] : c->mean(s));
    }
    r.actions.push_back(std::move(a));
  }
  sort_actions(r.actions, r.player);
  for (int i = 0; i < std::min<int>(pv_lines, int(r.actions.size())); ++i)
    for (const Edge& e : root.edges)
      if (e.action == r.actions[i].action) r.actions[i].pv = principal_variation(e);
  return r;
}

void merge_root_stats(RootStats& into, const RootStats& other) {
  check(into.actions.size() == other.actions.size(), "merging searches of different positions");
  const auto blend = [](std::vector<float>& a, int na, const std::vector<float>& b, int nb) {
    if (b.empty()) return;
    if (a.empty() || na + nb == 0) {
      a = b;
      return;
    }
    for (size_t s = 0; s < a.size(); ++s)
      a[s] = (a[s] * float(na) + b[s] * float(nb)) / float(na + nb);
  };
  if (other.proven) {
    into.proven = true;
    into.value = other.value;
  } else if (!into.proven) {
    blend(into.value, into.visits, other.value, other.visits);
  }
  into.visits += other.visits;
  for (const ActionStat& o : other.actions) {
    auto it = std::find_if(into.actions.begin(), into.actions.end(),
                           [&](const ActionStat& a) { return a.action == o.action; });
    check(it != into.actions.end(), "merging searches of different positions");
    if (o.proven && !it->proven) it->value = o.value;
    if (!it->proven && !o.proven) blend(it->value, it->visits, o.value, o.visits);
    it->proven = it->proven || o.proven;
    if (o.visits > it->visits || it->pv.empty()) {
      if (!o.pv.empty()) it->pv = o.pv;
    }
    it->visits += o.visits;
  }
  sort_actions(into.actions, into.player);
}

int best_action(const RootStats& stats) {
  check(!stats.actions.empty(), "no action to choose");
  return stats.actions.front().action;  // sorted: proven wins, then visits, proven losses last
}

RootStats analyse(const Engine& engine, const GameState& state, int simulations, int pv_lines,
                  uint64_t seed) {
  check(!state.is_terminal(), "the game is over");
  Search search(*engine.evaluator, engine.search, seed);
  search.set_root(state);
  search.run(simulations);
  return root_stats(search, pv_lines);
}

}  // namespace vzero
