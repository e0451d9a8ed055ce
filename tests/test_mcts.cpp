// Search tests: the synthetic k-actions-in-a-row game checks everything that
// search code tends to assume alternates; real positions check that mates,
// self-mates and won endgames are handled; seeded searches reproduce.
#include <algorithm>
#include <catch.hpp>
#include <cmath>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "game/builtin/games.h"
#include "search/evaluators.h"
#include "search/proof.h"
#include "search/search.h"
#include "search_test_util.h"
#include "test_util.h"
#include "turns_game.h"
#include "util/error.h"

using namespace vzero;
using vzero::testing::search_once;
using vzero::testing::TurnsGame;

namespace {

SearchConfig plain(int sims, int batch = 1) { return vzero::testing::search_config(sims, batch); }

// Every position looks the same: the given values, and priors uniform over the legal actions or,
// with ramp, proportional to 1, 2, 3, ...
class FixedEvaluator : public Evaluator {
 public:
  explicit FixedEvaluator(std::vector<float> values, bool ramp = false)
      : values_(std::move(values)), ramp_(ramp) {}
  void evaluate(const std::vector<const GameState*>& states,
                std::vector<Evaluation>& out) override {
    out.resize(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
      const size_t n = states[i]->legal_actions().size();
      out[i].priors.resize(n);
      for (size_t k = 0; k < n; ++k)
        out[i].priors[k] = ramp_ ? float(k + 1) / float(n * (n + 1) / 2) : 1.0f / float(n);
      out[i].values = values_;
    }
  }
  std::string name() const override { return ramp_ ? "ramp" : "fixed"; }

 private:
  std::vector<float> values_;
  bool ramp_;
};

const Edge* edge_of(const Node& n, int action) {
  for (const Edge& e : n.edges)
    if (e.action == action) return &e;
  return nullptr;
}

int visited_children(const Node& n) {
  int k = 0;
  for (const Edge& e : n.edges) k += e.child && e.child->visits > 0;
  return k;
}

}  // namespace

TEST_CASE("k in a row: backup credits the player to act at every node", "[mcts][turns]") {
  TurnsGame g(2, 3, 2, /*claims=*/false);
  auto s = g.new_state();
  RolloutEvaluator eval(3);
  Search search(eval, plain(1500), 7);
  search.set_root(*s);
  for (int i = 0; i < 3; ++i) {  // seat 0's three actions in a row, then seat 1's
    const SearchResult r = search.run();
    CHECK(r.player == 0);
    CHECK(r.best_action == 2);
    CHECK(r.value.size() == 2);
    search.advance(r.best_action);
  }
  const SearchResult r = search.run();
  CHECK(r.player == 1);
  CHECK(r.best_action == 2);
}

TEST_CASE("k in a row: a proven win three own actions deep is exact at the root", "[mcts][turns]") {
  TurnsGame g(2, 3, 3, /*claims=*/true);
  auto s = g.new_state();
  ConstantEvaluator eval;
  const SearchResult r = search_once(eval, plain(3000), 1, *s);
  CHECK(r.proven);
  CHECK(r.value[0] == 1.0f);
  CHECK(r.value[1] == -1.0f);
  CHECK(r.best_action == 2);
  // The search stops once the root is proven.
  CHECK(r.simulations < 3000);
}

TEST_CASE("k in a row: a proven loss is never chosen, even with temperature", "[mcts][turns]") {
  TurnsGame g(2, 3, 3, /*claims=*/true);
  auto s = vzero::testing::state_after(g, {2, 1});  // a claim now loses at once
  ConstantEvaluator eval;
  SearchConfig c = plain(300);
  c.temperature = 1.0;
  c.temperature_plies = 100;
  Search search(eval, c, 5);
  search.set_root(*s);
  const SearchResult r = search.run();
  const Edge* claim = edge_of(search.root(), 3);
  REQUIRE(claim);
  REQUIRE(claim->child);
  CHECK(claim->child->proven);
  CHECK(claim->child->exact[0] == -1.0f);
  for (int i = 0; i < 200; ++i) CHECK(search.choose_action(r) != 3);
}

