#pragma once
// Pieces of FEN text shared by the chess-like core (fen.cpp) and the fairy
// core (fairy_fen.cpp): fields, numbers, squares, the board field, side to
// move, kings, castling, en passant and the clocks, read and written.
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
// The name of square s ("a1", "j10").
std::string square_name(const Geometry& g, int s);
// The square of a name like "e4" or "j10"; -1 when it is not a square of the board.
int parse_square(const Geometry& g, const std::string& text);

// Reads the board field (ranks from the top, '/' between, digits for empty
// squares, "+x" for the promoted form of x); calls put(letter, type, square)
// for every piece; fails on bad text.
void read_board_field(const std::string& board, const Variant& v, const Geometry& g,
                      const std::function<void(char letter, int type, int square)>& put,
                      const FenFail& fail);

// The side to move of field 2 ('w' or 'b'); fails when missing or bad.
Color read_side_to_move(const std::vector<std::string>& f, const FenFail& fail);
// Fails unless each side has at most one king, and one at all where the check
// rule needs it or when it is not to move; kings[c]: the count of colour c.
void check_king_counts(const int kings[2], Color to_move, bool check_rule, const FenFail& fail);
// The rights bits (0 White kingside, 1 White queenside, 2/3 Black) of field 3
// ("-" when absent). Every letter must be one of "KQkq"; with squares_known
// false (reading the start position that finds the castling squares) no right
// is set, else a right needs in_place(right): its king and rook on their squares.
uint8_t read_castling_field(const std::vector<std::string>& f, bool has_castling,
                            bool squares_known, const std::function<bool(int right)>& in_place,
                            const FenFail& fail);
// The en-passant square of field 4, -1 for "-" or none; fails unless it lies
// just behind a pawn of the side not to move that has double-stepped from
// its double-step rank onto an empty path.
int read_en_passant_field(const std::vector<std::string>& f, const Variant& v, const Geometry& g,
                          const Piece* board, int pawn, Color to_move, const FenFail& fail);

// The halfmove clock and the game ply of fields 5 and 6 (defaults 0 and move 1).
struct FenClocks {
  int rule50 = 0;
  int game_ply = 0;
};
FenClocks read_clocks(const std::vector<std::string>& f, bool black_to_move, const FenFail& fail);

// The board field of a board (ranks from the top; White and the shared piece
// upper case, "+" before a promoted type).
std::string write_board_field(const Variant& v, const Geometry& g, const Piece* board);
// The fields after the board: " w KQkq e3 0 1" (side, rights bits, en-passant square or -1,
// clocks).
std::string write_fen_fields(const Geometry& g, Color to_move, uint8_t castling, int ep, int rule50,
                             int game_ply);

}  // namespace vzero
