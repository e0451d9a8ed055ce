#pragma once
// Game and state of the chess-like variants (a Position plus game rules:
// the end of the game, draws and the length cap).
#include <memory>
#include <optional>
#include <vector>

#include "game/actions.h"
#include "game/chess/position.h"
#include "game/game.h"
#include "game/two_player_game.h"

namespace vzero {

// The encoding of a chess-like variant (chess_encoding.cpp).
EncodingSpec chess_encoding(const Variant& v);

class ChessGame : public TwoPlayerGame<ActionMap> {
 public:
  explicit ChessGame(const Variant& v) : TwoPlayerGame(v, ActionMap(v), chess_encoding(v)) {}
  std::unique_ptr<GameState> new_state(const std::string& fen) const override;
};

class ChessState : public GameState {
 public:
  ChessState(const ChessGame& game, const std::string& fen);
  const Game& game() const override { return game_; }
  int current_player() const override;
  const std::vector<int>& legal_actions() const override;
  void apply(int action) override;
  void undo() override;
  bool is_terminal() const override;
  std::vector<double> returns() const override;
  std::string end_reason() const override;
  uint64_t hash() const override { return pos_.key(); }
  std::string fen() const override { return pos_.fen(); }
  std::string action_to_text(int action) const override;
  int text_to_action(const std::string& text) const override;
  std::unique_ptr<GameState> clone() const override { return std::make_unique<ChessState>(*this); }
  int plies() const override { return pos_.plies_played(); }
  int no_progress_plies() const override { return pos_.rule50(); }
  bool dead_draw() const override;  // no mating material, where only mate wins
  // 007: won for the chooser where it can mate with the rest of its turn (on the turn's second and
  // third moves; on the first, a mate at once).
  std::optional<std::vector<double>> solved_returns() const override;
  uint64_t perft(int depth) override { return pos_.perft(depth); }
  std::string to_text() const override;
  void set_max_plies(int plies) override { max_plies_ = plies; }
  std::vector<double> heuristic_values() const override;  // by material (chess_heuristics.cpp)
  const Position& position() const { return pos_; }

 protected:
  void write_input(uint8_t* planes, float* scalars, int plies_scale,
                   int version) const override;  // chess_encoding.cpp

 private:
  using Legal = LegalMoves;
  const Legal& legal() const;
  // The winner (0/1), 2 for a draw, -1 while the game goes on, given the
  // number of legal moves; sets reason.
  int outcome(int legal_moves, std::string* reason) const;
  bool insufficient_material() const;  // no mating material, where the variant scores it a draw
  bool no_mating_material() const;     // kings alone, or with one knight or bishop on the board
  // Whether the chooser can checkmate the other colour within `plies` more moves, all in its turn.
  bool chooser_mates_within(int plies) const;

  const ChessGame& game_;
  Position pos_;
  int max_plies_;
  mutable Legal legal_;
  mutable bool legal_valid_ = false;
};

}  // namespace vzero