TEST_CASE("k in a row: first-play urgency comes from the parent's player", "[mcts][turns]") {
  // Seat 0 acts again at the root and below it. Every position is worth +0.9
  // to seat 0: with no reduction an unvisited child looks as good as its
  // parent, so all get tried; with a large reduction only one does. Read from
  // the wrong seat (-0.9) the first case would also stay on one child.
  TurnsGame g(2, 3, 2, /*claims=*/false);
  auto s = g.new_state();
  s->apply(1);
  FixedEvaluator eval({0.9f, -0.9f});  // +0.9 for seat 0, -0.9 for seat 1
  for (double reduction : {0.0, 2.0}) {
    SearchConfig c = plain(300);
    c.cpuct = 0.1;
    c.cpuct_growth = 0.0;
    c.fpu_reduction = c.fpu_reduction_root = reduction;
    Search search(eval, c, 1);
    search.set_root(*s);
    search.run();
    const int expected = reduction == 0.0 ? 3 : 1;
    CHECK(visited_children(search.root()) == expected);
    for (const Edge& e : search.root().edges)
      if (e.child && e.child->visits >= 10) {
        CHECK(e.child->player == 0);
        CHECK(visited_children(*e.child) == expected);
      }
  }
}

TEST_CASE("k in a row: tree reuse keeps the subtree when the same player acts again",
          "[mcts][turns]") {
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  ConstantEvaluator eval;
  Search search(eval, plain(600), 3);
  search.set_root(*s);
  const SearchResult r = search.run();
  const Edge* e = edge_of(search.root(), r.best_action);
  REQUIRE(e);
  const int kept = e->child->visits;
  CHECK(kept > 0);
  search.advance(r.best_action);
  CHECK(search.root().visits == kept);
  CHECK(search.root().player == 0);
  search.run(100);
  CHECK(search.root().visits == kept + 100);
  // Without reuse the subtree is dropped.
  SearchConfig no_reuse = plain(600);
  no_reuse.reuse_tree = false;
  Search fresh(eval, no_reuse, 3);
  fresh.set_root(*s);
  fresh.run();
  fresh.advance(r.best_action);
  CHECK(fresh.root().visits == 0);
}

TEST_CASE("k in a row: root noise reshapes the root for a player acting again", "[mcts][turns]") {
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  s->apply(0);  // seat 0 acts again at the root
  ConstantEvaluator eval;
  SearchConfig c = plain(400);
  c.root_noise = true;
  c.noise_fraction = 1.0;
  c.dirichlet_alpha = 0.03;  // nearly all the noise on one action
  std::set<int> favourites;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const SearchResult r = search_once(eval, c, seed, *s);
    const int most = *std::max_element(r.visits.begin(), r.visits.end());
    CHECK(most > 200);  // the noise, not the uniform prior, decides
    favourites.insert(r.best_action);
    CHECK(search_once(eval, c, seed, *s).visits == r.visits);
  }
  CHECK(favourites.size() >= 2);
  // Without noise the uniform prior spreads the visits.
  const SearchResult r = search_once(eval, plain(400), 1, *s);
  CHECK(*std::max_element(r.visits.begin(), r.visits.end()) < 200);
}

TEST_CASE("k in a row: temperature follows the game's ply, not the player's turns",
          "[mcts][turns]") {
  TurnsGame g(2, 3, 2, false);
  ConstantEvaluator eval;
  SearchConfig c = plain(60);
  c.temperature = 1.0;
  c.temperature_plies = 2;  // the first two actions of seat 0's first turn
  for (int ply = 0; ply < 4; ++ply) {
    std::set<int> chosen;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      auto s = g.new_state();
      for (int i = 0; i < ply; ++i) s->apply(1);
      Search search(eval, c, seed);
      search.set_root(*s);
      const SearchResult r = search.run();
      const int a = search.choose_action(r);
      chosen.insert(a);
      if (ply >= 2) CHECK(a == r.best_action);
    }
    if (ply < 2)
      CHECK(chosen.size() >= 2);
    else
      CHECK(chosen.size() == 1);
  }
}

