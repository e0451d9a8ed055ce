// Chivalrous Attrition (rules/attrition.md): the rules core (attrition_state.h),
// its FEN (docs/fen-attrition.md) and the Game / GameState behind game.h.
#include "game/attrition/attrition_game.h"

#include <algorithm>
#include <cmath>

#include "game/attrition/attrition_state.h"
#include "util/error.h"
#include "game/zobrist.h"

namespace vzero {

namespace {

constexpr int kMoveActions = kAttritionActions - kAttritionPlacements;  // 336
constexpr int kMaxFenPly = 1000000;

inline uint64_t bit(int sq) { return uint64_t(1) << sq; }
inline int pop_lowest(uint64_t& b) {
  const int s = __builtin_ctzll(b);
  b &= b - 1;
  return s;
}

// Knight leaps and the numbering of the move actions.
struct Tables {
  uint64_t attacks[kAttritionSquares] = {};
  int16_t action[kAttritionSquares][kAttritionSquares];  // move action of (from, to), or -1
  uint8_t from[kMoveActions] = {}, to[kMoveActions] = {};
  Tables() {
    static const int leaps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (auto& row : action) std::fill(std::begin(row), std::end(row), int16_t(-1));
    for (int s = 0; s < kAttritionSquares; ++s)
      for (const auto& l : leaps) {
        const int f = s % 8 + l[0], r = s / 8 + l[1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) attacks[s] |= bit(r * 8 + f);
      }
    int n = 0;
    for (int f = 0; f < kAttritionSquares; ++f)
      for (int t = 0; t < kAttritionSquares; ++t)
        if ((attacks[f] >> t) & 1) {
          action[f][t] = int16_t(kAttritionPlacements + n);
          from[n] = uint8_t(f);
          to[n] = uint8_t(t);
          ++n;
        }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Zobrist keys of the attrition position, from a fixed seed.
struct Keys {
  uint64_t marker[kAttritionSquares];
  uint64_t knight[kAttritionMaxSeats][kAttritionSquares];
  uint64_t to_act[kAttritionMaxSeats + 1];  // index to_act + 1
  uint64_t first[kAttritionMaxSeats];
  uint64_t to_place[kAttritionMaxSeats][3];
  uint64_t out[kAttritionMaxSeats][kAttritionMaxSeats][2];  // (rank out, seat, captured)
  Keys() {
    uint64_t seed = 0xA7721710C4A1ull;
    for (auto& k : marker) k = splitmix64(seed);
    for (auto& row : knight)
      for (auto& k : row) k = splitmix64(seed);
    for (auto& k : to_act) k = splitmix64(seed);
    for (auto& k : first) k = splitmix64(seed);
    for (auto& row : to_place)
      for (auto& k : row) k = splitmix64(seed);
    for (auto& a : out)
      for (auto& b : a)
        for (auto& k : b) k = splitmix64(seed);
  }
};

const Keys& keys() {
  static const Keys k;
  return k;
}

uint64_t board_key_of(const AttritionPos& p) {
  uint64_t key = 0;
  for (uint64_t m = p.marked; m;) key ^= keys().marker[pop_lowest(m)];
  for (int s = 0; s < kAttritionMaxSeats; ++s)
    for (uint64_t k = p.knights[s]; k;) key ^= keys().knight[s][pop_lowest(k)];
  return key;
}

}  // namespace

// ---- the action space ----

int AttritionRules::move_from(int action) { return tables().from[action - kAttritionPlacements]; }
int AttritionRules::move_to(int action) { return tables().to[action - kAttritionPlacements]; }
int AttritionRules::move_action(int from, int to) { return tables().action[from][to]; }

std::string AttritionRules::square_name(int sq) {
  return std::string(1, char('a' + sq % 8)) + char('1' + sq / 8);
}

std::string AttritionRules::action_name(int action) {
  if (action < kAttritionPlacements) return "N@" + square_name(action);
  return square_name(move_from(action)) + square_name(move_to(action));
}

int AttritionRules::action_of_name(const std::string& t) {
  const auto square = [&](size_t i) {
    return t[i] >= 'a' && t[i] <= 'h' && t[i + 1] >= '1' && t[i + 1] <= '8'
               ? (t[i + 1] - '1') * 8 + (t[i] - 'a')
               : -1;
  };
  if (t.size() != 4) return -1;
  if (t[0] == 'N' && t[1] == '@') return square(2);
  const int from = square(0), to = square(2);
  return from < 0 || to < 0 ? -1 : move_action(from, to);
}

// ---- the rules ----

AttritionRules::AttritionRules(int players, int knights, bool sudden)
    : players_(players), knights_(knights), sudden_(sudden) {
  check(players >= 2 && players <= kAttritionMaxSeats, "attrition: players must be 2, 3 or 4");
  check(knights == 1 || knights == 2, "attrition: knights must be 1 or 2");
  check(knights == 1 || players == 2, "attrition: two knights only with two players");
}

AttritionPos AttritionRules::start(int first) const {
  AttritionPos p;
  p.first = uint8_t(first);
  p.to_act = int8_t(first);
  for (int s = 0; s < players_; ++s) p.to_place[s] = uint8_t(knights_);
  return p;
}

// CA-5: the squares the second of two players may not place on now.
uint64_t AttritionRules::forbidden_placements(const AttritionPos& p, int seat) const {
  if (players_ != 2 || seat == p.first) return 0;
  const uint64_t theirs = p.knights[1 - seat];
  static const int reflections[3] = {7, 56, 63};  // left-right, top-bottom, 180 degrees (sq ^ r)
  uint64_t forbidden = 0;
  if (knights_ == 1) {
    if (!theirs) return 0;
    const int f = __builtin_ctzll(theirs);
    for (int r : reflections) forbidden |= bit(f ^ r);
    return forbidden;
  }
  // Two knights: only the second placement can complete a reflected pair.
  if (p.to_place[seat] != 1 || __builtin_popcountll(theirs) != 2 || !p.knights[seat]) return 0;
  const int mine = __builtin_ctzll(p.knights[seat]);
  const int f1 = __builtin_ctzll(theirs), f2 = 63 - __builtin_clzll(theirs);
  for (int r : reflections) {
    if ((f1 ^ r) == mine) forbidden |= bit(f2 ^ r);
    if ((f2 ^ r) == mine) forbidden |= bit(f1 ^ r);
  }
  return forbidden;
}

// CA-4: placements go on empty unmarked squares (knights stand on marked ones).
uint64_t AttritionRules::placements(const AttritionPos& p, int seat) const {
  return ~p.marked & ~forbidden_placements(p, seat);
}

int AttritionRules::generate(const AttritionPos& p, uint16_t* out) const {
  if (p.over()) return 0;
  const int seat = p.to_act;
  int n = 0;
  if (p.to_place[seat] > 0) {
    for (uint64_t b = placements(p, seat); b;) out[n++] = uint16_t(pop_lowest(b));
    return n;
  }
  uint64_t others = 0;
  for (int s = 0; s < players_; ++s)
    if (s != seat) others |= p.knights[s];
  const uint64_t open = ~p.marked | others;  // CA-4: unmarked, or an opponent knight to capture
  const Tables& t = tables();
  for (uint64_t k = p.knights[seat]; k;) {
    const int from = pop_lowest(k);
    for (uint64_t b = t.attacks[from] & open; b;) out[n++] = uint16_t(t.action[from][pop_lowest(b)]);
  }
  return n;
}

// Whether the seat loses (or goes out) at the start of its turn (CA-8..CA-11).
bool AttritionRules::stuck(const AttritionPos& p, int seat) const {
  if (p.to_place[seat] > 0) return placements(p, seat) == 0;
  uint64_t others = 0;
  for (int s = 0; s < players_; ++s)
    if (s != seat) others |= p.knights[s];
  const uint64_t open = ~p.marked | others;
  const Tables& t = tables();
  uint64_t reach = 0;
  for (uint64_t k = p.knights[seat]; k;) {
    const uint64_t moves = t.attacks[pop_lowest(k)] & open;
    if (sudden_ && !moves) return true;  // CA-10: one stuck knight loses
    reach |= moves;
  }
  return reach == 0;
}

// The seat is out (2 players: has lost); with 3-4 players its knight leaves
// the board, its square stays marked (CA-11). Ends the game when one seat is left.
void AttritionRules::eliminate(AttritionPos& p, int seat, bool captured) const {
  p.out_seat[p.n_out] = uint8_t(seat);
  p.out_captured[p.n_out] = uint8_t(captured);
  ++p.n_out;
  p.out_mask |= uint8_t(1 << seat);
  if (players_ > 2) {
    for (uint64_t k = p.knights[seat]; k;) p.board_key ^= keys().knight[seat][pop_lowest(k)];
    p.knights[seat] = 0;
  }
  if (p.n_out == players_ - 1) p.to_act = -1;
}

// The next seat after `seat` in turn order that is not out.
int AttritionRules::next_seat(const AttritionPos& p, int seat) const {
  for (int i = 1; i <= players_; ++i) {
    const int s = (seat + i) % players_;
    if (!p.is_out(s)) return s;
  }
  return -1;
}

// Automatic events at the start of a turn (not actions, not plies): a seat
// that cannot act loses, or with 3-4 players goes out and the turn passes on.
void AttritionRules::settle(AttritionPos& p) const {
  while (!p.over() && stuck(p, p.to_act)) {
    const int seat = p.to_act;
    eliminate(p, seat, false);
    if (!p.over()) p.to_act = int8_t(next_seat(p, seat));
  }
}

void AttritionRules::play(AttritionPos& p, int action) const {
  const Keys& k = keys();
  const int seat = p.to_act;
  ++p.ply;
  if (action < kAttritionPlacements) {  // CA-2, CA-3: placement marks its square
    p.knights[seat] |= bit(action);
    p.marked |= bit(action);
    p.board_key ^= k.knight[seat][action] ^ k.marker[action];
    if (--p.to_place[seat] > 0) {  // the second knight of the same turn
      settle(p);
      return;
    }
  } else {
    const int from = move_from(action), to = move_to(action);
    p.knights[seat] ^= bit(from) | bit(to);
    p.board_key ^= k.knight[seat][from] ^ k.knight[seat][to];
    if (!(p.marked & bit(to))) {  // CA-3
      p.marked |= bit(to);
      p.board_key ^= k.marker[to];
    } else {  // CA-4: a capture
      int victim = 0;
      while (!(p.knights[victim] & bit(to)) || victim == seat) ++victim;
      p.knights[victim] &= ~bit(to);
      p.board_key ^= k.knight[victim][to];
      // CA-8, CA-10, CA-11: one capture decides; CA-9: both knights must go.
      if (players_ > 2 || knights_ == 1 || sudden_ || !p.knights[victim]) {
        eliminate(p, victim, true);
        if (p.over()) return;
      }
    }
  }
  p.to_act = int8_t(next_seat(p, seat));
  settle(p);
}

uint64_t AttritionRules::perft(const AttritionPos& p, int depth) const {
  if (depth <= 0) return 1;
  uint16_t actions[kAttritionMaxLegal];
  const int n = generate(p, actions);
  if (depth == 1) return uint64_t(n);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    AttritionPos child = p;
    play(child, actions[i]);
    total += perft(child, depth - 1);
  }
  return total;
}

uint64_t AttritionRules::hash(const AttritionPos& p) const {
  const Keys& k = keys();
  uint64_t h = p.board_key ^ k.to_act[p.to_act + 1] ^ k.first[p.first];
  for (int s = 0; s < players_; ++s) h ^= k.to_place[s][p.to_place[s]];
  for (int i = 0; i < p.n_out; ++i) h ^= k.out[i][p.out_seat[i]][p.out_captured[i]];
  return h;
}

// ---- the FEN (docs/fen-attrition.md) ----

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
    fail("expected 6 fields separated by single spaces: board, seat to act, first seat, "
         "knights to place, seats out, ply");
  for (const std::string& f : fields)
    if (f.empty()) fail("empty field (fields are separated by single spaces)");
  const auto seat_digit = [&](char c, const char* what) {
    if (c < '0' || c >= char('0' + players_))
      fail(std::string(what) + " '" + c + "' is not a seat (0.." + std::to_string(players_ - 1) + ")");
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
      fail(std::string("unexpected character '") + c + "' on the board (a-d knights, x marker, 1-8 empty squares)");
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
    if (outs.size() % 2 || int(outs.size()) / 2 > players_ - 1) fail("bad seats out '" + outs + "'");
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
        require(p.to_place[s] == 0, name + " should have placed its knights before the seat to act");
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
      require(count(s) >= lo && count(s) <= hi, name + " is in play with a wrong number of knights");
      continue;
    }
    if (players_ > 2) {
      require(count(s) == 0, name + " is out but has a knight on the board");
      continue;
    }
    const bool captured = p.out_captured[0];
    if (captured)
      require(count(s) == (sudden_ ? 1 : 0), name + " lost by capture with a wrong number of knights");
    else
      require(count(s) >= lo && count(s) <= hi, name + " lost by no move with a wrong number of knights");
  }
}

