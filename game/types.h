#pragma once
// Basic types of the game core: colours, pieces and the packed move.
#include <cstdint>

namespace vzero {

constexpr int kMaxPieceTypes = 16;
constexpr int kMaxMoves = 1024;

enum Color : uint8_t { kWhite = 0, kBlack = 1, kNeutral = 2, kColorCount = 3 };
inline Color opponent(Color c) { return Color(c ^ 1); }

// A piece on the board packs its colour and its type index within the variant:
// bits 0-3 type, bits 4-5 colour. kNoPiece marks an empty square.
using Piece = uint8_t;
constexpr Piece kNoPiece = 0xFF;
inline Piece make_piece(Color c, int type) { return Piece((c << 4) | type); }
inline Color color_of(Piece p) { return Color(p >> 4); }
inline int type_of(Piece p) { return p & 15; }

enum class MoveKind : uint8_t {
  kNormal = 0,      // a board move, capture or not
  kPromotion = 1,   // a pawn move that changes its type (from == to: promotion in place)
  kEnPassant = 2,   // a pawn captures the pawn that just double-stepped
  kCastling = 3,    // the king's move; the rook moves too
  kDrop = 4,        // a piece from the hand (or a placement) onto an empty square
  kSuccession = 5,  // Ascending the Throne: the king takes the chosen successor's square
};

// A move packed in 32 bits:
//   bits  0-6   from square (0..127; equal to `to` for drops and successions)
//   bits  7-13  to square
//   bits 14-16  MoveKind
//   bits 17-20  piece type: promotion target, dropped type, or 0
class Move {
 public:
  Move() = default;
  static Move make(int from, int to, MoveKind kind = MoveKind::kNormal, int type = 0) {
    Move m;
    m.data_ = uint32_t(from) | uint32_t(to) << 7 | uint32_t(kind) << 14 | uint32_t(type) << 17;
    return m;
  }
  static Move from_raw(uint32_t raw) {
    Move m;
    m.data_ = raw;
    return m;
  }
  int from() const { return data_ & 127; }
  int to() const { return (data_ >> 7) & 127; }
  MoveKind kind() const { return MoveKind((data_ >> 14) & 7); }
  int type() const { return (data_ >> 17) & 15; }
  uint32_t raw() const { return data_; }
  bool operator==(Move o) const { return data_ == o.data_; }
  bool operator!=(Move o) const { return data_ != o.data_; }

 private:
  uint32_t data_ = 0;
};

// A fixed-capacity list of moves, filled by move generation.
struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  void push(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

}  // namespace vzero
