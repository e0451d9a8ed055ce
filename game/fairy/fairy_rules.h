#pragma once
// The rules core of the "fairy" hook: chess-like variants with hands and
// drops, a pool of captured pieces that promotion draws from, waiting pawns,
// jokers that imitate the opponent's last used piece type and a shared piece
// of no colour (World chess, rules/world.md; Parachute chess,
// rules/parachute.md), and the shogi family (rules/shogi.md): promoted types
// (`+`), captures to the hand, drops limited by nifu, uchifuzume and dead
// squares. Pieces move as their variant file says (Betza); the flags of the
// variant file switch the rules on.
//
// A FairyPos is one position, value type, played by copy (FairyRules::play
// returns the next position); FairyGame/FairyState (fairy_state.h) put it
// behind the Game interface. FEN text: docs/fen.md.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "game/bitboard.h"
#include "game/geometry.h"
#include "game/types.h"
#include "game/variant.h"

namespace vzero {

// One position: everything the FEN holds.
struct FairyPos {
  FairyPos() { std::fill(std::begin(board), std::end(board), kNoPiece); }  // an empty board
  Piece board[kMaxSquares];
  Bitboard by_color[kColorCount] = {};  // kNeutral: the shared piece
  Bitboard by_type[kMaxPieceTypes] = {};
  Bitboard occupied = 0;
  uint8_t hand[2][kMaxPieceTypes] = {};  // pieces in hand, by side and type
  uint8_t pool[2][kMaxPieceTypes] = {};  // captured pieces a side's pawns may become (WC-9)
  uint8_t start_piece[2] = {};           // 1: the side still holds its starting hand piece (WC-6a)
  int8_t used[2] = {-1, -1};  // the type each side used in its most recent action; -1 none
  uint8_t joker_streak = 0;   // joker moves in a row just played (WC-7a)
  int8_t king[2] = {-1, -1};  // king squares; -1 when captured
  int8_t ep = -1;             // the square a pawn's double step just passed
  uint8_t castling = 0;       // bits: 0 White kingside, 1 White queenside, 2/3 Black
  uint16_t rule50 = 0;        // plies since the last capture, pawn move (or drop)
  int game_ply = 0;           // plies since the game's start (the fullmove number)
  Color stm = kWhite;
};

class FairyRules {
 public:
  explicit FairyRules(const Variant& v);

  const Variant& variant() const { return v_; }
  const Geometry& geometry() const { return g_; }

  // The start position of the variant.
  FairyPos start() const { return parse_fen(v_.start_fen); }
  // Every action of the side to move that the rules allow (with the check
  // rule: not leaving one's king attacked); game-end tests are separate.
  void legal_moves(const FairyPos& p, MoveList& out) const;
  // The position after move m (m from legal_moves).
  FairyPos play(const FairyPos& p, Move m) const;
  // The type whose moves the joker of colour c has now; -1: none (WC-7, PC-9).
  int joker_power(const FairyPos& p, Color c) const;
  // Is square s attacked by colour `by` with its current powers (WC-8)?
  bool attacked(const FairyPos& p, int s, Color by) const;
  bool in_check(const FairyPos& p) const;  // the side to move's king is attacked
  // The winner 0/1, 2 for a draw (no action at all), -1 while the game goes
  // on, judged from the position alone; sets reason. `legal` holds its moves.
  int outcome(const FairyPos& p, const MoveList& legal, std::string* reason) const;
  // Leaves of the legal action tree of this depth.
  uint64_t perft(const FairyPos& p, int depth) const;
  uint64_t hash(const FairyPos& p) const;

  std::string fen(const FairyPos& p) const;
  FairyPos parse_fen(const std::string& text) const;  // throws Error when bad
  std::string move_text(Move m) const;
  std::string square_name(int s) const;
  std::string board_text(const FairyPos& p) const;
  bool is_waiting(const FairyPos& p, int s) const;  // a pawn waiting on its promotion rank (WC-10)

  int royal() const { return royal_; }
  int pawn() const { return pawn_; }
  int joker() const { return joker_; }
  int shared() const { return shared_; }
  int castle_king_from(Color c) const { return castle_king_from_[c]; }
  int castle_king_to(int right) const { return castle_king_to_[right]; }
  bool can_be_in_hand(int type) const { return hand_types_ >> type & 1; }
  // The type a captured piece of this type joins the hand as (a promoted one: demoted, SH-9).
  int hand_type(int type) const {
    return v_.pieces[type].unpromoted >= 0 ? v_.pieces[type].unpromoted : type;
  }
  // Squares where a piece of colour c and this type could never move again (SH-8).
  Bitboard dead_squares(Color c, int type) const { return dead_[c][type]; }
  Bitboard promo_zone(Color c) const { return promo_zone_[c]; }

 private:
  friend class FairyFen;
  void put(FairyPos& p, Piece pc, int s) const;
  void remove(FairyPos& p, int s) const;
  // Could the piece on `from` capture on s (with current powers)?
  bool attacks(const FairyPos& p, int from, int s) const;
  // Moves of the piece on s of colour c moving as type e.
  void add_piece_moves(const FairyPos& p, int s, Color c, int e, bool real_pawn,
                       MoveList& out) const;
  void add_drops(const FairyPos& p, MoveList& out) const;
  void add_castling(const FairyPos& p, MoveList& out) const;
  void generate(const FairyPos& p, MoveList& out) const;  // before the check rule
  bool legal_after(const FairyPos& before, const FairyPos& after, Move m) const;
  Bitboard capturable(const FairyPos& p, Color by) const;           // enemy pieces `by` may capture
  bool has_escape(const FairyPos& p, const MoveList& moves) const;  // PC-10
  // Would drop m (its type in drop_no_mate) checkmate the opponent (SH-10 uchifuzume)?
  bool drop_mates(const FairyPos& p, Move m) const;
  // Own pieces that stand alone between their king and an enemy slider.
  Bitboard pinned(const FairyPos& p, Color us) const;

  const Variant& v_;
  const Geometry& g_;
  int royal_ = -1, pawn_ = -1, joker_ = -1, shared_ = -1, start_type_ = -1, rook_ = -1;
  std::vector<int> leap_types_;  // types (not the joker) that capture by leaping
  uint16_t immune_types_ = 0, promo_types_ = 0;
  uint16_t promotable_ = 0;       // types with a promoted form ("+")
  uint16_t hand_types_ = 0xFFFF;  // types that can be in a hand: to_hand ones and the start hands'
  // Pins and checkers decide legality (no jokers, shared pieces, hoppers or drop limits on checks).
  bool fast_legality_ = false;
  Bitboard dead_[2][kMaxPieceTypes] = {};  // with immobility_illegal: squares of no further move
  Bitboard file_bb_[16] = {};              // the squares of each file (nifu)

  Bitboard promo_zone_[2] = {0, 0}, wait_rank_[2] = {0, 0}, drop_zone_[2] = {0, 0},
           start_zone_[2] = {0, 0};
  int castle_king_from_[2] = {-1, -1};
  int castle_rook_from_[4] = {-1, -1, -1, -1};
  int castle_king_to_[4] = {-1, -1, -1, -1};
  int castle_rook_to_[4] = {-1, -1, -1, -1};
  uint8_t castling_mask_[kMaxSquares] = {};
};

}  // namespace vzero
