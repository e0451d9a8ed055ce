// FEN text of a Position, read strictly (docs/fen.md lists the forms).
#include <cctype>
#include <sstream>

#include "game/chess/position.h"
#include "game/fen_text.h"
#include "util/error.h"

namespace vzero {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

class FenIo {
 public:
  // Reads fen into p; p is left unchanged when the text is rejected.
  static void read(Position& p, const std::string& fen) {
    Position q = p;  // parse into a copy, commit on success
    q.clear();
    const auto fail = [&](const std::string& why) -> void {
      throw Error("bad FEN '" + fen + "': " + why);
    };
    std::vector<std::string> f = fen_fields(fen);
    if (f.empty()) fail("empty");
    std::vector<std::string> extensions;
    if (f.size() > 6) extensions.assign(f.begin() + 6, f.end());
    if (f.size() > 6) f.resize(6);
    const Variant& v = *q.v_;
    const Geometry& g = *q.g_;
    // Board.
    read_board_field(
        f[0], v, g,
        [&](char c, int type, int square) {
          q.put_piece(
              make_piece(std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack, type),
              square);
        },
        fail);
    // Side to move.
    q.stm_ = read_side_to_move(f, fail);
    StateInfo& st = q.st_.back();
    // Castling rights.
    const int rook = v.type_of_letter('r');
    st.castling = read_castling_field(
        f, v.castling, q.castle_king_from_[0] >= 0,
        [&](int right) {
          const Color color = Color(right / 2);
          return q.board_[q.castle_king_from_[color]] == make_piece(color, q.royal_) &&
                 q.board_[q.castle_rook_from_[right]] == make_piece(color, rook);
        },
        fail);
    // Kings.
    if (q.royal_ >= 0) {
      const int kings[2] = {q.count_[kWhite][q.royal_], q.count_[kBlack][q.royal_]};
      check_king_counts(kings, q.stm_, v.check_rule, fail);
    }
    // Pawns on a rank where they must already have promoted.
    if (q.pawn_ >= 0)
      for (int c = 0; c < 2; ++c)
        if (q.pieces(Color(c), q.pawn_) & g.relative_rank_bb(Color(c), v.promotion_mandatory_rank))
          fail("a pawn stands on its promotion rank");
    // En passant: kept only when a pawn can take it.
    const int ep = read_en_passant_field(f, v, g, q.board_, q.pawn_, q.stm_, fail);
    if (ep >= 0 && (g.capture_leaps_to[q.stm_][q.pawn_][ep] & q.pieces(q.stm_, q.pawn_)))
      st.ep = int8_t(ep);
    // Counters.
    const FenClocks clocks = read_clocks(f, q.stm_ == kBlack, fail);
    st.rule50 = uint16_t(clocks.rule50);
    q.game_ply_ = clocks.game_ply;
    read_extensions(q, extensions, fail);
    // The side that just moved may not have left its king attacked.
    if (v.check_rule && q.royal_ >= 0) {
      const Color them = opponent(q.stm_);
      if (q.has_royal(them) && q.attackers_to(lsb(q.pieces(them, q.royal_)), q.occupied_, q.stm_))
        fail("the side not to move is in check");
    }
    st.key = q.compute_key();
    p = std::move(q);
  }

  static std::string write(const Position& p) {
    const StateInfo& st = p.st_.back();
    std::string out = write_board_field(*p.v_, *p.g_, p.board_);
    out += write_fen_fields(*p.g_, p.stm_, st.castling, st.ep, st.rule50, p.game_ply_);
    if (p.has_turn_phases()) {
      out += std::string(" turn:") + (p.chooser() == kWhite ? 'w' : 'b') + char('1' + st.phase);
      const auto squares = [&](const char* name, const int8_t* sq) {
        std::string list;
        for (int i = 0; i < 2; ++i)
          if (sq[i] >= 0) list += (list.empty() ? "" : ",") + p.square_name(sq[i]);
        if (!list.empty()) out += std::string(" ") + name + ":" + list;
      };
      squares("moved", st.moved);
      squares("protected", st.protect);
    }
    if (st.pending) out += " succession";
    return out;
  }

 private:
  // The engine's own fields after the six of FEN (docs/fen.md).
  template <class Fail>
  static void read_extensions(Position& q, const std::vector<std::string>& tokens, Fail fail) {
    StateInfo& st = q.st_.back();
    const bool is007 = q.has_turn_phases();
    bool turn_seen = false;
    for (const std::string& tok : tokens) {
      if (tok == "succession" && q.hook_ == Hook::kAscending && !st.pending) {
        st.pending = 1;
      } else if (is007 && tok.size() == 7 && tok.compare(0, 5, "turn:") == 0 && !turn_seen) {
        turn_seen = true;
        const char who = tok[5], move = tok[6];
        if ((who != 'w' && who != 'b') || move < '1' || move > '3') fail("bad field '" + tok + "'");
        st.phase = uint8_t(move - '1');
        if (q.chooser() != (who == 'w' ? kWhite : kBlack))
          fail("'" + tok + "' does not agree with the side to move");
      } else if (q.hook_ == Hook::kDetente &&
                 (tok.compare(0, 6, "moved:") == 0 || tok.compare(0, 10, "protected:") == 0)) {
        const bool moved = tok[0] == 'm';
        int8_t* target = moved ? st.moved : st.protect;
        if (target[0] >= 0) fail("field '" + tok + "' repeated");
        const std::vector<std::string> names = split(tok.substr(moved ? 6 : 10), ',');
        if (names.size() > 2) fail("bad field '" + tok + "'");
        for (size_t i = 0; i < names.size(); ++i) {
          const int s = q.parse_square(names[i]);
          if (s < 0 || q.board_[s] == kNoPiece)
            fail("field '" + tok + "' names an empty or bad square");
          target[i] = int8_t(s);
        }
      } else {
        fail("unknown or repeated field '" + tok + "'");
      }
    }
    // Consistency of the 007-detente memory with the turn phase.
    if (st.moved[0] >= 0 && st.phase == 0) fail("'moved' only on move 2 or 3 of a turn");
    if (st.protect[0] >= 0 && st.phase != 2) fail("'protected' only on move 3 of a turn");
    for (int8_t s : st.moved)
      if (s >= 0 && color_of(q.board_[s]) != q.chooser())
        fail("'moved' names a piece of the other side");
    for (int8_t s : st.protect)
      if (s >= 0 && color_of(q.board_[s]) == q.chooser())
        fail("'protected' names a piece of the chooser");
    // Ascending: a missing king means a pending choice (or a lost game).
    if (q.hook_ == Hook::kAscending) {
      const bool kingless = !q.has_royal(q.stm_);
      const Bitboard succ = q.successors(q.stm_);
      if (st.pending && (!kingless || !more_than_one(succ)))
        fail("'succession' needs a kingless side to move with two or more candidates");
      if (!st.pending && kingless && succ)
        fail("the side to move has no king but could name a successor: add 'succession'");
      if (kingless && succ && !more_than_one(succ)) fail("a lone successor ascends at once");
    }
  }
};

void Position::set_fen(const std::string& fen) { FenIo::read(*this, fen); }

std::string Position::fen() const { return FenIo::write(*this); }

}  // namespace vzero
