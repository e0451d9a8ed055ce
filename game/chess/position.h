#pragma once
// The board of the chess-like variants: pieces, hands, rights and a state
// stack for make/unmake, with an incremental Zobrist key. Legal move
// generation lives in movegen.cpp, FEN text in fen.cpp.
#include <string>
#include <vector>

#include "game/bitboard.h"
#include "game/geometry.h"
#include "game/types.h"
#include "game/variant.h"

namespace vzero {

// What make/unmake keeps per ply.
struct StateInfo {
  uint64_t key = 0;
  Move move;
  Piece captured = kNoPiece;
  int8_t ep = -1;  // en-passant target square, set only when a capture is possible
  uint8_t castling =
      0;  // bits: 0 White kingside, 1 White queenside, 2 Black kingside, 3 Black queenside
  uint8_t phase = 0;             // 007: move 0, 1 or 2 of the chooser's three-move turn
  uint8_t pending = 0;           // ascending: the side to move must name a successor
  uint16_t rule50 = 0;           // plies since the last capture or pawn move
  int8_t ascended = -1;          // ascending: square where a lone successor made way for the king
  Piece successor = kNoPiece;    // the piece that left that square (or the one a choice removed)
  int8_t moved[2] = {-1, -1};    // 007-detente: squares of the own piece moved on move 1
  int8_t protect[2] = {-1, -1};  // 007-detente: squares of the piece moved on move 2
};

// The rules that data cannot say (Variant::hook).
enum class Hook : uint8_t { kChess, kAscending, k007, kDetente };

class Position {
 public:
  explicit Position(const Variant& v);

  // Sets the position from FEN text (see docs/fen.md); throws Error and leaves
  // the position unchanged when the text is malformed or the position illegal.
  void set_fen(const std::string& fen);
  std::string fen() const;

  void do_move(Move m);  // m must be legal here
  void undo_move();      // takes back the last do_move

  // Every legal move of the side to move.
  void legal_moves(MoveList& out) const;
  // Leaves of the legal move tree of the given depth (the last ply counted, not played).
  uint64_t perft(int depth);

  const Variant& variant() const { return *v_; }
  const Geometry& geometry() const { return *g_; }
  Color side_to_move() const { return stm_; }
  uint64_t key() const { return st_.back().key; }
  int rule50() const { return st_.back().rule50; }
  const StateInfo& state_info() const { return st_.back(); }  // rights, ep, phase, detente squares
  int phase() const { return st_.back().phase; }
  Hook hook() const { return hook_; }
  // 007 and 007-detente: three moves a turn, tracked by the phase.
  bool has_turn_phases() const { return hook_ == Hook::k007 || hook_ == Hook::kDetente; }
  bool succession_pending() const { return st_.back().pending; }
  // The player who chooses the next move: the colour to move, except on
  // move 2 of a 007 turn, where the opponent chooses.
  Color chooser() const { return st_.back().phase == 1 ? opponent(stm_) : stm_; }
  int game_ply() const { return game_ply_; }
  int plies_played() const { return int(st_.size()) - 1; }
  Move last_move() const { return st_.back().move; }
  Piece piece_on(int s) const { return board_[s]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(Color c, int type) const { return by_color_[c] & by_type_[type]; }
  int count(Color c, int type) const { return count_[c][type]; }
  bool has_royal(Color c) const { return royal_ >= 0 && pieces(c, royal_); }
  bool in_check() const;  // the side to move's king is attacked
  // Whether legal move m may leave the other colour's king attacked: exact for plain moves and
  // captures (checked with the pieces moved and put back), true for the special kinds.
  bool may_give_check(Move m);
  // Earlier positions within the 50-move window equal to this one (same key).
  int repetitions() const;
  // The pieces of colour `by` that attack square s with the given occupancy.
  Bitboard attackers_to(int s, Bitboard occupied, Color by) const;

  std::string square_name(int s) const;
  int parse_square(const std::string& text) const;  // -1 if not a square of the board
  std::string move_text(Move m) const;              // long algebraic (rules/README.md)
  std::string board_text() const;                   // a diagram for people

 private:
  friend class FenIo;
  void clear();
  void put_piece(Piece p, int s);
  void remove_piece(int s);
  void move_piece(int from, int to);
  Bitboard piece_moves(Color us, int type, int from, Bitboard empty, Bitboard enemies) const;
  Bitboard pinned_pieces(Color us, int ksq) const;
  void add_pawn_moves(MoveList& out, int from, Bitboard targets) const;
  // The moves of the side to move's pieces (not of type skip_type) onto
  // `target`; a piece in `pinned` moves only along its line with ksq.
  void add_piece_moves(MoveList& out, int skip_type, Bitboard target, Bitboard pinned,
                       int ksq) const;
  void add_castling(MoveList& out) const;
  bool castling_allowed(int right) const;
  void generate_pseudo(MoveList& out) const;
  void generate_fast(MoveList& out) const;
  bool leaves_king_safe(Move m) const;
  uint64_t compute_key() const;
  void ascend(StateInfo& st, Color victim, uint64_t& key);
  Bitboard successors(Color c) const;  // the pieces of the highest rank that may ascend
  void apply_detente(MoveList& moves) const;
  void update_detente(StateInfo& st, Move m, int capsq, int rook_to, uint64_t& key) const;

  const Variant* v_;
  const Geometry* g_;
  Piece board_[kMaxSquares];
  Bitboard by_type_[kMaxPieceTypes];
  Bitboard by_color_[kColorCount];
  Bitboard occupied_ = 0;
  uint8_t count_[2][kMaxPieceTypes];
  uint8_t initial_count_[2][kMaxPieceTypes];
  Color stm_ = kWhite;
  int game_ply_ = 0;
  std::vector<StateInfo> st_;

  // Derived from the variant once.
  Hook hook_ = Hook::kChess;
  int royal_ = -1, pawn_ = -1;
  int succession_order_[4] = {-1, -1, -1, -1};  // queen, rook, bishop, knight types
  uint16_t orth_types_ = 0, diag_types_ = 0;    // types that slide (and capture) all four ways
  std::vector<int> leap_types_, odd_slide_types_, hop_types_;
  uint16_t promotion_types_ = 0;
  bool fast_legality_ = false;
  int castle_king_from_[2] = {-1, -1};
  int castle_rook_from_[4] = {-1, -1, -1, -1};
  int castle_king_to_[4] = {-1, -1, -1, -1};
  int castle_rook_to_[4] = {-1, -1, -1, -1};
  uint8_t castling_mask_[kMaxSquares];
};

}  // namespace vzero
