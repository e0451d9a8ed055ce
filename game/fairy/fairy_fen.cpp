// FEN text of the "fairy" hook (World and Parachute chess, the shogi family),
// read strictly; the forms are documented in docs/fen.md and docs/shogi.md.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "game/fairy/fairy_rules.h"
#include "game/fen_text.h"
#include "util/error.h"

namespace vzero {
namespace {

char upper(char c) { return char(std::toupper(static_cast<unsigned char>(c))); }

// SFEN ("board b|w hand moveno", the first player 'b'): the same position as
// Fairy-Stockfish FEN text, or "" when `fields` do not have SFEN's shape.
std::string sfen_as_fen(const std::vector<std::string>& f, const FenFail& fail) {
  if (f.size() != 4 || f[0].find('[') != std::string::npos || parse_count(f[3], 100000) < 0)
    return "";
  if (f[1] != "b" && f[1] != "w") fail("SFEN side to move must be 'b' or 'w'");
  std::string hand;
  if (f[2] != "-") {
    long count = 0;
    for (size_t i = 0; i < f[2].size(); ++i) {
      const char c = f[2][i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        count = count * 10 + (c - '0');
        if (count > 63 || (count == 0 && c == '0')) fail("bad SFEN hand count");
        continue;
      }
      if (!std::isalpha(static_cast<unsigned char>(c)))
        fail(std::string("bad SFEN hand character '") + c + "'");
      hand += std::string(size_t(count ? count : 1), c);
      count = 0;
    }
    if (count) fail("SFEN hand ends with a count");
  }
  // The SFEN move number counts plies from 1; FEN keeps the full-move number.
  const long ply = std::max(0L, parse_count(f[3], 100000) - 1);
  const bool second = f[1] == "w";
  return f[0] + "[" + hand + "] " + (second ? "b" : "w") + " - - 0 " +
         std::to_string((ply + (ply % 2 != second)) / 2 + 1);
}

}  // namespace

// Reads and writes FairyPos text; a friend of FairyRules.
class FairyFen {
 public:
  static FairyPos read(const FairyRules& r, const std::string& fen) {
    const Variant& v = r.v_;
    const Geometry& g = r.g_;
    const auto fail = [&](const std::string& why) -> void {
      throw Error("bad FEN '" + fen + "': " + why);
    };
    FairyPos p;
    std::vector<std::string> f = fen_fields(fen);
    if (f.empty()) fail("empty");
    if (v.has_promoted_types()) {  // the shogi family also reads SFEN
      const std::string converted = sfen_as_fen(f, fail);
      if (!converted.empty()) f = fen_fields(converted);
    }
    // Board and hands.
    std::string board = f[0], hand;
    const size_t open = board.find('[');
    if (open != std::string::npos) {
      if (board.back() != ']') fail("the hand must end with ']'");
      hand = board.substr(open + 1, board.size() - open - 2);
      board.resize(open);
    }
    read_board_field(
        board, v, g,
        [&](char c, int type, int square) {
          const bool shared = v.pieces[type].shared;
          if (shared && c != upper(c)) fail("the shared piece is written upper case");
          const Color color = shared                                        ? kNeutral
                              : std::isupper(static_cast<unsigned char>(c)) ? kWhite
                                                                            : kBlack;
          r.put(p, make_piece(color, type), square);
        },
        fail);
    for (char c : hand) {
      const int type = std::isalpha(static_cast<unsigned char>(c)) ? v.type_of_letter(c) : -1;
      if (type < 0) fail(std::string("unknown piece '") + c + "' in hand");
      if (v.pieces[type].royal || v.pieces[type].shared || !r.can_be_in_hand(type))
        fail(std::string("'") + c + "' cannot be in hand");
      uint8_t& n = p.hand[std::isupper(static_cast<unsigned char>(c)) ? 0 : 1][type];
      if (n >= 63) fail("too many pieces in hand");
      ++n;
    }
    // Side to move.
    p.stm = read_side_to_move(f, fail);
    // Kings.
    if (r.royal_ >= 0) {
      const int kings[2] = {popcount(p.by_type[r.royal_] & p.by_color[kWhite]),
                            popcount(p.by_type[r.royal_] & p.by_color[kBlack])};
      check_king_counts(kings, p.stm, v.check_rule, fail);
    }
    // Pawns where they can never stand.
    if (r.pawn_ >= 0)
      for (int c = 0; c < 2; ++c) {
        const int last = v.pawns_wait ? g.ranks : v.promotion_mandatory_rank;
        if (p.by_type[r.pawn_] & p.by_color[c] & g.relative_rank_bb(Color(c), last))
          fail("a pawn stands on its promotion rank");
      }
    // SH-8: no piece where it could never move; SH-10: no two unpromoted pawns on a file.
    for (int c = 0; c < 2; ++c)
      for (size_t t = 0; t < v.pieces.size(); ++t) {
        const Bitboard own = p.by_type[t] & p.by_color[c];
        if (own & r.dead_squares(Color(c), int(t)))
          fail("a piece stands where it could never move");
        if (v.drop_no_doubled >> t & 1)
          for (Bitboard b = own; b;)
            if (more_than_one(own & r.file_bb_[g.file_of(pop_lsb(b))]))
              fail("two unpromoted pawns on a file");
      }
    // Castling rights (none while reading the start that finds the castling squares).
    p.castling = read_castling_field(
        f, v.castling, r.castle_king_from_[0] >= 0,
        [&](int right) {
          const Color color = Color(right / 2);
          return p.board[r.castle_king_from_[color]] == make_piece(color, r.royal_) &&
                 p.board[r.castle_rook_from_[right]] == make_piece(color, r.rook_);
        },
        fail);
    // En passant.
    p.ep = int8_t(read_en_passant_field(f, v, g, p.board, r.pawn_, p.stm, fail));
    // Counters.
    const FenClocks clocks = read_clocks(f, p.stm == kBlack, fail);
    p.rule50 = uint16_t(clocks.rule50);
    p.game_ply = clocks.game_ply;
    // The engine's own fields.
    bool seen_pool = false, seen_start = false, seen_last = false, seen_streak = false;
    for (size_t i = 6; i < f.size(); ++i) {
      const std::string& tok = f[i];
      const auto field = [&](const char* name, bool& seen) {
        const std::string prefix = std::string(name) + ":";
        if (tok.compare(0, prefix.size(), prefix) != 0) return false;
        if (seen) fail("field '" + std::string(name) + "' repeated");
        seen = true;
        return true;
      };
      if (v.captured_to_pool && field("pool", seen_pool)) {
        for (char c : tok.substr(5)) {
          const int type = std::isalpha(static_cast<unsigned char>(c)) ? v.type_of_letter(c) : -1;
          if (type < 0 || !(r.promo_types_ >> type & 1))
            fail(std::string("'") + c + "' cannot be in the pool");
          uint8_t& n = p.pool[std::isupper(static_cast<unsigned char>(c)) ? 0 : 1][type];
          if (n >= 63) fail("too many pieces in the pool");
          ++n;
        }
        if (tok.size() == 5) fail("empty field 'pool:'");
      } else if (r.start_type_ >= 0 && field("start", seen_start)) {
        const std::string list = tok.substr(6);
        const char letter = v.pieces[r.start_type_].letter;
        if (list != "-" && list != std::string(1, upper(letter)) &&
            list != std::string(1, letter) && list != std::string(1, upper(letter)) + letter)
          fail("bad field '" + tok + "'");
        p.start_piece[0] = list.find(upper(letter)) != std::string::npos;
        p.start_piece[1] = list.find(letter) != std::string::npos;
      } else if (r.joker_ >= 0 && field("last", seen_last)) {
        if (tok.size() != 7) fail("bad field '" + tok + "'");
        for (int c = 0; c < 2; ++c) {
          const char l = tok[5 + c];
          if (l == '-') continue;
          const int type = std::islower(static_cast<unsigned char>(l)) ? v.type_of_letter(l) : -1;
          if (type < 0 || (v.joker_chain && type == r.joker_)) fail("bad field '" + tok + "'");
          p.used[c] = int8_t(type);
        }
      } else if (v.joker_max_streak && field("streak", seen_streak)) {
        const long n = parse_count(tok.substr(7), v.joker_max_streak);
        if (n <= 0) fail("bad field '" + tok + "'");
        p.joker_streak = uint8_t(n);
      } else {
        fail("unknown or repeated field '" + tok + "'");
      }
    }
    if (r.start_type_ >= 0) {
      if (!seen_start)
        for (int c = 0; c < 2; ++c) p.start_piece[c] = p.hand[c][r.start_type_] > 0;
      for (int c = 0; c < 2; ++c)
        if (p.start_piece[c] && !p.hand[c][r.start_type_])
          fail("a starting piece that is not in hand");
    }
    if (p.joker_streak && p.used[opponent(p.stm)] < 0) fail("a joker streak without a last action");
    // The side that just moved may not have left its king attacked.
    if (v.check_rule) {
      const Color them = opponent(p.stm);
      if (p.king[them] >= 0 && r.attacked(p, p.king[them], p.stm))
        fail("the side not to move is in check");
    }
    return p;
  }