TEST_CASE("k in a row with three players: one value per seat", "[mcts][turns]") {
  TurnsGame g(3, 2, 1, true);
  auto s = g.new_state();
  ConstantEvaluator eval;
  const SearchResult r = search_once(eval, plain(2000), 1, *s);
  REQUIRE(r.value.size() == 3);
  // Seat 0 wins at once with 2 then claim: proven, the others share the loss.
  CHECK(r.proven);
  CHECK(r.value[0] == 1.0f);
  CHECK(r.value[1] == Approx(-0.5));
  CHECK(r.value[2] == Approx(-0.5));
}

TEST_CASE("search: batches of leaves with virtual loss give the same kind of answer", "[mcts]") {
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  RolloutEvaluator eval(9);
  Search search(eval, plain(1500, 8), 7);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(r.best_action == 2);
  CHECK(r.simulations == 1500);
  CHECK(r.evaluations <= 1500);
  int total = 0;
  for (int v : r.visits) total += v;
  CHECK(total == search.root().visits - 1);  // the root's own evaluation is not a child visit
  CHECK(search.root().in_flight == 0);
}

namespace {

// Rollout evaluations, computed only when the search waits for them: a pipelined search must
// keep every submitted state alive and untouched until then.
class DeferredEvaluator : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states,
                std::vector<Evaluation>& out) override {
    rollout_.evaluate(states, out);
  }
  std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                            std::vector<Evaluation>& out) override {
    ++outstanding;
    most_outstanding = std::max(most_outstanding, outstanding);
    largest_batch = std::max(largest_batch, int(states.size()));
    std::vector<std::unique_ptr<GameState>> copies;  // to check that nothing moved meanwhile
    for (const GameState* s : states) copies.push_back(s->clone());
    return std::make_unique<Pending>(*this, states, out, std::move(copies));
  }
  std::string name() const override { return "deferred"; }

  int outstanding = 0, most_outstanding = 0, largest_batch = 0;
  bool states_moved = false;

 private:
  struct Pending : PendingEvaluation {
    Pending(DeferredEvaluator& e, std::vector<const GameState*> s, std::vector<Evaluation>& o,
            std::vector<std::unique_ptr<GameState>> c)
        : eval(e), states(std::move(s)), out(o), copies(std::move(c)) {}
    void wait() override {
      for (size_t i = 0; i < states.size(); ++i)
        eval.states_moved = eval.states_moved || states[i]->hash() != copies[i]->hash();
      eval.evaluate(states, out);
      --eval.outstanding;
    }
    DeferredEvaluator& eval;
    std::vector<const GameState*> states;
    std::vector<Evaluation>& out;
    std::vector<std::unique_ptr<GameState>> copies;
  };
  RolloutEvaluator rollout_{9};
};

}  // namespace

TEST_CASE("search: a pipelined search gathers a batch while the evaluator works on another",
          "[mcts]") {
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  for (int count : {1, 7, 8, 9, 17, 1500}) {
    INFO("playouts " << count);
    DeferredEvaluator eval;
    SearchConfig c = plain(count, 8);
    c.pipeline = true;
    Search search(eval, c, 7);
    search.set_root(*s);
    const SearchResult r = search.run();
    CHECK(r.simulations == count);
    CHECK(r.evaluations <= count);
    CHECK(eval.outstanding == 0);
    CHECK(eval.largest_batch <= 8);
    CHECK(eval.most_outstanding <= 2);
    if (count == 1500) CHECK(eval.most_outstanding == 2);
    CHECK_FALSE(eval.states_moved);
    CHECK(search.root().in_flight == 0);
    int total = 0;
    for (int v : r.visits) total += v;
    CHECK(total == search.root().visits - 1);
  }
}

