#pragma once
// The base of the two-player board games (the chess-like and fairy cores):
// the Game part they share (variant, action space, encoding, piece values)
// and the cache of legal moves their states keep.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "game/game.h"
#include "game/types.h"

namespace vzero {

// A two-player Game over a fixed action space `Actions` (an ActionTexts with
// index(Move)); the rules cores derive their Game from it.
template <class Actions>
class TwoPlayerGame : public Game {
 public:
  const Variant& variant() const override { return variant_; }
  int num_players() const override { return 2; }
  int num_actions() const override { return actions_.size(); }
  const std::string& action_text(int action) const override { return actions_.text(action); }
  using Game::encoding;
  const EncodingSpec& encoding(int version) const override {
    check_encoding_version(*this, version);
    return encoding_;
  }
  // Moves and drops by their texts (policy_map_of_texts).
  std::optional<PolicyMap> policy_map() const override { return policy_map_of_texts(*this); }
  const Actions& actions() const { return actions_; }
  double value_of(int type) const { return values_[size_t(type)]; }  // piece_value, kept

 protected:
  TwoPlayerGame(const Variant& v, Actions actions, EncodingSpec encoding)
      : variant_(v), actions_(std::move(actions)), encoding_(std::move(encoding)) {
    for (size_t t = 0; t < v.pieces.size(); ++t) values_.push_back(piece_value(v, int(t)));
  }

 private:
  const Variant& variant_;
  Actions actions_;
  EncodingSpec encoding_;
  std::vector<double> values_;
};

// The legal moves of a position with their actions, or its result.
struct LegalMoves {
  std::vector<int> actions;  // sorted
  std::vector<Move> moves;   // moves[i] has action actions[i]
  int result = -1;           // winner 0/1, 2 for a draw, -1 while playing
  std::string reason;

  // Promises the move of a legal action; throws Error naming the position
  // (fen(), asked only then) when it is not legal.
  template <class Fen>
  Move move_of(int action, const Fen& fen) const {
    const int i = index_of(action);
    if (i < 0) throw_illegal(action, fen());
    return moves[size_t(i)];
  }
  // Promises the action whose move has this text (move_text(move) == text);
  // throws Error when the text is malformed or no legal move has it.
  template <class MoveText, class Fen>
  int action_of(const std::string& text, const MoveText& move_text, const Fen& fen) const {
    check_action_syntax(text);
    for (size_t i = 0; i < moves.size(); ++i)
      if (move_text(moves[i]) == text) return actions[i];
    throw_illegal(text, fen());
  }
  // Per seat of a two-player game: +1 win, -1 loss, 0 draw or while playing.
  std::vector<double> returns() const;

 private:
  int index_of(int action) const;  // its place in actions, -1 when not legal
  static void check_action_syntax(const std::string& text);
  [[noreturn]] static void throw_illegal(int action, const std::string& fen);
  [[noreturn]] static void throw_illegal(const std::string& text, const std::string& fen);
};

}  // namespace vzero
