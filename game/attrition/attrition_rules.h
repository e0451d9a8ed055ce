#pragma once
// The rules core of Chivalrous Attrition (rules/attrition.md): a small
// position value (bitboards of markers and knights, turn, placements, seats
// out) and the rules over it: legal actions, playing an action, the
// automatic start-of-turn losses, perft, hashing and the FEN (see
// docs/fen-attrition.md). AttritionGame and AttritionState
// (attrition_state.h) put it behind the Game / GameState interface of game.h.
//
// Action numbering, fixed for every attrition variant (400 actions):
//   0..63    placement N@<sq>, sq = rank * 8 + file (N@a1 = 0, N@b1 = 1, ..., N@h8 = 63);
//   64..399  knight move (from, to), all 336 knight leaps of the 8x8 board
//            in order of from square, then to square
//            (64 = a1c2, 65 = a1b3, 66 = b1d2, 67 = b1a3, ..., 399 = h8f7).
#include <cstdint>
#include <string>

namespace vzero {

constexpr int kAttritionSquares = 64;
constexpr int kAttritionPlacements = 64;
constexpr int kAttritionActions = 400;

constexpr int kAttritionMaxSeats = 4;
constexpr int kAttritionMaxLegal = 64;  // placements; knight moves are at most 16

// One position: everything the FEN holds.
struct AttritionPos {
  uint64_t marked = 0;                            // squares with a marker
  uint64_t knights[kAttritionMaxSeats] = {};      // knights by seat (always on marked squares)
  uint64_t board_key = 0;                         // Zobrist key of markers and knights
  int ply = 0;                                    // plies played in the game (the cap counts these)
  int8_t to_act = 0;                              // seat to act; -1 when the game is over
  uint8_t first = 0;                              // the seat that placed first (CA-7)
  uint8_t to_place[kAttritionMaxSeats] = {};      // knights not yet placed, by seat
  uint8_t out_seat[kAttritionMaxSeats] = {};      // seats out (2 players: the loser), in order
  uint8_t out_captured[kAttritionMaxSeats] = {};  // 1: out by capture, 0: by having no move
  uint8_t n_out = 0;
  uint8_t out_mask = 0;  // bit s: seat s is out

  bool over() const { return to_act < 0; }
  bool is_out(int seat) const { return (out_mask >> seat) & 1; }
};

// The rules of one attrition variant: players, knights per player, ending.
class AttritionRules {
 public:
  AttritionRules(int players, int knights, bool sudden);
  int players() const { return players_; }
  int knights() const { return knights_; }
  bool sudden() const { return sudden_; }  // ending "one" (CA-10)

  // The empty board with `first` to place first.
  AttritionPos start(int first = 0) const;
  // Writes the legal actions of the seat to act, ascending, into out
  // (room for kAttritionMaxLegal); returns their number (0 when over).
  int generate(const AttritionPos& p, uint16_t* out) const;
  // Plays a legal action, then settles the automatic events of the next turn.
  void play(AttritionPos& p, int action) const;
  // Leaves of the legal action tree of this depth (no length cap).
  uint64_t perft(const AttritionPos& p, int depth) const;
  // Zobrist hash of everything but the ply counter.
  uint64_t hash(const AttritionPos& p) const;
  std::string fen(const AttritionPos& p) const;
  // The position of a FEN, start-of-turn events settled; throws Error when bad.
  AttritionPos parse_fen(const std::string& text) const;

  // Fixed tables of the action space.
  static int move_from(int action);          // action >= 64
  static int move_to(int action);            // action >= 64
  static int move_action(int from, int to);  // -1 when not a knight leap
  static std::string square_name(int sq);
  static std::string action_name(int action);          // "N@d4", "b1c3"
  static int action_of_name(const std::string& text);  // -1 when not in the action space

 private:
  uint64_t forbidden_placements(const AttritionPos& p, int seat) const;
  uint64_t placements(const AttritionPos& p, int seat) const;
  bool stuck(const AttritionPos& p, int seat) const;
  void eliminate(AttritionPos& p, int seat, bool captured) const;
  int next_seat(const AttritionPos& p, int seat) const;
  void settle(AttritionPos& p) const;
  void validate(const AttritionPos& p, const std::string& where) const;

  int players_, knights_;
  bool sudden_;
};

}  // namespace vzero
