#pragma once
// A variant as data: board, pieces (by their moves in Betza notation), setup
// and rule flags, read from a TOML file under configs/variants/. Rules that
// data cannot say are named hooks (see `hook`), implemented in the core.
#include <cstdint>
#include <string>
#include <vector>

#include "game/types.h"

namespace vzero {

// One leap (dx, dy) seen from the piece's owner: dy > 0 is forward.
struct Step {
  int dx = 0, dy = 0;
};

// Directions of slides: bit d of a mask is direction d.
enum Direction { kN = 0, kNE, kE, kSE, kS, kSW, kW, kNW, kDirectionCount };
constexpr uint8_t kOrthogonal = 0x55;  // N E S W
constexpr uint8_t kDiagonal = 0xAA;    // NE SE SW NW

// How one piece type moves, from its owner's side.
struct PieceMoves {
  std::vector<Step> quiet_leaps, capture_leaps;
  uint8_t quiet_slides = 0, capture_slides = 0;  // slide directions
  uint8_t hop_slides = 0;                        // cannon: hop one screen, then slide
};

// Parses a Betza-like move description (atoms W F D N A H C Z G K R B Q,
// modifiers m c f b l r v s p, ff and bb for the most forward or backward
// steps; a doubled W or F rides). Throws Error.
PieceMoves parse_betza(const std::string& betza);

struct PieceType {
  char letter = 0;  // lower case; upper case on the board for the first player
  // A promoted type (letter "+x" in the variant file) is written `+X` / `+x`:
  // `letter` is then its unpromoted type's letter, and type_of_letter skips it.
  bool promoted = false;
  int promotes_to = -1;  // the type index of this type's promoted form; -1: none
  int unpromoted = -1;   // for a promoted type, the type it came from; else -1
  std::string name;
  std::string betza;
  bool royal = false;  // the king: check, mate and succession look at it
  bool pawn = false;   // double step, en passant and promotion apply
  // Hook "fairy" (world, parachute):
  bool joker = false;    // moves as the opponent's last used type (no moves of its own)
  bool shared = false;   // one piece of no colour that either player may move
  bool immune = false;   // can never be captured
  bool imitable = true;  // a joker may take its moves (after the opponent used it)
  bool to_hand =
      false;  // when captured, goes to the capturer's hand (changing sides; promoted: demoted)
  PieceMoves moves;
};

struct CastlingRule {
  int king_to_file = -1, rook_to_file = -1;  // 0-based files
};

struct Variant {
  std::string id, name, rules;  // rules: the rules file it implements
  int files = 8, ranks = 8, players = 2;
  std::string start_fen;
  std::vector<PieceType> pieces;
  // Named hook for rules data cannot say: "chess" (plain), "ascending", "007",
  // "007-detente", "attrition" (a game of its own, attrition_game.h), "fairy"
  // (hands, drops, a captured pool, jokers, shared pieces: fairy_game.h).
  std::string hook = "chess";
  // Chivalrous Attrition options (rules/attrition.md), from the [attrition] table.
  int knights = 1;                     // 1 or 2 per player (2 only with 2 players)
  std::string ending = "both";         // with 2 knights: "both" (variant 1) or "one" (variant 2)
  bool check_rule = true;              // a move may not leave one's own king attacked
  bool insufficient_material = false;  // K v K and K+minor v K are draws
  int max_plies = 512;                 // game-length cap (a draw, recorded as a cap)

  int double_step_rank = 2;  // owner-relative 1-based rank; 0 = no double step
  bool en_passant = true;

  int promotion_first_rank = 8;       // owner-relative first rank of the promotion zone
  int promotion_mandatory_rank = 8;   // owner-relative rank where promotion is compulsory
  std::string promotion_pieces;       // letters of the types a pawn may become
  bool promote_to_lost_only = false;  // only to a type of which fewer stand than at the start

  bool castling = false;
  int castling_rank = 1;  // owner-relative
  CastlingRule kingside, queenside;

  // Hook "fairy": hands and drops ([drops] table).
  int drop_ranks = 0;          // owner-relative ranks 1..drop_ranks take drops
  char start_piece = 0;        // the start hand's piece of this letter ...
  int start_piece_ranks = 0;   // ... drops only on these first ranks while a side keeps it (WC-6a)
  bool drop_no_check = false;  // a drop may not leave the enemy king attacked (WC-6c)
  bool drop_resets_clock = false;  // a drop resets the 50-move clock
  bool captured_to_pool = false;   // captured promotion types join their owner's pool (WC-6d)
  // Hook "fairy": promotion ([promotion] table).
  bool promote_from_pool = false;  // a pawn becomes a type from its side's captured pool (WC-9)
  bool pawns_wait = false;         // without a pool piece the pawn waits, immune (WC-10)
  // Hook "fairy": the joker ([joker] table).
  bool joker_chain = false;  // after a joker move, the enemy joker takes that joker's power (WC-7a)
  int joker_max_streak = 0;  // joker moves in a row after which none may follow; 0: no limit
  int joker_pawn_double_step_rank =
      0;                      // owner-relative rank of a pawn-imitating joker's double step
  bool king_capture = false;  // PC-10: capturing the king wins; mate only at the start of a turn
  // Hook "fairy", the shogi family (rules/shogi.md). Promotion to a type's
  // promoted form (`+`) is open to a move that starts or ends in the
  // promotion zone ([promotion] first_rank and beyond), at the player's choice.
  bool immobility_illegal =
      false;  // no move or drop to where a piece could never move again (SH-8, SH-10)
  uint16_t drop_no_doubled =
      0;  // types not droppable on a file holding an own unpromoted one (SH-10 nifu)
  uint16_t drop_no_mate = 0;     // types whose drop may not give mate (SH-10 uchifuzume)
  bool stalemate_loses = false;  // no legal action loses instead of drawing (SH-11)
  int repetition = 3;            // the n-th occurrence of a position ends the game (SH-12: 4)
  bool perpetual_check_loses =
      false;  // ... lost by a side that gave check with every move since the first (SH-12)
  bool fifty_move = true;  // the fifty-move rule draws
  // Board symmetries of the rules (symmetry.h), for training augmentation.
  std::vector<std::string> symmetries;

  std::string source;  // the TOML text it was read from
  uint64_t hash = 0;   // FNV-1a hash of `source`

  int squares() const { return files * ranks; }
  int type_of_letter(char c) const;  // an unpromoted type; -1 when the variant has no such piece
  bool has_promoted_types() const;   // some piece promotes to a `+` form (the shogi family)
  int royal_type() const;            // -1 when no piece is royal
  int pawn_type() const;             // -1 when no piece is a pawn
};

// Reads a variant from TOML text; unknown keys and bad values throw Error.
Variant parse_variant(const std::string& toml_text, const std::string& origin);

// The variants built into the binary (configs/variants/*.toml), by id.
std::vector<std::string> builtin_variant_ids();
const Variant& builtin_variant(const std::string& id);  // throws Error if unknown

uint64_t fnv1a(const std::string& text);

// A piece's worth in pawns for the material heuristics (piece_values.cpp): the
// usual figures for chess letters, else a guess from its mobility.
double piece_value(const Variant& v, int type);

}  // namespace vzero
