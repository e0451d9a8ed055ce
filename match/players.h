#pragma once
// Players for matches and self-play: a uniformly random player, a search
// player and UCI engines, built from a spec string such as "random",
// "mcts:sims=400,evaluator=heuristic,cpuct=1.5" or
// "uci:cmd=fairy-stockfish,depth=2". Other folders register more kinds
// (net/ adds "net:"), so the arena can play anything.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"
#include "search/config.h"
#include "search/search.h"
#include "util/error.h"

namespace vzero {

// Thrown by a player that cannot go on (an engine died, hung or played an
// illegal move): it loses that game by forfeit, and the match goes on.
class PlayerForfeit : public Error {
 public:
  using Error::Error;
};

class Player {
 public:
  virtual ~Player() = default;
  // Called once before a game, with its start position.
  virtual void new_game(const GameState& start) = 0;
  // The action to play where the game stands (this player is to act).
  virtual int choose(const GameState& state) = 0;
  // Told every action played (its own included), in order.
  virtual void observe(int action) { (void)action; }
};

class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed) {}
  void new_game(const GameState&) override {}
  int choose(const GameState& state) override;

 private:
  uint64_t rng_;
};

// Plays the action its search chooses; owns its evaluator unless given a shared one. Its
// search counts as a caller of the evaluator only while it searches (players of one model
// share a server: the one waiting for its opponent must not hold up its batches).
class SearchPlayer : public Player {
 public:
  SearchPlayer(std::shared_ptr<Evaluator> evaluator, const SearchConfig& config, uint64_t seed)
      : evaluator_(std::move(evaluator)),
        search_(*evaluator_, config, seed, Attach::WhileRunning) {}
  void new_game(const GameState& start) override { search_.set_root(start); }
  int choose(const GameState& state) override;
  void observe(int action) override { search_.advance(action); }
  const SearchResult& last_result() const { return last_; }
  // The evaluator and settings of its search, for analyses beside its games (hints, UCI, serve).
  const std::shared_ptr<Evaluator>& evaluator() const { return evaluator_; }
  const SearchConfig& config() const { return search_.config(); }

 private:
  std::shared_ptr<Evaluator> evaluator_;
  Search search_;
  SearchResult last_;
};

// Key=value options after "kind:" in a spec ("sims=400,evaluator=rollout").
struct SpecOptions {
  std::vector<std::pair<std::string, std::string>> items;
  // Removes and returns the value of key, or fallback when absent.
  std::string take(const std::string& key, const std::string& fallback);
};
SpecOptions parse_spec_options(const std::string& text);
// Applies search options (sims = simulations, any [search] key) to config;
// throws Error on an unknown key.
void apply_search_options(SpecOptions& options, SearchConfig& config);

// What a player factory gets besides its options.
struct PlayerContext {
  const Game* game = nullptr;
  uint64_t seed = 0;
  SearchConfig search;  // defaults from the config file
};
using PlayerMaker =
    std::function<std::unique_ptr<Player>(SpecOptions& options, const PlayerContext& ctx)>;

// A player kind as its file registers it: the name before ':' and its factory.
struct PlayerKind {
  std::string name;
  PlayerMaker maker;
};
// The built-in kinds: "random" and "mcts" (here) and "uci" (uci_player.h). The
// registry adds them once, thread-safely, on its first use.
PlayerKind random_player_kind();
PlayerKind search_player_kind();

// Adds (or replaces) a player kind ("net", ...) for make_player.
void register_player_kind(const std::string& kind, PlayerMaker maker);
// The player of a spec: "random", "mcts:...", "uci:..." (uci_player.h), or a
// registered kind (throws Error when unknown or malformed).
std::unique_ptr<Player> make_player(const std::string& spec, const PlayerContext& ctx);

}  // namespace vzero
