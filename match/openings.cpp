// Openings: parsing, checking by playing them, and random ones.
#include "match/openings.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "game/zobrist.h"
#include "search/evaluators.h"
#include "search/search.h"
#include "util/error.h"

namespace vzero {

namespace {

const std::string kMovesKey = "moves:";

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

std::string Opening::text() const {
  std::string out = fen;
  if (!moves.empty() || fen.empty()) {
    out += fen.empty() ? kMovesKey : " " + kMovesKey;
    for (const std::string& m : moves) out += " " + m;
  }
  return out;
}

std::unique_ptr<GameState> play_opening(const Game& game, const Opening& opening) {
  std::unique_ptr<GameState> state = game.new_state(opening.fen);
  for (const std::string& m : opening.moves) {
    check(!state->is_terminal(), "opening move '" + m + "' comes after the end of the game");
    try {
      state->apply(state->text_to_action(m));
    } catch (const Error& e) {
      throw Error("opening move '" + m + "': " + e.what());
    }
  }
  return state;
}

Opening parse_opening(const Game& game, const std::string& line) {
  const std::string text = trim(line);
  check(!text.empty(), "empty opening");
  Opening o;
  const size_t key = text.find(kMovesKey);
  o.fen = trim(text.substr(0, key));
  if (key != std::string::npos) {
    std::istringstream moves(text.substr(key + kMovesKey.size()));
    for (std::string m; moves >> m;) o.moves.push_back(m);
  }
  check(!o.fen.empty() || !o.moves.empty(), "'moves:' without moves");
  const std::unique_ptr<GameState> end = play_opening(game, o);
  check(!end->is_terminal(), "the game is over after this opening");
  return o;
}

std::vector<Opening> read_openings(const Game& game, const std::string& path) {
  std::ifstream in(path);
  check(bool(in), "cannot read openings file '" + path + "'");
  std::vector<Opening> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trim(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    try {
      out.push_back(parse_opening(game, text));
    } catch (const Error& e) {
      throw Error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  check(!out.empty(), "openings file '" + path + "' has no openings");
  return out;
}

Opening random_opening(const Game& game, int plies, uint64_t seed) {
  Opening o;
  std::unique_ptr<GameState> state = game.new_state();
  for (int ply = 0; ply < plies && !state->is_terminal(); ++ply) {
    const std::vector<int>& legal = state->legal_actions();
    const int action = legal[(splitmix64(seed) >> 11) % legal.size()];
    o.moves.push_back(state->action_to_text(action));
    state->apply(action);
  }
  while (state->is_terminal() && !o.moves.empty()) {  // keep a game to play
    state->undo();
    o.moves.pop_back();
  }
  return o;
}

namespace {

constexpr int kDrawnPlies = 4;  // self-play moves after the opening drawn in proportion to visits

// Per seat: the root value of one search from state, or the mean return of self-play games from it.
std::vector<double> measure(const GameState& state, Evaluator& evaluator, const BalanceConfig& c,
                            uint64_t& rng) {
  SearchConfig config;
  config.simulations = c.simulations;
  if (c.games == 0) {
    Search search(evaluator, config, splitmix64(rng));
    search.set_root(state);
    const SearchResult r = search.run();
    return {r.value.begin(), r.value.end()};
  }
  config.root_noise = true;  // games that differ: noise, and the first moves drawn by visits
  config.temperature_plies = state.plies() + kDrawnPlies;
  std::vector<double> sum(state.num_players(), 0.0);
  for (int g = 0; g < c.games; ++g) {
    std::unique_ptr<GameState> s = state.clone();
    Search search(evaluator, config, splitmix64(rng));
    search.set_root(*s);
    while (!s->is_terminal()) {
      const int action = search.choose_action(search.run());
      s->apply(action);
      search.advance(action);
    }
    const std::vector<double> r = s->returns();
    for (size_t seat = 0; seat < r.size(); ++seat) sum[seat] += r[seat] / c.games;
  }
  return sum;
}

}  // namespace

std::vector<MeasuredOpening> balanced_openings(const Game& game, const BalanceConfig& c,
                                               const std::function<void(int, int)>& progress) {
  check(c.plies >= 1 && c.plies <= 100, "openings: plies must be in [1, 100]");
  check(c.candidates >= 1 && c.candidates <= 100000, "openings: candidates must be in [1, 100000]");
  check(c.keep >= 1 && c.keep <= c.candidates, "openings: keep must be in [1, candidates]");
  check(c.simulations >= 1 && c.simulations <= 10000000,
        "openings: simulations must be in [1, 10000000]");
  check(c.games >= 0 && c.games <= 10000, "openings: games must be in [0, 10000]");
  const std::unique_ptr<Evaluator> evaluator = make_basic_evaluator(c.evaluator, c.seed);
  std::vector<MeasuredOpening> out;
  std::set<uint64_t> seen;  // positions already measured
  uint64_t rng = c.seed;
  for (int tries = 0; int(out.size()) < c.candidates && tries < 20 * c.candidates; ++tries) {
    MeasuredOpening m;
    m.opening = random_opening(game, c.plies, splitmix64(rng));
    const std::unique_ptr<GameState> state = play_opening(game, m.opening);
    if (int(m.opening.moves.size()) != c.plies || !seen.insert(state->hash()).second) continue;
    m.values = measure(*state, *evaluator, c, rng);
    m.spread = *std::max_element(m.values.begin(), m.values.end()) -
               *std::min_element(m.values.begin(), m.values.end());
    out.push_back(std::move(m));
    if (progress) progress(int(out.size()), c.candidates);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.spread < b.spread; });
  out.resize(std::min(out.size(), size_t(c.keep)));
  return out;
}

}  // namespace vzero
