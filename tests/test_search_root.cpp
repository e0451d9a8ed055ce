// Search features for learning: temperature decay, forced playouts with
// policy target pruning, Gumbel root selection with its improved policy, and
// the moves-left utility. All on the synthetic k-in-a-row game.
#include <algorithm>
#include <catch.hpp>
#include <cmath>
#include <numeric>
#include <set>

#include "search/search.h"
#include "search_test_util.h"
#include "turns_game.h"

using namespace vzero;
using vzero::testing::search_once;
using vzero::testing::TurnsGame;
using vzero::testing::TurnsState;

namespace {

// Uniform priors; a seat's value grows with its lead in points, so the
// action worth 2 points is the best everywhere. Moves left: the plies to the
// end, minus 20 right after an action worth 1 (when short_after_one is set).
class TotalsEvaluator : public Evaluator {
 public:
  explicit TotalsEvaluator(bool short_after_one = false, float optimism = 0.0f)
      : short_after_one_(short_after_one), optimism_(optimism) {}
  void evaluate(const std::vector<const GameState*>& states,
                std::vector<Evaluation>& out) override {
    out.resize(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
      const auto& s = dynamic_cast<const TurnsState&>(*states[i]);
      const size_t n = s.legal_actions().size();
      out[i].priors.assign(n, 1.0f / float(n));
      const std::vector<int> t = s.totals();
      if (optimism_ != 0.0f) {
        out[i].values = {optimism_, -optimism_};
      } else {
        const float lead = std::tanh(float(t[0] - t[1]) / 4.0f);
        out[i].values = {lead, -lead};
      }
      const auto& g = dynamic_cast<const TurnsGame&>(s.game());
      float left = float(g.players_ * g.k_ * g.turns_ - s.plies()) + 20.0f;
      if (short_after_one_ && s.plies() > 0 && s.fen().back() == '1') left -= 20.0f;
      out[i].moves_left = left;
    }
  }
  std::string name() const override { return "totals"; }

 private:
  bool short_after_one_;
  float optimism_;
};

SearchConfig config(int sims) { return vzero::testing::search_config(sims, 4); }

// A game of two seats, three actions, two turns each, no claims; it lives for the whole run.
const TurnsGame& two_seat_game() {
  static const TurnsGame game(2, 3, 2, false);
  return game;
}

// config(sims) with the Gumbel root selection (sequential halving) on.
SearchConfig gumbel_config(int sims) {
  SearchConfig c = config(sims);
  c.root_selection = "gumbel";
  return c;
}

int index_of(const SearchResult& r, int action) {
  return int(std::find(r.actions.begin(), r.actions.end(), action) - r.actions.begin());
}

}  // namespace

TEST_CASE("temperature decays with its half-life towards the final temperature",
          "[mcts][learning]") {
  TotalsEvaluator eval;
  SearchConfig c = config(10);
  c.temperature = 1.0;
  c.final_temperature = 0.2;
  c.temperature_halflife = 10.0;
  Search search(eval, c, 1);
  CHECK(search.temperature_at(0) == Approx(1.0));
  CHECK(search.temperature_at(10) == Approx(0.6));
  CHECK(search.temperature_at(20) == Approx(0.4));
  CHECK(search.temperature_at(1000) == Approx(0.2));
  // Without a half-life the temperature is a step at temperature_plies.
  c.temperature_halflife = 0.0;
  c.temperature_plies = 3;
  Search step(eval, c, 1);
  CHECK(step.temperature_at(2) == 1.0);
  CHECK(step.temperature_at(3) == 0.2);
}