// ---- Game and GameState ----

std::unique_ptr<GameState> AttritionGame::new_state(const std::string& fen) const {
  return std::make_unique<AttritionState>(*this, fen);
}

// CA-8..CA-11: +1 / -1 with 2 players; with 3-4 the first out gets -1, the
// winner +1, the others evenly between by the order of going out. Values are
// rounded to multiples of 2^-51 (1/3 off by 2e-16) so that they sum to exactly
// zero in any order.
std::vector<double> AttritionState::returns() const {
  const int n = rules_.players();
  std::vector<double> r(n, 0.0);
  if (!pos_.over()) return r;
  for (int s = 0; s < n; ++s)
    if (!pos_.is_out(s)) r[s] = 1.0;
  for (int i = 0; i < pos_.n_out; ++i) {
    const double spread = double(2 * i - (n - 1)) / (n - 1);
    r[pos_.out_seat[i]] = std::ldexp(std::nearbyint(std::ldexp(spread, 51)), -51);
  }
  return r;
}

std::string AttritionState::end_reason() const {
  if (capped()) return "cap";
  if (!pos_.over()) return "";
  if (rules_.players() > 2) return "last-standing";
  return pos_.out_captured[0] ? "capture" : "no-move";
}

int AttritionState::text_to_action(const std::string& text) const {
  if (!is_action_syntax(text)) throw Error("malformed action '" + text + "'");
  const int action = AttritionRules::action_of_name(text);
  if (action < 0)
    throw Error("illegal action '" + text +
                "': attrition has placements like N@d4 and knight moves like b1c3 on 8x8");
  const std::vector<int>& legal = legal_actions();
  if (!std::binary_search(legal.begin(), legal.end(), action))
    throw Error("illegal action '" + text + "' in position " + fen());
  return action;
}

