// The FEN of attrition (docs/fen-attrition.md): written, read strictly and validated.
#include <string>
#include <vector>

#include "game/attrition/attrition_rules.h"
#include "game/attrition/attrition_tables.h"
#include "util/error.h"

namespace vzero {

using namespace attrition;

namespace {
constexpr int kMaxFenPly = 1000000;
}  // namespace

std::string AttritionRules::fen(const AttritionPos& p) const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    int run = 0;
    for (int f = 0; f < 8; ++f) {
      const int sq = r * 8 + f;
      char c = 0;
      for (int s = 0; s < players_; ++s)
        if (p.knights[s] & bit(sq)) c = char('a' + s);
      if (!c && (p.marked & bit(sq))) c = 'x';
      if (!c) {
        ++run;
        continue;
      }
      if (run) out += char('0' + run);
      run = 0;
      out += c;
    }
    if (run) out += char('0' + run);
    if (r) out += '/';
  }
  out += ' ';
  out += p.over() ? '-' : char('0' + p.to_act);
  out += ' ';
  out += char('0' + p.first);
  out += ' ';
  for (int s = 0; s < players_; ++s) out += char('0' + p.to_place[s]);
  out += ' ';
  if (!p.n_out) out += '-';
  for (int i = 0; i < p.n_out; ++i) {
    out += char('0' + p.out_seat[i]);
    out += p.out_captured[i] ? 'c' : 'm';
  }
  out += ' ' + std::to_string(p.ply);
  return out;
}

AttritionPos AttritionRules::parse_fen(const std::string& text) const {
  const std::string where = "attrition FEN '" + text.substr(0, 120) + "'";
  const auto fail = [&](const std::string& why) { throw Error(where + ": " + why); };
  if (text.size() > 200) fail("too long");
  std::vector<std::string> fields(1);
  for (char c : text) {
    if (c == ' ')
      fields.emplace_back();
    else
      fields.back() += c;
  }
  if (fields.size() != 6)
    fail(
        "expected 6 fields separated by single spaces: board, seat to act, first seat, "
        "knights to place, seats out, ply");
  for (const std::string& f : fields)
    if (f.empty()) fail("empty field (fields are separated by single spaces)");
  const auto seat_digit = [&](char c, const char* what) {
    if (c < '0' || c >= char('0' + players_))
      fail(std::string(what) + " '" + c + "' is not a seat (0.." + std::to_string(players_ - 1) +
           ")");
    return c - '0';
  };

  AttritionPos p;
  // Board: ranks 8..1, a-d knights of seats 0-3, x marked, digits unmarked runs.
  int rank = 7, file = 0;
  bool last_digit = false;
  for (char c : fields[0]) {
    if (c == '/') {
      if (file != 8) fail("rank " + std::to_string(rank + 1) + " does not have 8 squares");
      if (--rank < 0) fail("more than 8 ranks");
      file = 0;
      last_digit = false;
      continue;
    }
    if (c >= '1' && c <= '8') {
      if (last_digit) fail("two digits in a row in rank " + std::to_string(rank + 1));
      file += c - '0';
      if (file > 8) fail("rank " + std::to_string(rank + 1) + " has more than 8 squares");
      last_digit = true;
      continue;
    }
    last_digit = false;
    if (file >= 8) fail("rank " + std::to_string(rank + 1) + " has more than 8 squares");
    const int sq = rank * 8 + file++;
    if (c == 'x') {
      p.marked |= bit(sq);
    } else if (c >= 'a' && c <= 'd') {
      if (c - 'a' >= players_)
        fail(std::string("knight '") + c + "' of seat " + std::to_string(c - 'a') + " in a " +
             std::to_string(players_) + "-player game");
      p.knights[c - 'a'] |= bit(sq);
      p.marked |= bit(sq);
    } else {
      fail(std::string("unexpected character '") + c +
           "' on the board (a-d knights, x marker, 1-8 empty squares)");
    }
  }
  if (rank != 0) fail("the board needs 8 ranks");
  if (file != 8) fail("rank 1 does not have 8 squares");

  const std::string& act = fields[1];
  if (act.size() != 1) fail("bad seat to act '" + act + "'");
  p.to_act = int8_t(act == "-" ? -1 : seat_digit(act[0], "seat to act"));
  if (fields[2].size() != 1) fail("bad first seat '" + fields[2] + "'");
  p.first = uint8_t(seat_digit(fields[2][0], "first seat"));
  if (int(fields[3].size()) != players_)
    fail("knights to place needs one digit per seat (" + std::to_string(players_) + ")");
  for (int s = 0; s < players_; ++s) {
    const char c = fields[3][s];
    if (c < '0' || c > char('0' + knights_))
      fail(std::string("knights to place '") + c + "' must be 0.." + std::to_string(knights_));
    p.to_place[s] = uint8_t(c - '0');
  }
  const std::string& outs = fields[4];
  if (outs != "-") {
    if (outs.size() % 2 || int(outs.size()) / 2 > players_ - 1)
      fail("bad seats out '" + outs + "'");
    for (size_t i = 0; i < outs.size(); i += 2) {
      const int s = seat_digit(outs[i], "seat out");
      if (p.is_out(s)) fail("seat " + std::to_string(s) + " is out twice");
      if (outs[i + 1] != 'c' && outs[i + 1] != 'm')
        fail("each seat out is followed by c (captured) or m (no move)");
      p.out_seat[p.n_out] = uint8_t(s);
      p.out_captured[p.n_out++] = outs[i + 1] == 'c';
      p.out_mask |= uint8_t(1 << s);
    }
  }
  const std::string& ply = fields[5];
  if (ply.size() > 7 || ply.find_first_not_of("0123456789") != std::string::npos ||
      (ply.size() > 1 && ply[0] == '0'))
    fail("bad ply counter '" + ply + "'");
  p.ply = std::stoi(ply);
  if (p.ply > kMaxFenPly) fail("ply counter above " + std::to_string(kMaxFenPly));

  validate(p, where);
  p.board_key = board_key_of(p);
  settle(p);
  return p;
}

