#pragma once
// AttritionGame and AttritionState: the rules of attrition_rules.h behind the
// Game / GameState interface of game.h (attrition_game.cpp; encoding and
// heuristics in attrition_encoding.cpp and attrition_heuristics.cpp).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "game/attrition/attrition_rules.h"
#include "game/game.h"
#include "util/error.h"

namespace vzero {

// Encoding `version` of attrition with this many seats (attrition_encoding.cpp):
// 1 the board, 2 the board and each seat's knight-move reach over free squares.
EncodingSpec attrition_encoding(int players, int version);
constexpr int kAttritionEncodings = 2;

// The Game of one attrition variant file: its rules and the 400 action texts.
class AttritionGame : public Game {
 public:
  explicit AttritionGame(const Variant& v)
      : variant_(v),
        rules_(v.players, v.knights, v.ending == "one"),
        encodings_{attrition_encoding(v.players, 1), attrition_encoding(v.players, 2)} {
    check(v.files == 8 && v.ranks == 8, v.id + ": attrition is played on 8x8");
    check(v.ending == "both" || v.ending == "one", v.id + ": attrition ending must be both or one");
    for (int a = 0; a < kAttritionActions; ++a) texts_.push_back(AttritionRules::action_name(a));
    rules_.parse_fen(v.start_fen);  // a bad start position is a configuration error
  }
  const Variant& variant() const override { return variant_; }
  int num_players() const override { return rules_.players(); }
  int num_actions() const override { return kAttritionActions; }
  const std::string& action_text(int action) const override {
    check(action >= 0 && action < kAttritionActions,
          "action " + std::to_string(action) + " out of range");
    return texts_[action];
  }
  std::unique_ptr<GameState> new_state(const std::string& fen) const override;
  const AttritionRules& rules() const { return rules_; }
  using Game::encoding;
  int encoding_versions() const override { return kAttritionEncodings; }
  const EncodingSpec& encoding(int version) const override {
    check_encoding_version(*this, version);
    return encodings_[version - 1];
  }
  // Placements (N@e4) on one plane, each knight step on its own (policy_map_of_texts).
  std::optional<PolicyMap> policy_map() const override { return policy_map_of_texts(*this); }

 private:
  Variant variant_;
  AttritionRules rules_;
  EncodingSpec encodings_[kAttritionEncodings];
  std::vector<std::string> texts_;
};

// A position of an attrition game, its history (for undo) and the length cap.
class AttritionState : public GameState {
 public:
  AttritionState(const AttritionGame& game, const std::string& fen)
      : game_(game),
        rules_(game.rules()),
        pos_(rules_.parse_fen(fen.empty() ? game.variant().start_fen : fen)),
        max_plies_(game.variant().max_plies) {
    actions_.reserve(kAttritionMaxLegal);
    history_.reserve(80);
    refresh();
  }
  const Game& game() const override { return game_; }
  int current_player() const override { return is_terminal() ? -1 : pos_.to_act; }
  const std::vector<int>& legal_actions() const override {
    static const std::vector<int> none;
    return capped() ? none : actions_;
  }
  void apply(int action) override {
    const std::vector<int>& legal = legal_actions();
    if (!std::binary_search(legal.begin(), legal.end(), action))
      throw Error("illegal action " + std::to_string(action) + " in position " + fen());
    history_.push_back(pos_);
    rules_.play(pos_, action);
    refresh();
  }
  void undo() override {
    check(!history_.empty(), "undo: no action to take back");
    pos_ = history_.back();
    history_.pop_back();
    refresh();
  }
  bool is_terminal() const override { return pos_.over() || capped(); }
  std::vector<double> returns() const override;
  std::string end_reason() const override;
  uint64_t hash() const override { return rules_.hash(pos_); }
  std::string fen() const override { return rules_.fen(pos_); }
  std::string action_to_text(int action) const override { return game_.action_text(action); }
  int text_to_action(const std::string& text) const override;
  std::unique_ptr<GameState> clone() const override {
    return std::make_unique<AttritionState>(*this);
  }
  int plies() const override { return int(history_.size()); }
  uint64_t perft(int depth) override { return rules_.perft(pos_, depth); }
  std::string to_text() const override;
  void set_max_plies(int plies) override { max_plies_ = plies; }
  std::vector<double> heuristic_values() const override;  // by mobility (attrition_heuristics.cpp)
  // A capture, or a move that leaves an opponent with no move, that ends the game in a win.
  int winning_action() const override;
  // Separated knights (attrition_solver.h), where the game ends before the length cap.
  std::optional<std::vector<double>> solved_returns() const override;
  // Two players, from the 18th marker on (earlier positions are seldom proven within it): captures,
  // cornering moves and separated knights are exact a few plies ahead.
  int proof_budget() const override {
    return rules_.players() == 2 && __builtin_popcountll(pos_.marked) >= 18 ? 20000 : 0;
  }

 protected:
  void write_input(uint8_t* planes, float* scalars, int plies_scale,
                   int version) const override;  // attrition_encoding.cpp

 private:
  // The game-length cap: a draw once the game's ply counter reaches it.
  bool capped() const { return !pos_.over() && max_plies_ > 0 && pos_.ply >= max_plies_; }
  // Recomputes the cached legal actions of pos_.
  void refresh() {
    uint16_t buf[kAttritionMaxLegal];
    const int n = rules_.generate(pos_, buf);
    actions_.assign(buf, buf + n);
  }

  const AttritionGame& game_;
  const AttritionRules& rules_;
  AttritionPos pos_;
  int max_plies_;
  std::vector<int> actions_;
  std::vector<AttritionPos> history_;
};

}  // namespace vzero