TEST_CASE("forced playouts visit every noised root child; pruning takes them out of the target",
          "[mcts][learning]") {
  auto s = two_seat_game().new_state();
  TotalsEvaluator eval;
  SearchConfig c = config(400);
  c.root_noise = true;
  c.noise_fraction = 0.0;  // noise on, but the priors stay uniform: forced counts are known
  c.cpuct = 0.3;           // little exploration of its own: the weak children starve unless forced
  c.cpuct_growth = 0.0;
  const SearchResult unforced = search_once(eval, c, 1, *s);

  c.forced_playouts = 2.0;
  const SearchResult r = search_once(eval, c, 1, *s);
  const int total = std::accumulate(r.visits.begin(), r.visits.end(), 0);
  const int minimum = int(std::floor(std::sqrt(2.0 * (1.0 / 3.0) * total))) - 1;
  for (int n : r.visits) CHECK(n >= minimum);
  CHECK(r.best_action == 2);
  // The weaker children got more visits than without forcing.
  CHECK(r.visits[size_t(index_of(r, 0))] > unforced.visits[size_t(index_of(unforced, 0))]);
  // Without pruning the target is the visit share.
  CHECK(r.policy[size_t(index_of(r, 0))] ==
        Approx(double(r.visits[size_t(index_of(r, 0))]) / total));

  c.policy_target_pruning = true;
  const SearchResult p = search_once(eval, c, 1, *s);
  CHECK(p.visits == r.visits);  // the same search ...
  const float sum = std::accumulate(p.policy.begin(), p.policy.end(), 0.0f);
  CHECK(sum == Approx(1.0f));
  const size_t best = size_t(index_of(p, 2));
  CHECK(p.policy[best] > r.policy[best]);  // ... with the forced playouts taken out of the target
  for (size_t i = 0; i < p.policy.size(); ++i)
    if (i != best) CHECK(p.policy[i] < r.policy[i]);
}

TEST_CASE("Gumbel root: sequential halving finds the best action with few simulations",
          "[mcts][learning]") {
  auto s = two_seat_game().new_state();
  TotalsEvaluator eval;
  SearchConfig c = gumbel_config(12);
  Search search(eval, c, 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(r.best_action == 2);
  CHECK(search.choose_action(r) == 2);
  CHECK(r.simulations == 12);
  // The improved policy covers every action, sums to one and ranks the best first.
  REQUIRE(r.policy.size() == 3);
  CHECK(std::accumulate(r.policy.begin(), r.policy.end(), 0.0f) == Approx(1.0f));
  for (float p : r.policy) CHECK(p > 0.0f);
  CHECK(std::max_element(r.policy.begin(), r.policy.end()) - r.policy.begin() == index_of(r, 2));
  CHECK(r.policy[size_t(index_of(r, 2))] > r.policy[size_t(index_of(r, 0))]);

  // With Gumbel noise the choice varies but the best action wins most often; seeded runs repeat.
  c.root_noise = true;
  int best = 0;
  std::set<int> chosen;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const SearchResult n = search_once(eval, c, seed, *s);
    CHECK(search_once(eval, c, seed, *s).best_action == n.best_action);
    chosen.insert(n.best_action);
    best += n.best_action == 2;
  }
  CHECK(best >= 20);
}

TEST_CASE("Gumbel root: a proven win is taken at once", "[mcts][learning]") {
  TurnsGame g(2, 3, 3, /*claims=*/true);
  auto s = vzero::testing::state_after(g, {2, 2});  // a claim now wins at once
  TotalsEvaluator eval;
  SearchConfig c = gumbel_config(64);
  c.root_noise = true;
  const SearchResult r = search_once(eval, c, 3, *s);
  CHECK(r.proven);
  CHECK(r.best_action == 3);
}

TEST_CASE("moves left: a winning player prefers the shorter way, a losing one the longer",
          "[mcts][learning]") {
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  s->apply(0);  // seat 0 acts again at the root
  for (float optimism : {0.95f, -0.95f}) {
    TotalsEvaluator eval(/*short_after_one=*/true, optimism);
    SearchConfig c = config(300);
    c.cpuct = 0.5;
    const SearchResult r0 = search_once(eval, c, 1, *s);
    c.moves_left_slope = 0.02;
    const SearchResult r1 = search_once(eval, c, 1, *s);
    const size_t one = size_t(index_of(r1, 1));
    CHECK(r1.moves_left > 0.0f);
    CHECK(r0.moves_left > 0.0f);
    if (optimism > 0) {
      CHECK(r1.best_action == 1);  // the short way
      CHECK(r1.visits[one] > r0.visits[one]);
    } else {
      CHECK(r1.best_action != 1);  // anything but the short way
      CHECK(r1.visits[one] < r0.visits[one]);
    }
  }
}

TEST_CASE("search options: the new keys are typed and checked", "[mcts][learning]") {
  SearchConfig c;
  set_search_option(c, "root_selection", "\"gumbel\"");
  CHECK(c.root_selection == "gumbel");
  CHECK_THROWS(set_search_option(c, "root_selection", "\"best\""));
  set_search_option(c, "forced_playouts", "2");
  CHECK(c.forced_playouts == 2.0);
  CHECK_THROWS(set_search_option(c, "gumbel_actions", "1"));
  CHECK_THROWS(set_search_option(c, "moves_left_slope", "-0.1"));
  CHECK_THROWS(set_search_option(c, "temperature_halflife", "-1"));
}