TEST_CASE("search: after a failed evaluation the same tree searches on", "[mcts]") {
  // A network that fails once (a diverged model, a lost device) must not leave leaves marked
  // pending: the next run would stop at them for ever (unpipelined) or search nothing.
  struct FailingOnce : DeferredEvaluator {
    int calls = 0;
    std::unique_ptr<PendingEvaluation> submit(const std::vector<const GameState*>& states,
                                              std::vector<Evaluation>& out) override {
      if (++calls == 3) throw Error("network evaluation failed");
      return DeferredEvaluator::submit(states, out);
    }
  };
  TurnsGame g(2, 3, 2, false);
  auto s = g.new_state();
  for (bool pipeline : {false, true}) {
    INFO("pipeline " << pipeline);
    FailingOnce eval;
    SearchConfig c = plain(200, 8);
    c.pipeline = pipeline;
    Search search(eval, c, 7);
    search.set_root(*s);
    CHECK_THROWS_WITH(search.run(), "network evaluation failed");
    CHECK(search.root().in_flight == 0);
    const int before = search.root().visits;
    const SearchResult r = search.run();
    CHECK(r.simulations == 200);
    CHECK(search.root().visits == before + 200);
    CHECK(search.root().in_flight == 0);
  }
}

TEST_CASE("search: the policy temperature turns priors p into p^(1/T), renormalised", "[mcts]") {
  const Game& game = game_by_id("chess");
  auto s = game.new_state();
  const size_t n = s->legal_actions().size();
  FixedEvaluator eval({0.0f, 0.0f}, true);
  for (double t : {1.0, 2.0, 0.5}) {
    INFO("T " << t);
    SearchConfig c = plain(8);
    c.policy_temperature = t;
    Search search(eval, c, 1);
    search.set_root(*s);
    search.run();
    const Node& root = search.root();
    REQUIRE(root.edges.size() == n);
    double norm = 0;
    for (size_t k = 0; k < n; ++k) norm += std::pow(double(k + 1), 1.0 / t);
    float sum = 0;
    for (size_t k = 0; k < n; ++k) {
      CHECK(root.edges[k].prior == Approx(std::pow(double(k + 1), 1.0 / t) / norm).epsilon(1e-4));
      sum += root.edges[k].prior;
    }
    CHECK(sum == Approx(1.0f).epsilon(1e-5));
  }
  // Play starts from one leaf per call and T = 1.5; a config's keys go over that, the rest stay.
  const SearchConfig play = play_search_config();
  CHECK(play.batch == 1);
  CHECK(play.policy_temperature == 1.5);
  CHECK(SearchConfig().policy_temperature == 1.0);  // self-play's default is unchanged
  SearchConfig c = play;
  set_search_option(c, "batch", "8");
  CHECK(c.batch == 8);
  CHECK(c.policy_temperature == 1.5);
  CHECK_THROWS_AS(set_search_option(c, "policy_temperature", "0"), Error);
  set_search_option(c, "policy_temperature", "1.6");
  CHECK(c.policy_temperature == 1.6);
}

TEST_CASE("search: seeded single-thread searches reproduce exactly", "[mcts]") {
  for (const char* id : {"chess", "attrition", "007"}) {
    const Game& game = game_by_id(id);
    auto s = game.new_state();
    SearchConfig c = plain(300, 8);
    c.root_noise = true;
    std::vector<std::vector<int>> runs;
    for (int rep = 0; rep < 2; ++rep) {
      RolloutEvaluator eval(42);
      runs.push_back(search_once(eval, c, 17, *s).visits);
    }
    CHECK(runs[0] == runs[1]);
  }
}

