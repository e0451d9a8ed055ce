#pragma once
// FairyGame and FairyState, the "fairy" rules (fairy_rules.h) behind the Game
// interface; private to the fairy core (fairy_game.cpp, fairy_encoding.cpp,
// fairy_heuristics.cpp).
#include <memory>
#include <string>
#include <vector>

#include "game/fairy/fairy_actions.h"
#include "game/fairy/fairy_rules.h"
#include "game/two_player_game.h"

namespace vzero {

// The network input of a fairy variant (fairy_encoding.cpp).
EncodingSpec fairy_encoding(const FairyRules& r);

// The Game of a variant with hook "fairy": its rules, actions and encoding.
class FairyGame : public TwoPlayerGame<FairyActions> {
 public:
  explicit FairyGame(const Variant& v) : FairyGame(v, FairyRules(v)) {}
  std::unique_ptr<GameState> new_state(const std::string& fen) const override;
  const FairyRules& rules() const { return rules_; }

 private:
  FairyGame(const Variant& v, FairyRules rules)
      : TwoPlayerGame(v, FairyActions(rules), fairy_encoding(rules)), rules_(std::move(rules)) {}
  FairyRules rules_;
};

// A position of a fairy game with its history: repetitions, SH-12 checks, clocks.
class FairyState : public GameState {
 public:
  FairyState(const FairyGame& game, const std::string& fen);
  const Game& game() const override { return game_; }
  int current_player() const override { return is_terminal() ? -1 : int(pos().stm); }
  const std::vector<int>& legal_actions() const override { return legal().actions; }
  void apply(int action) override;
  void undo() override;
  bool is_terminal() const override { return legal().result >= 0; }
  std::vector<double> returns() const override { return legal().returns(); }
  // A legal capture of the enemy king where that wins (PC-10), else -1.
  int winning_action() const override;
  std::string end_reason() const override { return legal().reason; }
  uint64_t hash() const override { return keys_.back(); }
  std::string fen() const override { return game_.rules().fen(pos()); }
  std::string action_to_text(int action) const override { return game_.action_text(action); }
  int text_to_action(const std::string& text) const override;
  std::unique_ptr<GameState> clone() const override { return std::make_unique<FairyState>(*this); }
  int plies() const override { return int(history_.size()) - 1; }
  int no_progress_plies() const override { return game_.variant().fifty_move ? pos().rule50 : 0; }
  uint64_t perft(int depth) override { return game_.rules().perft(pos(), depth); }
  std::string to_text() const override;
  void set_max_plies(int plies) override { max_plies_ = plies; }
  // Material, pieces in hand included: tanh of the balance in pawns / 5 (fairy_heuristics.cpp).
  std::vector<double> heuristic_values() const override;

 protected:
  // Fills fairy_encoding's planes and scalars, from the view of the side to act
  // (fairy_encoding.cpp).
  void write_input(uint8_t* planes, float* scalars, int plies_scale, int version) const override;

 private:
  const FairyPos& pos() const { return history_.back(); }
  // Records the key of the newest position and whether its side to move is in check.
  void push_key();
  // Earlier positions equal to this one: within the fifty-move clock's window,
  // or the whole game without that rule; *first: the earliest (if any).
  int repetitions(int* first) const;
  // SH-12: the seat that gave check with every one of its moves since position
  // `first` loses (the last mover is judged first); -1 when neither did.
  int perpetual_checker(int first) const;
  const LegalMoves& legal() const;

  const FairyGame& game_;
  std::vector<FairyPos> history_;
  std::vector<uint64_t> keys_;
  std::vector<uint8_t> checks_;  // per position: its side to move is in check (kept for SH-12 only)
  int max_plies_;
  mutable LegalMoves legal_;
  mutable bool valid_ = false;
};

}  // namespace vzero
