// proof.h: a depth-first three-valued negamax, the most cornering actions first, with a table of
// proven positions.
#include "search/proof.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace vzero {
namespace {

constexpr int kMaxDepth = 256;  // plies below the root; deeper lines are unknown

enum class Outcome : int8_t { Loss = -1, Unknown = 0, Win = 1 };  // for the seat to act

Outcome flip(Outcome o) { return Outcome(-int8_t(o)); }

class Prover {
 public:
  Prover(GameState& state, int64_t budget) : state_(state), budget_(budget) {}

  // The outcome for the seat to act within `depth` more actions (leaves beyond it are unknown),
  // with the action that proves a win in *best.
  Outcome search(int depth, int* best) {
    ++nodes_;
    const int me = state_.current_player();
    // Below the root (best == nullptr) a known answer will do; the root, searched first, also needs
    // the action of a win, which solved_returns does not give.
    if (!best)
      if (const auto known = proven_.find(state_.hash()); known != proven_.end())
        return known->second;
    if (const int win = state_.winning_action(); win >= 0) return remember(Outcome::Win, win, best);
    if (const auto solved = state_.solved_returns()) {
      const Outcome o = (*solved)[size_t(me)] > 0 ? Outcome::Win : Outcome::Loss;
      if (!best || o == Outcome::Loss) return remember(o, -1, best);
    }
    if (depth == 0 || spent()) return Outcome::Unknown;
    bool all_lost = true;
    for (int a : ordered_actions()) {
      if (spent()) return Outcome::Unknown;
      state_.apply(a);
      Outcome o = Outcome::Unknown;
      if (state_.is_terminal()) {
        const double r = state_.returns()[size_t(me)];
        o = r > 0 ? Outcome::Win : r < 0 ? Outcome::Loss : Outcome::Unknown;
      } else {
        const Outcome child = search(depth - 1, nullptr);
        o = state_.current_player() == me ? child : flip(child);
      }
      state_.undo();
      if (o == Outcome::Win) return remember(Outcome::Win, a, best);
      all_lost &= o == Outcome::Loss;
    }
    return all_lost ? remember(Outcome::Loss, -1, best) : Outcome::Unknown;
  }

  // The legal actions, those that leave the next player the fewest replies first (a cornered
  // opponent is the likeliest win).
  std::vector<int> ordered_actions() {
    std::vector<std::pair<int, int>> scored;
    const std::vector<int> legal = state_.legal_actions();  // a copy: apply refreshes the state's
    for (int a : legal) {
      state_.apply(a);
      scored.emplace_back(state_.is_terminal() ? -1 : int(state_.legal_actions().size()), a);
      state_.undo();
    }
    std::sort(scored.begin(), scored.end());
    std::vector<int> actions;
    for (const auto& s : scored) actions.push_back(s.second);
    return actions;
  }

  int64_t nodes() const { return nodes_; }
  bool spent() const { return nodes_ >= budget_; }

 private:
  // Records a proven outcome of the position, and for the root the action that proves it.
  Outcome remember(Outcome o, int action, int* best) {
    proven_[state_.hash()] = o;
    if (best) *best = action;
    return o;
  }

  GameState& state_;
  int64_t budget_;
  int64_t nodes_ = 0;
  std::unordered_map<uint64_t, Outcome> proven_;  // positions proven won or lost (hash() tells
                                                  // apart everything that matters to the outcome)
};

}  // namespace

Proof prove(GameState& state, int64_t budget) {
  Proof proof;
  if (state.num_players() != 2 || state.is_terminal()) return proof;
  const int me = state.current_player();
  Prover prover(state, budget);
  int action = -1;
  const Outcome o = prover.search(kMaxDepth, &action);
  if (o != Outcome::Unknown) {
    proof.winner = o == Outcome::Win ? me : 1 - me;
    proof.action = o == Outcome::Win ? action : -1;
  }
  proof.nodes = prover.nodes();
  return proof;
}

}  // namespace vzero