namespace {

// The action the search picks in a position, and whether it proved the result.
std::pair<std::string, bool> best_move(const std::string& variant, const std::string& fen,
                                       int sims) {
  const Game& game = game_by_id(variant);
  auto s = game.new_state(fen);
  ConstantEvaluator eval;
  const SearchResult r = search_once(eval, plain(sims, 8), 1, *s);
  const bool won = r.proven && r.value[r.player] == 1.0f;
  return {s->action_to_text(r.best_action), won};
}

// CHECKs that the search with `sims` simulations picks `move` and proves it wins.
void check_mating_move(const std::string& variant, const std::string& fen, int sims,
                       const std::string& move) {
  CHECK(best_move(variant, fen, sims) == std::make_pair(move, true));
}

}  // namespace

TEST_CASE("search finds mate in 1 and mate in 2 in chess with a uniform evaluator",
          "[mcts][mate]") {
  check_mating_move("chess", "7k/R7/8/8/8/8/8/1R5K w - - 0 1", 400, "b1b8");
  // 1.Rb7 Kg8 2.Ra8#
  check_mating_move("chess", "7k/8/8/8/8/8/1R6/R6K w - - 0 1", 20000, "b2b7");
}

TEST_CASE("search finds mate in 1 and mate in 2 in Grand Chess with a uniform evaluator",
          "[mcts][mate]") {
  check_mating_move("grand", "9k/R9/10/10/10/10/10/10/10/1R7K w - - 0 1", 400, "b1b10");
  // 1.Rb9 Ki10 2.Ra10#
  check_mating_move("grand", "9k/10/10/10/10/10/10/10/1R8/R8K w - - 0 1", 30000, "b2b9");
}