std::string AttritionState::to_text() const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    out += char('1' + r);
    for (int f = 0; f < 8; ++f) {
      const int sq = r * 8 + f;
      char c = (pos_.marked >> sq) & 1 ? 'x' : '.';
      for (int s = 0; s < rules_.players(); ++s)
        if ((pos_.knights[s] >> sq) & 1) c = char('0' + s);
      out += ' ';
      out += c;
    }
    out += '\n';
  }
  out += "  a b c d e f g h   (0-3: knight of that seat, x: marker, .: free)\n";
  if (is_terminal()) {
    out += "Game over (" + end_reason() + ")";
    const std::vector<double> r = returns();
    for (size_t s = 0; s < r.size(); ++s) out += ", seat " + std::to_string(s) + " " + std::to_string(r[s]);
    out += "\n";
  } else {
    out += "Seat " + std::to_string(pos_.to_act) + " to act";
    if (pos_.to_place[pos_.to_act])
      out += " (places a knight; " + std::to_string(pos_.to_place[pos_.to_act]) + " still to place)";
    out += "\n";
  }
  if (pos_.n_out) {
    out += "Out:";
    for (int i = 0; i < pos_.n_out; ++i)
      out += " seat " + std::to_string(pos_.out_seat[i]) + (pos_.out_captured[i] ? " (captured)" : " (no move)");
    out += "\n";
  }
  out += "First seat " + std::to_string(pos_.first) + ", ply " + std::to_string(pos_.ply) + "\n";
  out += "FEN: " + fen() + "\n";
  return out;
}

std::unique_ptr<Game> make_attrition_game(const Variant& v) { return std::make_unique<AttritionGame>(v); }

}  // namespace vzero
