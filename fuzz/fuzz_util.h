#pragma once
// Shared by the fuzz targets: a check whose failure is a finding (abort, so
// libFuzzer saves the input), and the invariants every game state keeps.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "game/game.h"
#include "util/error.h"

namespace vzero::fuzz {

// Aborts with a message when cond is false: libFuzzer reports it as a crash.
inline void require(bool cond, const char* what) {
  if (!cond) {
    std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
    std::abort();
  }
}

// A file name in memory (/dev/shm) or the temporary directory, owned by this
// process and removed at exit.
inline std::string temp_file(const std::string& name) {
  static const std::string dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : "/tmp/";
  static std::vector<std::string> names;
  if (names.empty())
    std::atexit([] {
      for (const std::string& n : names) std::remove(n.c_str());
    });
  names.push_back(dir + "vzero-fuzz-" + std::to_string(::getpid()) + "-" + name);
  return names.back();
}

// The input as text, split at '\n' (at most max_lines lines; the rest is dropped).
inline std::vector<std::string> lines_of(const uint8_t* data, size_t size, size_t max_lines) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < size && out.size() <= max_lines; ++i) {
    if (data[i] == '\n')
      out.emplace_back();
    else
      out.back().push_back(char(data[i]));
  }
  if (out.size() > max_lines) out.resize(max_lines);
  return out;
}

// The FEN text of s reads back to the same text and hash.
inline void require_fen_round_trip(const GameState& s) {
  const std::string fen = s.fen();
  try {
    const auto again = s.game().new_state(fen);
    require(again->fen() == fen, "fen() reads back to the same text");
    require(again->hash() == s.hash(), "fen() reads back to the same hash");
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz: '%s' rejected: %s\n", fen.c_str(), e.what());
    require(false, "fen() reads back");
  }
}

// Checks what the Game interface promises of s: legal actions in range, a
// seat to act exactly while the game goes on, returns and heuristics per seat
// in [-1, 1], an encoding that fits its buffers, and for a spread of legal
// actions an apply that undo takes back exactly. With strict (the built-in
// variants), also sorted unique actions, and FEN text and action text that
// read back exactly: a fuzzed variant file may describe rules that these
// cannot express (a pawn that rides onto its double-step square, pawns
// dropped on their last rank), which is not a fault of the code.
inline void check_state(GameState& s, bool strict = true) {
  const Game& game = s.game();
  const int players = s.num_players();
  const std::vector<int> legal = s.legal_actions();
  if (strict)
    require(std::is_sorted(legal.begin(), legal.end()) &&
                std::adjacent_find(legal.begin(), legal.end()) == legal.end(),
            "legal actions sorted and unique");
  for (int a : legal) require(a >= 0 && a < game.num_actions(), "legal action in [0, num_actions)");
  if (s.is_terminal()) {
    require(legal.empty() && s.current_player() == -1,
            "a finished game has no actions and no seat to act");
    require(!s.end_reason().empty(), "a finished game says why");
  } else {
    require(!legal.empty(), "a game that goes on has a legal action");
    require(s.current_player() >= 0 && s.current_player() < players, "the seat to act is a seat");
  }
  const std::vector<double> returns = s.returns(), guess = s.heuristic_values();
  require(int(returns.size()) == players && int(guess.size()) == players,
          "returns and heuristics per seat");
  for (size_t i = 0; i < returns.size(); ++i)
    require(returns[i] >= -1 && returns[i] <= 1 && guess[i] >= -1 && guess[i] <= 1,
            "values in [-1, 1]");

  const std::string fen = s.fen();
  const uint64_t hash = s.hash();
  if (strict) require_fen_round_trip(s);
  const EncodingSpec& e = game.encoding();
  if (e.channels() > 0) {
    std::vector<uint8_t> planes(size_t(e.planes) * size_t(e.plane_size()));
    std::vector<float> scalars(size_t(e.scalars));
    s.encode(planes.data(), scalars.data());
  }
  (void)s.to_text();

  // A spread of at most 8 legal actions keeps an execution cheap.
  const size_t stride = legal.size() / 8 + 1;
  for (size_t i = 0; i < legal.size(); i += stride) {
    const int a = legal[i];
    const std::string text = s.action_to_text(a);
    if (strict) {
      require(is_action_syntax(text), "action text has the notation's shape");
      require(s.text_to_action(text) == a, "action text reads back to the action");
    }
    s.apply(a);
    (void)s.legal_actions();
    s.undo();
    require(s.hash() == hash, "undo restores the hash");
  }
  require(s.fen() == fen, "undo restores the position");  // fen() itself must not fail
}

}  // namespace vzero::fuzz
