// The rules of attrition (rules/attrition.md): placements, knight moves,
// the start-of-turn losses, perft and hashing.
#include "game/attrition/attrition_rules.h"

#include "game/attrition/attrition_tables.h"
#include "util/error.h"

namespace vzero {

using namespace attrition;

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
    for (uint64_t b = t.attacks[from] & open; b;)
      out[n++] = uint16_t(t.action[from][pop_lowest(b)]);
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

}  // namespace vzero
