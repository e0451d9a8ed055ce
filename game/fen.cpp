// FEN text of a Position, read strictly (docs/fen.md lists the forms).
#include <cctype>
#include <sstream>

#include "game/error.h"
#include "game/position.h"

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

// A non-negative decimal number no larger than `max`, or -1.
long parse_count(const std::string& s, long max) {
  if (s.empty() || s.size() > 9) return -1;
  long v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    v = v * 10 + (c - '0');
  }
  return v <= max ? v : -1;
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
    std::istringstream in(fen);
    std::vector<std::string> f;
    for (std::string tok; in >> tok;) f.push_back(tok);
    if (f.empty()) fail("empty");
    if (f.size() > 6) fail("too many fields");
    const Variant& v = *q.v_;
    const Geometry& g = *q.g_;
    // Board.
    const std::vector<std::string> rows = split(f[0], '/');
    if (int(rows.size()) != g.ranks)
      fail("expected " + std::to_string(g.ranks) + " ranks, found " + std::to_string(rows.size()));
    for (int i = 0; i < g.ranks; ++i) {
      const int rank = g.ranks - 1 - i;
      int file = 0;
      const std::string& row = rows[i];
      for (size_t j = 0; j < row.size(); ++j) {
        const char c = row[j];
        if (std::isdigit(static_cast<unsigned char>(c))) {
          size_t k = j;
          while (k < row.size() && std::isdigit(static_cast<unsigned char>(row[k]))) ++k;
          const long n = c == '0' ? -1 : parse_count(row.substr(j, k - j), g.files);
          if (n <= 0) fail("bad empty-square count in rank " + std::to_string(rank + 1));
          file += int(n);
          j = k - 1;
        } else {
          const int type = v.type_of_letter(c);
          if (type < 0 || !std::isalpha(static_cast<unsigned char>(c)))
            fail(std::string("unknown piece '") + c + "'");
          if (file >= g.files) fail("rank " + std::to_string(rank + 1) + " is too long");
          q.put_piece(make_piece(std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack, type),
                      g.square(file, rank));
          ++file;
        }
        if (file > g.files) fail("rank " + std::to_string(rank + 1) + " is too long");
      }
      if (file != g.files) fail("rank " + std::to_string(rank + 1) + " is too short");
    }
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
      if (kings == 0 && v.check_rule) fail(std::string(c == kWhite ? "White" : "Black") + " has no king");
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
    const long rule50 = f.size() > 4 ? parse_count(f[4], 10000) : 0;
    if (rule50 < 0) fail("bad halfmove clock '" + f[4] + "'");
    const long fullmove = f.size() > 5 ? parse_count(f[5], 100000) : 1;
    if (fullmove < 0) fail("bad fullmove number '" + f[5] + "'");
    st.rule50 = uint16_t(rule50);
    q.game_ply_ = 2 * int(std::max(1L, fullmove) - 1) + (q.stm_ == kBlack);
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
    return out;
  }
};

void Position::set_fen(const std::string& fen) {
  FenIo::read(*this, fen, castle_king_from_[0] >= 0 || !v_->castling);
}

std::string Position::fen() const { return FenIo::write(*this); }

}  // namespace vzero