// Throws when the fields of a parsed FEN cannot occur together in a game.
void AttritionRules::validate(const AttritionPos& p, const std::string& where) const {
  const auto require = [&](bool ok, const std::string& why) {
    if (!ok) throw Error(where + ": " + why);
  };
  const auto count = [&](int s) { return __builtin_popcountll(p.knights[s]); };
  require((p.n_out == players_ - 1) == p.over(),
          "the seat to act is '-' exactly when all seats but one are out");
  require(p.over() || !p.is_out(p.to_act), "the seat to act is out");
  bool placing = false;
  for (int s = 0; s < players_; ++s) {
    require(count(s) + p.to_place[s] <= knights_,
            "seat " + std::to_string(s) + " has more knights than " + std::to_string(knights_));
    placing = placing || p.to_place[s] > 0;
  }
  if (placing) {
    // Seats place in turn from the first seat; no move has been made yet.
    require(p.n_out == 0 && !p.over(), "a seat is out before all knights are placed");
    uint64_t all = 0;
    for (int s = 0; s < players_; ++s) all |= p.knights[s];
    require(all == p.marked, "markers other than under knights before all knights are placed");
    bool before = true;
    for (int i = 0; i < players_; ++i) {
      const int s = (p.first + i) % players_;
      const std::string name = "seat " + std::to_string(s);
      if (s == p.to_act) {
        require(p.to_place[s] > 0, name + " is to act but has placed all its knights");
        before = false;
      } else if (before) {
        require(p.to_place[s] == 0,
                name + " should have placed its knights before the seat to act");
      } else {
        require(p.to_place[s] == knights_ && count(s) == 0,
                name + " should not have placed a knight yet (turn order from the first seat)");
      }
    }
    return;
  }
  // After placement: a seat in play has its knights; one out has lost them
  // (3-4 players), or keeps what the way it lost leaves (2 players).
  const int lo = sudden_ ? 2 : 1, hi = knights_;
  for (int s = 0; s < players_; ++s) {
    const std::string name = "seat " + std::to_string(s);
    if (!p.is_out(s)) {
      require(count(s) >= lo && count(s) <= hi,
              name + " is in play with a wrong number of knights");
      continue;
    }
    if (players_ > 2) {
      require(count(s) == 0, name + " is out but has a knight on the board");
      continue;
    }
    const bool captured = p.out_captured[0];
    if (captured)
      require(count(s) == (sudden_ ? 1 : 0),
              name + " lost by capture with a wrong number of knights");
    else
      require(count(s) >= lo && count(s) <= hi,
              name + " lost by no move with a wrong number of knights");
  }
}

}  // namespace vzero
