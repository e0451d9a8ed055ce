// Player kinds and their spec strings.
#include "match/players.h"

#include <map>
#include <mutex>

#include "game/zobrist.h"
#include "match/uci_player.h"
#include "search/evaluators.h"
#include "util/error.h"

namespace vzero {

int RandomPlayer::choose(const GameState& state) {
  const std::vector<int>& legal = state.legal_actions();
  VZERO_CHECK(!legal.empty(), "random player: no legal action");
  return legal[(splitmix64(rng_) >> 11) % legal.size()];
}

int SearchPlayer::choose(const GameState& state) {
  VZERO_CHECK(state.hash() == search_.root_state().hash(),
              "search player: out of step with the game");
  last_ = search_.run();
  return search_.choose_action(last_);
}

std::string SpecOptions::take(const std::string& key, const std::string& fallback) {
  for (auto it = items.begin(); it != items.end(); ++it)
    if (it->first == key) {
      std::string v = it->second;
      items.erase(it);
      return v;
    }
  return fallback;
}

SpecOptions parse_spec_options(const std::string& text) {
  SpecOptions o;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error("player option '" + item + "' is not key=value");
    o.items.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = end + 1;
  }
  return o;
}

void apply_search_options(SpecOptions& options, SearchConfig& config) {
  for (const auto& [key, value] : options.items)
    set_search_option(config, key == "sims" ? "simulations" : key, value);
  options.items.clear();
}

namespace {

// The registered kinds; holds the built-in ones from its construction on.
struct PlayerRegistry {
  std::mutex mutex;
  std::map<std::string, PlayerMaker> makers;
  PlayerRegistry() {
    for (PlayerKind kind : {random_player_kind(), search_player_kind(), uci_player_kind()})
      makers[kind.name] = std::move(kind.maker);
  }
};

// The one registry, built (with the built-in kinds) on first use; C++ makes that thread-safe.
PlayerRegistry& registry() {
  static PlayerRegistry kinds;
  return kinds;
}

std::unique_ptr<Player> make_random_player(SpecOptions& options, const PlayerContext& ctx) {
  if (!options.items.empty()) throw Error("player 'random' takes no options");
  return std::make_unique<RandomPlayer>(ctx.seed);
}

std::unique_ptr<Player> make_search_player(SpecOptions& options, const PlayerContext& ctx) {
  const std::string evaluator = options.take("evaluator", "rollout");
  SearchConfig config = ctx.search;
  apply_search_options(options, config);
  return std::make_unique<SearchPlayer>(make_basic_evaluator(evaluator, ctx.seed ^ 0x5eed), config,
                                        ctx.seed);
}

}  // namespace

PlayerKind random_player_kind() { return {"random", make_random_player}; }

PlayerKind search_player_kind() { return {"mcts", make_search_player}; }

void register_player_kind(const std::string& kind, PlayerMaker maker) {
  PlayerRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.makers[kind] = std::move(maker);
}

std::unique_ptr<Player> make_player(const std::string& spec, const PlayerContext& ctx) {
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  SpecOptions options =
      parse_spec_options(colon == std::string::npos ? "" : spec.substr(colon + 1));
  PlayerMaker maker;
  {
    PlayerRegistry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.makers.find(kind);
    if (it == r.makers.end())
      throw Error("unknown player '" + spec +
                  "' (expected random, mcts:..., uci:... or a registered kind)");
    maker = it->second;
  }
  std::unique_ptr<Player> p = maker(options, ctx);
  if (!options.items.empty())
    throw Error("player '" + spec + "': unknown option '" + options.items[0].first + "'");
  return p;
}

}  // namespace vzero
