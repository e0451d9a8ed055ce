#pragma once
// A synthetic game for search tests where one player acts k times in a row:
// each turn is k actions by the same seat, seats take turns in order. Every
// action 0..2 adds that many points to the actor; on the last action of a
// turn the actor may instead "claim" (action 3): he wins at once if every
// earlier action of that turn scored 2, and loses at once otherwise. After
// `turns` rounds the highest total wins (+1, the others share the loss);
// equal best totals draw.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "game/game.h"
#include "util/error.h"

namespace vzero::testing {

class TurnsGame : public Game {
 public:
  TurnsGame(int players, int k, int turns, bool claims = true)
      : players_(players), k_(k), turns_(turns), claims_(claims) {
    variant_.id = "turns";
    variant_.players = players;
    for (int a = 0; a < 4; ++a) texts_.push_back(a < 3 ? "p" + std::to_string(a) : "claim");
  }
  const Variant& variant() const override { return variant_; }
  int num_players() const override { return players_; }
  int num_actions() const override { return 4; }
  const std::string& action_text(int action) const override { return texts_.at(action); }
  std::unique_ptr<GameState> new_state(const std::string& fen = "") const override;

  int players_, k_, turns_;
  bool claims_;

 private:
  Variant variant_;
  std::vector<std::string> texts_;
};

class TurnsState : public GameState {
 public:
  explicit TurnsState(const TurnsGame& g) : g_(g) { refresh(); }
  const Game& game() const override { return g_; }
  int current_player() const override { return is_terminal() ? -1 : mover(); }
  const std::vector<int>& legal_actions() const override { return legal_; }
  void apply(int action) override {
    check(std::binary_search(legal_.begin(), legal_.end(), action), "illegal action");
    history_.push_back(action);
    refresh();
  }
  void undo() override {
    check(!history_.empty(), "nothing to undo");
    history_.pop_back();
    refresh();
  }
  bool is_terminal() const override {
    return claimed() || int(history_.size()) == g_.players_ * g_.k_ * g_.turns_;
  }
  std::vector<double> returns() const override {
    const int n = g_.players_;
    std::vector<double> r(n, 0.0);
    if (!is_terminal()) return r;
    int winner = -1;
    if (claimed()) {
      const int actor = mover_of(int(history_.size()) - 1);
      const bool good =
          std::all_of(history_.end() - g_.k_, history_.end() - 1, [](int a) { return a == 2; });
      if (good) {
        winner = actor;
      } else {  // the claimant alone loses
        for (int s = 0; s < n; ++s) r[s] = s == actor ? -1.0 : 1.0 / (n - 1);
        return r;
      }
    } else {
      std::vector<int> total = totals();
      const int best = *std::max_element(total.begin(), total.end());
      if (std::count(total.begin(), total.end(), best) > 1) return r;
      winner = int(std::max_element(total.begin(), total.end()) - total.begin());
    }
    for (int s = 0; s < n; ++s) r[s] = s == winner ? 1.0 : -1.0 / (n - 1);
    return r;
  }
  std::string end_reason() const override {
    return is_terminal() ? (claimed() ? "claim" : "end") : "";
  }
  uint64_t hash() const override {
    uint64_t h = 1469598103934665603ull;
    for (int a : history_) h = (h ^ uint64_t(a + 1)) * 1099511628211ull;
    return h;
  }
  std::string fen() const override {
    std::string s = "turns";
    for (int a : history_) s += " " + std::to_string(a);
    return s;
  }
  std::string action_to_text(int action) const override { return g_.action_text(action); }
  int text_to_action(const std::string& text) const override {
    for (int a = 0; a < 4; ++a)
      if (g_.action_text(a) == text) return a;
    throw Error("bad action");
  }
  std::unique_ptr<GameState> clone() const override { return std::make_unique<TurnsState>(*this); }
  int plies() const override { return int(history_.size()); }
  uint64_t perft(int depth) override {
    if (depth == 0) return 1;
    uint64_t n = 0;
    for (int a : std::vector<int>(legal_)) {
      apply(a);
      n += perft(depth - 1);
      undo();
    }
    return n;
  }
  std::string to_text() const override { return fen(); }
  void set_max_plies(int) override {}

  int mover() const { return mover_of(int(history_.size())); }
  std::vector<int> totals() const {
    std::vector<int> t(g_.players_, 0);
    for (size_t i = 0; i < history_.size(); ++i)
      if (history_[i] < 3) t[mover_of(int(i))] += history_[i];
    return t;
  }

 private:
  int mover_of(int ply) const { return (ply / g_.k_) % g_.players_; }
  bool claimed() const { return !history_.empty() && history_.back() == 3; }
  void refresh() {
    legal_.clear();
    if (is_terminal()) return;
    legal_ = {0, 1, 2};
    if (g_.claims_ && history_.size() % g_.k_ == size_t(g_.k_ - 1)) legal_.push_back(3);
  }

  const TurnsGame& g_;
  std::vector<int> history_;
  std::vector<int> legal_;
};

inline std::unique_ptr<GameState> TurnsGame::new_state(const std::string&) const {
  return std::make_unique<TurnsState>(*this);
}

}  // namespace vzero::testing