  static std::string write(const FairyRules& r, const FairyPos& p) {
    const Variant& v = r.v_;
    std::string out = write_board_field(v, r.g_, p.board);
    out += '[';
    for (int c = 0; c < 2; ++c)
      for (size_t t = 0; t < v.pieces.size(); ++t)
        out += std::string(p.hand[c][t], c == 0 ? upper(v.pieces[t].letter) : v.pieces[t].letter);
    out += ']';
    out += write_fen_fields(r.g_, p.stm, p.castling, p.ep, p.rule50, p.game_ply);
    std::string pool;
    for (int c = 0; c < 2; ++c)
      for (size_t t = 0; t < v.pieces.size(); ++t)
        pool += std::string(p.pool[c][t], c == 0 ? upper(v.pieces[t].letter) : v.pieces[t].letter);
    if (!pool.empty()) out += " pool:" + pool;
    if (r.start_type_ >= 0) {
      bool same = true;
      for (int c = 0; c < 2; ++c) same = same && p.start_piece[c] == (p.hand[c][r.start_type_] > 0);
      if (!same) {
        const char l = v.pieces[r.start_type_].letter;
        std::string list = std::string(p.start_piece[0] ? 1 : 0, upper(l)) +
                           std::string(p.start_piece[1] ? 1 : 0, l);
        out += " start:" + (list.empty() ? std::string("-") : list);
      }
    }
    if (r.joker_ >= 0 && (p.used[0] >= 0 || p.used[1] >= 0)) {  // read back only with a joker
      out += " last:";
      for (int c = 0; c < 2; ++c) out += p.used[c] < 0 ? '-' : v.pieces[p.used[c]].letter;
    }
    if (p.joker_streak) out += " streak:" + std::to_string(p.joker_streak);
    return out;
  }
};

FairyPos FairyRules::parse_fen(const std::string& text) const {
  return FairyFen::read(*this, text);
}

std::string FairyRules::fen(const FairyPos& p) const { return FairyFen::write(*this, p); }

}  // namespace vzero
