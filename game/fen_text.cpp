// Shared FEN text, read and written (fen_text.h).
#include "game/fen_text.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace vzero {

std::vector<std::string> fen_fields(const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> f;
  for (std::string tok; in >> tok;) f.push_back(tok);
  return f;
}

long parse_count(const std::string& s, long max) {
  if (s.empty() || s.size() > 9) return -1;
  long v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    v = v * 10 + (c - '0');
  }
  return v <= max ? v : -1;
}

std::string square_name(const Geometry& g, int s) {
  return std::string(1, char('a' + g.file_of(s))) + std::to_string(g.rank_of(s) + 1);
}

int parse_square(const Geometry& g, const std::string& text) {
  if (text.size() < 2 || text.size() > 3) return -1;
  const int file = text[0] - 'a';
  if (file < 0 || file >= g.files) return -1;
  int rank = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    rank = rank * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || rank < 1 || rank > g.ranks) return -1;
  return g.square(file, rank - 1);
}

void read_board_field(const std::string& board, const Variant& v, const Geometry& g,
                      const std::function<void(char letter, int type, int square)>& put,
                      const FenFail& fail) {
  std::vector<std::string> rows(1);
  for (char c : board) {
    if (c == '/')
      rows.emplace_back();
    else
      rows.back().push_back(c);
  }
  if (int(rows.size()) != g.ranks)
    fail("expected " + std::to_string(g.ranks) + " ranks, found " + std::to_string(rows.size()));
  for (int i = 0; i < g.ranks; ++i) {
    const int rank = g.ranks - 1 - i;
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    const std::string& row = rows[i];
    for (size_t j = 0; j < row.size(); ++j) {
      const char c = row[j];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t k = j;
        while (k < row.size() && std::isdigit(static_cast<unsigned char>(row[k]))) ++k;
        const long n = c == '0' ? -1 : parse_count(row.substr(j, k - j), g.files);
        if (n <= 0) fail("bad empty-square count in " + where);
        file += int(n);
        j = k - 1;
      } else {
        // "+x": the promoted form of x (the shogi family).
        const bool plus = c == '+' && j + 1 < row.size();
        const char l = plus ? row[++j] : c;
        int type = std::isalpha(static_cast<unsigned char>(l)) ? v.type_of_letter(l) : -1;
        if (plus && type >= 0) type = v.pieces[size_t(type)].promotes_to;
        if (type < 0) fail(std::string("unknown piece '") + (plus ? "+" : "") + l + "'");
        if (file >= g.files) fail(where + " is too long");
        put(l, type, g.square(file, rank));
        ++file;
      }
      if (file > g.files) fail(where + " is too long");
    }
    if (file != g.files) fail(where + " is too short");
  }
}

Color read_side_to_move(const std::vector<std::string>& f, const FenFail& fail) {
  if (f.size() < 2) fail("missing side to move");
  if (f[1] != "w" && f[1] != "b") fail("side to move must be 'w' or 'b'");
  return f[1] == "w" ? kWhite : kBlack;
}

void check_king_counts(const int kings[2], Color to_move, bool check_rule, const FenFail& fail) {
  for (int c = 0; c < 2; ++c) {
    const char* name = c == kWhite ? "White" : "Black";
    if (kings[c] > 1) fail(std::string(name) + " has more than one king");
    if (kings[c] == 0 && (check_rule || Color(c) != to_move))
      fail(std::string(name) + " has no king");
  }
}

uint8_t read_castling_field(const std::vector<std::string>& f, bool has_castling,
                            bool squares_known, const std::function<bool(int right)>& in_place,
                            const FenFail& fail) {
  const std::string castling = f.size() > 2 ? f[2] : "-";
  uint8_t rights = 0;
  if (castling == "-") return rights;
  for (char c : castling) {
    const size_t idx = std::string("KQkq").find(c);
    if (idx == std::string::npos) fail(std::string("bad castling letter '") + c + "'");
    if (!has_castling) fail("this variant has no castling");
    if (!squares_known) continue;
    const int right = int(idx);
    if (rights & (1 << right)) fail("castling letter repeated");
    if (!in_place(right))
      fail(std::string("castling right '") + c + "' without king and rook on their squares");
    rights |= uint8_t(1 << right);
  }
  return rights;
}

int read_en_passant_field(const std::vector<std::string>& f, const Variant& v, const Geometry& g,
                          const Piece* board, int pawn, Color to_move, const FenFail& fail) {
  const std::string ep = f.size() > 3 ? f[3] : "-";
  if (ep == "-") return -1;
  const int s = parse_square(g, ep);
  if (s < 0) fail("bad en-passant square '" + ep + "'");
  if (pawn < 0 || !v.en_passant) fail("this variant has no en passant");
  const Color them = opponent(to_move);
  const int pawn_sq = s + g.push[them], origin = s - g.push[them];
  if (pawn_sq < 0 || pawn_sq >= g.squares || origin < 0 || origin >= g.squares ||
      board[s] != kNoPiece || board[origin] != kNoPiece ||
      board[pawn_sq] != make_piece(them, pawn) ||
      g.relative_rank(them, origin) != v.double_step_rank)
    fail("en-passant square '" + ep + "' does not follow a double step");
  return s;
}

FenClocks read_clocks(const std::vector<std::string>& f, bool black_to_move, const FenFail& fail) {
  const long rule50 = f.size() > 4 ? parse_count(f[4], 10000) : 0;
  if (rule50 < 0) fail("bad halfmove clock '" + f[4] + "'");
  const long fullmove = f.size() > 5 ? parse_count(f[5], 100000) : 1;
  if (fullmove < 0) fail("bad fullmove number '" + f[5] + "'");
  FenClocks c;
  c.rule50 = int(rule50);
  c.game_ply = 2 * int(std::max(1L, fullmove) - 1) + (black_to_move ? 1 : 0);
  return c;
}

std::string write_board_field(const Variant& v, const Geometry& g, const Piece* board) {
  std::string out;
  for (int rank = g.ranks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < g.files; ++file) {
      const Piece pc = board[g.square(file, rank)];
      if (pc == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty), empty = 0;
      const char c = v.pieces[type_of(pc)].letter;
      if (v.pieces[type_of(pc)].promoted) out += '+';
      out += color_of(pc) == kBlack ? c : char(std::toupper(static_cast<unsigned char>(c)));
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  return out;
}

std::string write_fen_fields(const Geometry& g, Color to_move, uint8_t castling, int ep, int rule50,
                             int game_ply) {
  std::string out = to_move == kWhite ? " w " : " b ";
  std::string rights;
  for (int r = 0; r < 4; ++r)
    if (castling & (1 << r)) rights += "KQkq"[r];
  out += rights.empty() ? "-" : rights;
  out += ' ';
  out += ep >= 0 ? square_name(g, ep) : "-";
  out += ' ' + std::to_string(rule50) + ' ' + std::to_string(game_ply / 2 + 1);
  return out;
}

}  // namespace vzero