TEST_CASE("007: the search avoids mating its own king with the opponent's piece on move 2",
          "[mcts][007]") {
  // White chooses move 2 (a black piece): Ra1 would mate White, who then loses (OO-5).
  const std::string fen = "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1 turn:w2";
  const Game& game = game_by_id("007");
  auto s = game.new_state(fen);
  const int self_mate = s->text_to_action("a8a1");
  s->apply(self_mate);
  REQUIRE(s->is_terminal());
  CHECK(s->returns()[0] == -1.0);
  s->undo();
  ConstantEvaluator eval;
  Search search(eval, plain(400, 8), 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(r.player == 0);
  CHECK(r.best_action != self_mate);
  const Edge* e = edge_of(search.root(), self_mate);
  REQUIRE(e);
  REQUIRE(e->child);
  CHECK(e->child->proven);
  CHECK(e->child->exact[0] == -1.0f);
}

TEST_CASE("007: a dead position in the tree is a proven draw, whatever the network says",
          "[mcts][007]") {
  // Kxe2 is White's only move and leaves bare kings: 007 plays on by its rules, but nobody can
  // win any more (GameState::dead_draw), so the search does not ask the evaluator about it.
  const Game& game = game_by_id("007");
  auto s = game.new_state("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1 turn:w1");
  REQUIRE(s->legal_actions().size() == 1);
  FixedEvaluator optimistic({0.9f, -0.9f});
  Search search(optimistic, plain(50), 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  const Edge& e = search.root().edges.at(0);
  REQUIRE(e.child);
  CHECK(e.child->proven);
  CHECK_FALSE(e.child->repetition);
  CHECK(e.child->exact[0] == 0.0f);
  CHECK(e.child->exact[1] == 0.0f);
  CHECK(std::fabs(r.value[0]) < 0.05);  // the root's own evaluation (0.9) is one visit of 50
}

TEST_CASE("search: a negative draw score steers the root's player away from proven draws",
          "[mcts][draw_score]") {
  // White must answer Re2+: Kxe2 and Nxe2 leave a bare king against king and knight (a dead draw),
  // Kd1 and Kf1 keep a position that the evaluator calls slightly worse for White (-0.05).
  const Game& game = game_by_id("chess");
  auto s = game.new_state("4k3/8/8/8/8/8/4r3/4K1N1 w - - 0 1");
  REQUIRE(s->legal_actions().size() == 4);
  const std::set<int> draws{s->text_to_action("e1e2"), s->text_to_action("g1e2")};
  FixedEvaluator slightly_worse({-0.05f, 0.05f});
  SearchConfig c = plain(200, 4);
  const SearchResult plain_result = search_once(slightly_worse, c, 1, *s);
  CHECK(draws.count(plain_result.best_action) == 1);  // a draw (0) beats -0.05

  set_search_option(c, "draw_score", "-0.2");
  Search search(slightly_worse, c, 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(draws.count(r.best_action) == 0);  // now a draw is worth -0.2 to White
  for (const Edge& e : search.root().edges)
    if (draws.count(e.action)) {
      REQUIRE(e.child);
      CHECK(e.child->proven);
      CHECK(e.child->draws == e.child->visits);
      CHECK(e.child->exact[0] == 0.0f);  // the tree keeps the game's own values
    }
  CHECK(r.value[0] < 0.0f);  // the root value is the game's: no draw score in it
  CHECK(r.value[0] > -0.1f);
  CHECK_THROWS_AS(set_search_option(c, "draw_score", "-1.5"), Error);
}

TEST_CASE("attrition: a won endgame is won", "[mcts][attrition]") {
  // Seat 0 (a1) has a long path c2-e1-g2-h4-f5 and a dead end b3; seat 1
  // (h8) has two moves left (f7, d8). Going c2 wins; b3 loses.
  const std::string fen =
      "xxx1xxxb/xxxxx1xx/xxxxxxxx/xxxxx1xx/xxxxxxx1/x1xxxxxx/xx1xxx1x/axxx1xxx 0 0 00 - 40";
  const Game& game = game_by_id("attrition");
  auto s = game.new_state(fen);
  HeuristicEvaluator eval;
  Search search(eval, plain(200, 8), 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(s->action_to_text(r.best_action) == "a1c2");
  CHECK(r.proven);
  CHECK(r.value[0] == 1.0f);
  // Played out against a searching opponent, seat 0 wins.
  RolloutEvaluator other(5);
  Search opponent(other, plain(200, 8), 2);
  opponent.set_root(*s);
  search.set_root(*s);
  while (!s->is_terminal()) {
    Search& mover = s->current_player() == 0 ? search : opponent;
    const int a = mover.choose_action(mover.run());
    s->apply(a);
    search.advance(a);
    opponent.advance(a);
  }
  CHECK(s->returns()[0] == 1.0);
}

TEST_CASE("search.solve_endgames: a 007 mate within the turn is played from the turn's first move",
          "[mcts][007]") {
  // Black (from random play) mates within this turn, though not at once: the root sees it one ply
  // down (each child's solved_returns), though the evaluator calls Black lost.
  const Game& game = game_by_id("007");
  auto s = game.new_state("rnbqkbnr/pppp1ppp/8/4p3/4P3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 2 turn:b1");
  FixedEvaluator pessimistic({0.9f, -0.9f});
  Search search(pessimistic, plain(2), 1);
  search.set_root(*s);
  const SearchResult r = search.run();
  CHECK(r.proven);
  CHECK(r.value[1] == 1.0f);
  s->apply(r.best_action);
  CHECK(s->solved_returns() == std::vector<double>{-1.0, 1.0});
  // Played on by the same search, Black mates within the turn.
  search.advance(r.best_action);
  for (int move = 0; move < 2 && !s->is_terminal(); ++move) {
    const int a = search.choose_action(search.run());
    s->apply(a);
    search.advance(a);
  }
  CHECK(s->end_reason() == "checkmate");
  CHECK(s->returns() == std::vector<double>{-1.0, 1.0});
}

TEST_CASE("search.solve_endgames: separated attrition knights are proven on arrival",
          "[mcts][attrition]") {
  // Seat 0 (d4) walks the lower left, longest path 6, d4e2 a dead end; seat 1 (h8) has f7 h6 g8.
  // Every child is solved (attrition_solver.h), so the first winning one proves the root, though
  // the evaluator calls every position lost for seat 0.
  const Game& game = game_by_id("attrition");
  auto s = game.new_state(
      "xxxxxx1b/xxxxx1xx/x1xx1xx1/xx1xxxxx/1xxaxxxx/x1xxxxxx/xx1x1xxx/1xxxxxxx 0 0 00 - 53");
  REQUIRE(s->legal_actions().size() == 4);
  FixedEvaluator pessimistic({-0.9f, 0.9f});
  for (bool on : {false, true}) {
    SearchConfig c = plain(4);
    c.solve_endgames = on;
    c.proof_nodes = 0;  // no proof search of the root (below)
    Search search(pessimistic, c, 1);
    search.set_root(*s);
    const SearchResult r = search.run();
    INFO("solve_endgames " << on);
    CHECK(r.proven == on);
    if (!on) continue;
    CHECK(r.value[0] == 1.0f);
    CHECK(s->action_to_text(r.best_action) != "d4e2");
    for (const Edge& e : search.root().edges)
      if (e.child) {
        CHECK(e.child->proven);
        CHECK(e.child->exact[0] == (s->action_to_text(e.action) == "d4e2" ? -1.0f : 1.0f));
      }
  }
  SearchConfig c;
  set_search_option(c, "solve_endgames", "false");
  CHECK(!c.solve_endgames);
}

namespace {

// +1 when the seat to act wins with best play, -1 when it loses (2 players, no draws), by
// exhaustive search with a table of positions seen.
int exhaustive(GameState& s, std::unordered_map<uint64_t, int>& seen) {
  if (const auto it = seen.find(s.hash()); it != seen.end()) return it->second;
  const int me = s.current_player();
  int v = -1;
  const std::vector<int> actions = s.legal_actions();
  for (int a : actions) {
    s.apply(a);
    const int child = s.is_terminal()            ? (s.returns()[size_t(me)] > 0 ? 1 : -1)
                      : s.current_player() == me ? exhaustive(s, seen)
                                                 : -exhaustive(s, seen);
    s.undo();
    if (child > 0) {
      v = 1;
      break;
    }
  }
  return seen[s.hash()] = v;
}

}  // namespace

TEST_CASE("proof search: attrition endgames proven as exhaustive search says", "[mcts][proof]") {
  const Game& game = game_by_id("attrition");
  std::mt19937_64 rng(13);
  int proven = 0, tried = 0;
  for (int g = 0; g < 1500; ++g) {
    auto s = game.new_state();
    while (!s->is_terminal()) {
      const std::vector<int>& legal = s->legal_actions();
      s->apply(legal[rng() % legal.size()]);
      if (s->is_terminal() || s->plies() < 40 || rng() % 4) continue;
      ++tried;
      const std::string fen = s->fen();
      const Proof p = prove(*s, 20000);
      REQUIRE(s->fen() == fen);  // left as it was
      if (p.winner < 0) continue;
      ++proven;
      std::unordered_map<uint64_t, int> seen;
      const int me = s->current_player();
      INFO(fen);
      CHECK(p.winner == (exhaustive(*s, seen) > 0 ? me : 1 - me));
      if (p.winner == me) {  // the action keeps the win
        REQUIRE(p.action >= 0);
        s->apply(p.action);
        CHECK((s->is_terminal() ? s->returns()[size_t(me)] > 0 : exhaustive(*s, seen) < 0));
        s->undo();
      } else {
        CHECK(p.action == -1);
      }
    }
  }
  CHECK(tried > 100);
  CHECK(proven > tried / 2);
  // Early positions of copies (a copy's action list has no spare room, so reading it while the
  // proof plays and takes back actions once went astray): unproven, and left as they were.
  for (const char* moves : {"", "N@g2", "N@g2 N@e2", "N@a1 N@c1 a1b3"}) {
    auto s = game.new_state();
    std::istringstream in(moves);
    for (std::string m; in >> m;) s->apply(s->text_to_action(m));
    const auto copy = s->clone();
    INFO(moves);
    CHECK_NOTHROW(prove(*copy, 500));
    CHECK(copy->fen() == s->fen());
  }
  CHECK(prove(*game.new_state(), 1000).winner == -1);  // the empty board: far beyond the budget
  CHECK(prove(*game.new_state(), 1000).nodes <= 1000 + 64);  // one over at most per level
  CHECK(game.new_state()->proof_budget() == 0);  // the opening: never proven within a budget
  CHECK(game.new_state("6x1/x1axx1x1/2x1xxxx/1xxx1xx1/1xxxxxb1/x2x1xx1/1x2xx1x/3x1x2 0 0 00 - 32")
            ->proof_budget() == 20000);
  CHECK(game_by_id("attrition-3p").new_state()->proof_budget() == 0);
  CHECK(game_by_id("chess").new_state()->proof_budget() == 0);
}

TEST_CASE("search.proof_nodes: a root proven won plays the proof", "[mcts][proof]") {
  // From a lost match game (session 58): the model at 32 visits played c7a8 (visits 17, value 0.93)
  // though only c7e8 wins; the knights are not yet apart, so no child is solved on arrival.
  const Game& game = game_by_id("attrition");
  auto s =
      game.new_state("6x1/x1axx1x1/2x1xxxx/1xxx1xx1/1xxxxxb1/x2x1xx1/1x2xx1x/3x1x2 0 0 00 - 32");
  ConstantEvaluator eval;
  for (int nodes : {0, -1}) {
    SearchConfig c = plain(4);
    c.proof_nodes = nodes;
    Search search(eval, c, 1);
    search.set_root(*s);
    const SearchResult r = search.run();
    INFO("proof_nodes " << nodes);
    CHECK(r.proven == (nodes != 0));
    if (nodes == 0) continue;
    CHECK(s->action_to_text(r.best_action) == "c7e8");
    CHECK(r.value[0] == 1.0f);
    CHECK(r.simulations <= 2);  // the root's evaluation and the one playout into the proof
    for (size_t i = 0; i < r.actions.size(); ++i)
      CHECK(r.policy[i] == (r.actions[i] == r.best_action ? 1.0f : 0.0f));
  }
  CHECK(SearchConfig{}.proof_nodes == 0);         // self-play: none unless asked for
  CHECK(play_search_config().proof_nodes == -1);  // play: the position's own budget
  SearchConfig c;
  CHECK_THROWS_AS(set_search_option(c, "proof_nodes", "-2"), Error);
  set_search_option(c, "proof_nodes", "0");
  CHECK(c.proof_nodes == 0);
}

TEST_CASE("attrition with three players: values are per seat", "[mcts][attrition]") {
  // Seat 1's knight on a1 has no move left (b3 and c2 marked): it will be out
  // first whatever happens, so its value is the lowest.
  const std::string fen = "7c/8/8/4a3/8/1x6/2x5/b7 0 0 000 - 6";
  const Game& game = game_by_id("attrition-3p");
  auto s = game.new_state(fen);
  HeuristicEvaluator eval;
  const SearchResult r = search_once(eval, plain(800, 8), 1, *s);
  REQUIRE(r.value.size() == 3);
  CHECK(r.value[1] < -0.9f);
  CHECK(r.value[1] < r.value[0]);
  CHECK(r.value[1] < r.value[2]);
  CHECK(r.value[0] + r.value[1] + r.value[2] == Approx(0.0).margin(1e-3));
}
