// Openings: parsing, checking by playing them, and random ones.
#include "mcts/openings.h"

#include <fstream>
#include <sstream>

#include "game/error.h"
#include "game/zobrist.h"

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

}  // namespace vzero
