#pragma once
// Openings for matches: a position (FEN, or the variant's start) and actions
// played from it. Read from a file (one opening a line: a FEN, or
// "moves: a1 a2 ..." from the start; '#' starts a comment) or drawn as random
// plies. A match plays each opening once in every seat order.
#include <cstdint>
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

}  // namespace vzero
