// Shared FEN reading (fen_text.h).
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

void read_board_field(const std::string& board, const Variant& v, const Geometry& g,
                      const std::function<void(char letter, int type, int square)>& put, const FenFail& fail) {
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

}  // namespace vzero
