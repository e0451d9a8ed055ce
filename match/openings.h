#pragma once
// Openings for matches: a position (FEN, or the variant's start) and actions
// played from it. Read from a file (one opening a line: a FEN, or
// "moves: a1 a2 ..." from the start; '#' starts a comment) or drawn as random
// plies. A match plays each opening once in every seat order.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero {

struct Opening {
  std::string fen;                 // "" for the variant's start position
  std::vector<std::string> moves;  // actions from there, in the rules notation
  bool operator==(const Opening& o) const { return fen == o.fen && moves == o.moves; }
  bool operator!=(const Opening& o) const { return !(*this == o); }
  // The opening's line in an openings file ("moves: ..." or the FEN, then any moves).
  std::string text() const;
};

// The position after the opening (throws Error when the FEN or a move is bad).
std::unique_ptr<GameState> play_opening(const Game& game, const Opening& opening);

// Reads one line of an openings file: a FEN, "moves: a1 a2 ...", or "<FEN> moves: a1 ...";
// throws Error (without the place) when it is malformed, illegal or ends the game.
Opening parse_opening(const Game& game, const std::string& line);

// Reads an openings file; an error names the file and line ("FILE:LINE: why").
std::vector<Opening> read_openings(const Game& game, const std::string& path);

// Random legal plies from the start (fewer if the game ends first), seeded.
Opening random_opening(const Game& game, int plies, uint64_t seed);

// How to find balanced openings: distinct random openings of `plies` plies,
// each measured with a network-free search of `simulations` playouts per
// move: by its root value per seat (games = 0), or by the mean return per
// seat of `games` games the search plays against itself from there (with
// root noise, and its first 4 moves drawn in proportion to visits, so that
// the games show the chances rather than one line). Kept are the `keep` whose values per seat
// lie closest together (for 2 players: nearest 0).
struct BalanceConfig {
  int plies = 2;
  int candidates = 100;
  int keep = 20;
  int simulations = 3200;
  std::string evaluator = "rollout";  // rollout | heuristic | constant
  int games = 0;
  uint64_t seed = 1;
};
struct MeasuredOpening {
  Opening opening;
  std::vector<double> values;  // per seat: the root value, or the mean return of the games
  double spread = 0.0;         // largest minus smallest value
};
// The kept openings, most balanced first (throws Error on bad settings);
// progress(measured, candidates), when given, is called after each measured candidate.
std::vector<MeasuredOpening> balanced_openings(
    const Game& game, const BalanceConfig& config,
    const std::function<void(int measured, int candidates)>& progress = {});

}  // namespace vzero
