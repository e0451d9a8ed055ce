// FEN text of a Position, read strictly (docs/fen.md lists the forms).
#include <cctype>
#include <sstream>

#include "util/error.h"
#include "game/fen_text.h"
#include "game/chess/position.h"

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
  static void read(Position& p, const std::string& fen, bool with_castling) {
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
    read_board_field(f[0], v, g, [&](char c, int type, int square) {
      q.put_piece(make_piece(std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack, type), square);
    }, fail);
    // Side to move.
    if (f.size() < 2) fail("missing side to move");
    if (f[1] != "w" && f[1] != "b") fail("side to move must be 'w' or 'b'");
    q.stm_ = f[1] == "w" ? kWhite : kBlack;
    StateInfo& st = q.st_.back();
    // Castling rights.
    const std::string castling = f.size() > 2 ? f[2] : "-";
    if (castling != "-") {
      for (char c : castling) {
        const size_t idx = std::string("KQkq").find(c);
        if (idx == std::string::npos) fail(std::string("bad castling letter '") + c + "'");
        if (!with_castling) continue;
        const int right = int(idx);
        if (!v.castling) fail("this variant has no castling");
        if (st.castling & (1 << right)) fail("castling letter repeated");
        const Color color = Color(right / 2);
        const int rook = v.type_of_letter('r');
        if (q.board_[q.castle_king_from_[color]] != make_piece(color, q.royal_) ||
            q.board_[q.castle_rook_from_[right]] != make_piece(color, rook))
          fail(std::string("castling right '") + c + "' without king and rook on their squares");
        st.castling |= uint8_t(1 << right);
      }
    }
    // Kings.
    for (int c = 0; c < 2; ++c) {
      if (q.royal_ < 0) break;
      const int kings = q.count_[c][q.royal_];
      if (kings > 1) fail(std::string(c == kWhite ? "White" : "Black") + " has more than one king");
      if (kings == 0 && (v.check_rule || Color(c) != q.stm_))
        fail(std::string(c == kWhite ? "White" : "Black") + " has no king");
    }
    // Pawns on a rank where they must already have promoted.
    if (q.pawn_ >= 0)
      for (int c = 0; c < 2; ++c)
        if (q.pieces(Color(c), q.pawn_) & g.relative_rank_bb(Color(c), v.promotion_mandatory_rank))
          fail("a pawn stands on its promotion rank");
    // En passant.
    const std::string ep = f.size() > 3 ? f[3] : "-";
    if (ep != "-") {
      const int s = q.parse_square(ep);
      if (s < 0) fail("bad en-passant square '" + ep + "'");
      if (q.pawn_ < 0 || !v.en_passant) fail("this variant has no en passant");
      const Color them = opponent(q.stm_);
      const int pawn_sq = s + g.push[them], origin = s - g.push[them];
      if (pawn_sq < 0 || pawn_sq >= g.squares || origin < 0 || origin >= g.squares ||
          q.board_[s] != kNoPiece || q.board_[origin] != kNoPiece ||
          q.board_[pawn_sq] != make_piece(them, q.pawn_) ||
          g.relative_rank(them, origin) != v.double_step_rank)
        fail("en-passant square '" + ep + "' does not follow a double step");
      if (g.capture_leaps_to[q.stm_][q.pawn_][s] & q.pieces(q.stm_, q.pawn_)) st.ep = int8_t(s);
    }
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
    const Geometry& g = *p.g_;
    std::string out;
    for (int rank = g.ranks - 1; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < g.files; ++file) {
        const Piece pc = p.board_[g.square(file, rank)];
        if (pc == kNoPiece) {
          ++empty;
          continue;
        }
        if (empty) out += std::to_string(empty), empty = 0;
        const char c = p.v_->pieces[type_of(pc)].letter;
        out += color_of(pc) == kBlack ? c : char(std::toupper(static_cast<unsigned char>(c)));
      }
      if (empty) out += std::to_string(empty);
      if (rank) out += '/';
    }
    const StateInfo& st = p.st_.back();
    out += p.stm_ == kWhite ? " w " : " b ";
    std::string castling;
    for (int r = 0; r < 4; ++r)
      if (st.castling & (1 << r)) castling += "KQkq"[r];
    out += castling.empty() ? "-" : castling;
    out += ' ';
    out += st.ep >= 0 ? p.square_name(st.ep) : "-";
    out += ' ' + std::to_string(st.rule50) + ' ' + std::to_string(p.game_ply_ / 2 + 1);
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
          if (s < 0 || q.board_[s] == kNoPiece) fail("field '" + tok + "' names an empty or bad square");
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
      if (s >= 0 && color_of(q.board_[s]) != q.chooser()) fail("'moved' names a piece of the other side");
    for (int8_t s : st.protect)
      if (s >= 0 && color_of(q.board_[s]) == q.chooser()) fail("'protected' names a piece of the chooser");
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

void Position::set_fen(const std::string& fen) {
  FenIo::read(*this, fen, castle_king_from_[0] >= 0 || !v_->castling);
}

std::string Position::fen() const { return FenIo::write(*this); }

}  // namespace vzero
