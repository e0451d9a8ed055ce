// PGN writing: SAN from the FEN board and the legal actions of the rules.
#include "match/pgn.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

#include "util/error.h"

namespace vzero {

namespace {

// The board of a FEN as letters, rank by rank from the top ('.' empty).
std::vector<std::string> board_of(const GameState& state) {
  const Variant& v = state.game().variant();
  const std::string fen = state.fen();
  const std::string field = fen.substr(0, fen.find_first_of(" ["));
  std::vector<std::string> rows(1);
  for (size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c == '/') {
      rows.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int n = c - '0';
      while (i + 1 < field.size() && std::isdigit(static_cast<unsigned char>(field[i + 1])))
        n = 10 * n + (field[++i] - '0');
      rows.back().append(n, '.');
    } else {
      rows.back() += c;
    }
  }
  check(int(rows.size()) == v.ranks, "pgn: unexpected board in FEN '" + fen + "'");
  return rows;
}

struct Square {
  int file = -1, rank = -1;  // 0-based; rank 0 is the first rank
  bool operator==(const Square& o) const { return file == o.file && rank == o.rank; }
};

// The squares and promotion letter of a board move "e7e8q"; false for other texts.
bool parse_move(const std::string& t, Square& from, Square& to, char& promo) {
  size_t i = 0;
  const auto square = [&](Square& s) {
    if (i >= t.size() || !std::islower(static_cast<unsigned char>(t[i]))) return false;
    s.file = t[i++] - 'a';
    const size_t start = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == start) return false;
    s.rank = std::atoi(t.substr(start, i - start).c_str()) - 1;
    return true;
  };
  if (!square(from) || !square(to)) return false;
  promo = i < t.size() ? t[i++] : 0;
  return i == t.size();
}

std::string square_name(const Square& s) {
  return std::string(1, char('a' + s.file)) + std::to_string(s.rank + 1);
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string san(const GameState& state, int action) {
  const Variant& v = state.game().variant();
  const std::string text = state.action_to_text(action);
  Square from, to;
  char promo = 0;
  if (v.hook == "attrition" || !parse_move(text, from, to, promo))
    return text;  // drops, successions
  const std::vector<std::string> board = board_of(state);
  const auto at = [&](const Square& s) { return board[v.ranks - 1 - s.rank][s.file]; };
  const char piece = at(from);
  const int type = v.type_of_letter(char(std::tolower(static_cast<unsigned char>(piece))));
  const bool capture = at(to) != '.' && !(to == from);
  std::string out;
  const std::string promotion =
      promo ? std::string("=") + char(std::toupper(static_cast<unsigned char>(promo))) : "";
  if (type >= 0 && v.pieces[type].pawn) {
    if (from.file != to.file) out = std::string(1, char('a' + from.file)) + "x";
    out += square_name(to) + promotion;
  } else if (type >= 0 && v.pieces[type].royal && v.castling && from.rank == to.rank &&
             std::abs(to.file - from.file) >= 2) {
    out = to.file > from.file ? "O-O" : "O-O-O";
  } else {
    bool clash = false, same_file = false, same_rank = false;
    for (int other : state.legal_actions()) {
      Square f2, t2;
      char p2 = 0;
      if (other == action || !parse_move(state.action_to_text(other), f2, t2, p2)) continue;
      if (!(t2 == to) || p2 != promo || f2 == from || at(f2) != piece) continue;
      clash = true;
      same_file |= f2.file == from.file;
      same_rank |= f2.rank == from.rank;
    }
    out = std::string(1, char(std::toupper(static_cast<unsigned char>(piece))));
    if (clash)
      out += !same_file   ? std::string(1, char('a' + from.file))
             : !same_rank ? std::to_string(from.rank + 1)
                          : square_name(from);
    out += (capture ? "x" : "") + square_name(to) + promotion;
  }
  std::unique_ptr<GameState> after = state.clone();
  after->apply(action);
  if (after->is_terminal() && after->end_reason() == "checkmate") out += "#";
  return out;
}

std::string to_pgn(const Game& game, const MatchRecord& r) {
  check(game.num_players() == 2 && r.result.size() == 2, "pgn: only 2-player games have PGN");
  const std::string result = r.result[0] > r.result[1]   ? "1-0"
                             : r.result[0] < r.result[1] ? "0-1"
                                                         : "1/2-1/2";
  std::ostringstream out;
  const auto tag = [&](const std::string& name, const std::string& value) {
    out << "[" << name << " \"" << escape(value) << "\"]\n";
  };
  const std::string date = r.time.size() >= 10 ? r.time.substr(0, 4) + "." + r.time.substr(5, 2) +
                                                     "." + r.time.substr(8, 2)
                                               : "????.??.??";
  tag("Event", r.match.empty() ? "vzero match" : r.match);
  tag("Site", "vzero");
  tag("Date", date);
  tag("Round", std::to_string(r.index + 1));
  tag("White", r.players[0]);
  tag("Black", r.players[1]);
  tag("Result", result);
  tag("Variant", game.id());
  if (!r.opening.fen.empty()) {
    tag("SetUp", "1");
    tag("FEN", r.opening.fen);
  }
  tag("PlyCount", std::to_string(r.opening.moves.size() + r.moves.size()));
  tag("Termination", r.forfeit_seat >= 0 ? "rules infraction" : "normal");
  out << "\n";

  std::unique_ptr<GameState> state = game.new_state(r.opening.fen);
  std::istringstream fen_fields(state->fen());
  std::string field;
  int number = 1;
  for (int k = 0; k < 6 && fen_fields >> field; ++k)
    if (k == 5 && game.variant().hook != "attrition")
      number = std::max(1, std::atoi(field.c_str()));
  std::string moves;
  int line = 0;
  const auto emit = [&](const std::string& token) {
    if (line > 0 && line + 1 + int(token.size()) > 79) {
      moves += "\n";
      line = 0;
    } else if (line > 0) {
      moves += " ";
      ++line;
    }
    moves += token;
    line += int(token.size());
  };
  int previous = -1;     // the seat that made the last move
  bool renumber = true;  // a move number is due (at the start, after a comment)
  const size_t total = r.opening.moves.size() + r.moves.size();
  for (size_t i = 0; i < total; ++i) {
    const std::string& text =
        i < r.opening.moves.size() ? r.opening.moves[i] : r.moves[i - r.opening.moves.size()];
    check(!state->is_terminal(), "pgn: move '" + text + "' after the end of the game");
    const int seat = state->current_player();
    if (seat == 0 && previous == 1) ++number;
    if (renumber || previous != seat) {
      if (seat == 0)
        emit(std::to_string(number) + ".");
      else if (renumber || previous != 0)
        emit(std::to_string(number) + "...");
    }
    renumber = false;
    int action;
    try {
      action = state->text_to_action(text);
    } catch (const Error& e) {
      throw Error("pgn: game " + std::to_string(r.index) + ": " + e.what());
    }
    emit(san(*state, action));
    state->apply(action);
    previous = seat;
    if (i + 1 == r.opening.moves.size()) {
      emit("{end of opening}");
      renumber = true;
    }
  }
  std::string reason = r.reason;
  for (char& c : reason)
    if (c == '{' || c == '}') c = ' ';
  emit("{" + reason + "}");
  emit(result);
  return out.str() + moves + "\n\n";
}

}  // namespace vzero
