#pragma once
// Pieces of FEN reading shared by the chess-like cores (fen.cpp) and the
// fairy core (fairy_fen.cpp): fields, numbers, the board field, the clocks.
#include <functional>
#include <string>
#include <vector>

#include "game/geometry.h"
#include "game/variant.h"

namespace vzero {

// Throws Error with a message; the readers' way of rejecting text.
using FenFail = std::function<void(const std::string&)>;

// The whitespace-separated fields of a FEN line.
std::vector<std::string> fen_fields(const std::string& fen);
// A non-negative decimal number no larger than `max`, or -1.
long parse_count(const std::string& s, long max);
// Reads the board field (ranks from the top, '/' between, digits for empty
// squares, "+x" for the promoted form of x); calls put(letter, type, square)
// for every piece; fails on bad text.
void read_board_field(const std::string& board, const Variant& v, const Geometry& g,
                      const std::function<void(char letter, int type, int square)>& put, const FenFail& fail);

// The halfmove clock and the game ply of fields 5 and 6 (defaults 0 and move 1).
struct FenClocks {
  int rule50 = 0;
  int game_ply = 0;
};
FenClocks read_clocks(const std::vector<std::string>& f, bool black_to_move, const FenFail& fail);

}  // namespace vzero
