#pragma once
// The narrow interface the search sees: players, the player to act, legal
// actions as sorted integers in [0, num_actions), apply/undo, terminal test
// and returns per player. Every variant is reached through it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "game/encoding.h"
#include "game/policy_map.h"
#include "game/variant.h"

namespace vzero {

class GameState;

// A variant's rules: immutable, shared by all its states.
class Game {
 public:
  virtual ~Game() = default;
  virtual const Variant& variant() const = 0;
  const std::string& id() const { return variant().id; }
  virtual int num_players() const = 0;
  virtual int num_actions() const = 0;
  // The text of an action, independent of any position (e.g. "e7e8q", "N@d4").
  virtual const std::string& action_text(int action) const = 0;
  // The start position, or the position of a FEN (throws Error when it is bad).
  virtual std::unique_ptr<GameState> new_state(const std::string& fen = "") const = 0;
  // The newest layout of the network input (encoding.h); empty for games without one.
  const EncodingSpec& encoding() const { return encoding(encoding_versions()); }
  // Layouts 1..encoding_versions() of the network input, oldest first: a model
  // reads the version it was made with (ModelConfig::encoding), a new one the newest.
  virtual int encoding_versions() const { return 1; }
  // Layout `version` (1..encoding_versions(); throws Error otherwise).
  virtual const EncodingSpec& encoding(int version) const;
  // Where a convolutional policy head reads each action (policy_map.h);
  // nullopt for a core whose actions have no plane and square.
  virtual std::optional<PolicyMap> policy_map() const { return std::nullopt; }
};

// One position of a game and its history.
class GameState {
 public:
  virtual ~GameState() = default;
  virtual const Game& game() const = 0;
  int num_players() const { return game().num_players(); }
  // The seat that chooses the next action; -1 when the game is over.
  virtual int current_player() const = 0;
  // The legal actions, sorted and unique; empty when the game is over.
  virtual const std::vector<int>& legal_actions() const = 0;
  virtual void apply(int action) = 0;  // throws Error when the action is not legal
  virtual void undo() = 0;             // takes back the last apply
  virtual bool is_terminal() const = 0;
  // Per seat: +1 win, -1 loss, 0 draw (3-4 players: spread by rank); zeros while playing.
  virtual std::vector<double> returns() const = 0;
  // An action that wins the game at once for the player to act, where the rules know one
  // cheaply (capturing the enemy king where that wins: PC-10); -1 otherwise.
  virtual int winning_action() const { return -1; }
  // Why the game ended ("checkmate", "stalemate", "repetition", "fifty-move", "cap", ...); "" while
  // playing.
  virtual std::string end_reason() const = 0;
  // Tells apart everything that makes positions differ (rights, phase, hands, ...).
  virtual uint64_t hash() const = 0;
  virtual std::string fen() const = 0;
  virtual std::string action_to_text(int action) const = 0;
  // The action of a text in the rules notation; throws Error if malformed or illegal.
  virtual int text_to_action(const std::string& text) const = 0;
  virtual std::unique_ptr<GameState> clone() const = 0;
  // Plies played since this state was created.
  virtual int plies() const = 0;
  // Leaves of the legal action tree of this depth (a terminal position before the last ply counts
  // 0).
  virtual uint64_t perft(int depth) = 0;
  // A diagram for people: board, hands, turn.
  virtual std::string to_text() const = 0;
  // Plies since the last capture or pawn move (the fifty-move clock) in a variant with the
  // fifty-move rule; 0 elsewhere.
  virtual int no_progress_plies() const { return 0; }
  // True when no sequence of legal actions from here can end the game other than in a draw (a dead
  // position: neither side can ever mate), though the rules play on; false where unknown.
  virtual bool dead_draw() const { return false; }
  // The returns per seat under best play from here, where the variant knows them exactly and
  // cheaply (attrition's knights in regions of their own: the longer knight path wins; 007: a mate
  // within the chooser's turn); nullopt elsewhere and once the game is over.
  virtual std::optional<std::vector<double>> solved_returns() const { return std::nullopt; }
  // How many positions a proof search from here (search/proof.h) may visit by default ([search]
  // proof_nodes = -1): worth it where exact answers lie a few plies away (attrition's endgames);
  // 0 elsewhere.
  virtual int proof_budget() const { return 0; }
  // Sets the game-length cap in plies (a draw when reached); 0 means none.
  virtual void set_max_plies(int plies) = 0;
  // A cheap static guess of the outcome per seat, each in [-1, 1] (material,
  // mobility); zeros where a variant has none.
  virtual std::vector<double> heuristic_values() const {
    return std::vector<double>(num_players(), 0.0);
  }
  // Writes the network input of game().encoding(version): planes (C*H*W bytes)
  // and scalars; the plies scalar is plies / plies_scale (plies_scale 0: / this
  // state's cap), so a network sees the scale it was trained with whatever
  // cap the game it plays has. Throws Error for a version the game lacks.
  void encode(uint8_t* planes, float* scalars, int plies_scale, int version) const;
  // The same in the newest encoding.
  void encode(uint8_t* planes, float* scalars, int plies_scale) const;
  // The same with the state's own cap as the plies scale.
  void encode(uint8_t* planes, float* scalars) const { encode(planes, scalars, 0); }

 protected:
  // encode's work, for a version already checked to exist.
  virtual void write_input(uint8_t* planes, float* scalars, int plies_scale, int version) const;
};

// How a game stopped at its rules' end or at a dead position ended: the returns per seat and the
// end reason ("dead-position", a draw, where the rules would play on).
struct GameEnd {
  std::vector<double> returns;
  std::string reason;
};
GameEnd game_end(const GameState& state);

// Checks that text has the shape of an action in the rules notation.
bool is_action_syntax(const std::string& text);

}  // namespace vzero
