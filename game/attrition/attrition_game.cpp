// AttritionGame and AttritionState (attrition_state.h): the rules of attrition
// behind the Game interface, with returns, the length cap and the diagram.
#include "game/attrition/attrition_game.h"

#include <algorithm>
#include <cmath>

#include "game/attrition/attrition_solver.h"
#include "game/attrition/attrition_state.h"
#include "game/attrition/attrition_tables.h"
#include "util/error.h"

namespace vzero {

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

int AttritionState::winning_action() const {
  if (is_terminal()) return -1;
  const int me = pos_.to_act;
  const attrition::Tables& t = attrition::tables();
  // Only a capture, or the last free leap of an opponent's knight taken, can end the game at once.
  uint64_t enemies = 0;
  bool cornered = false;
  for (int s = 0; s < rules_.players(); ++s) {
    if (s == me || pos_.is_out(s)) continue;
    enemies |= pos_.knights[s];
    for (uint64_t k = pos_.knights[s]; k;)
      cornered |= __builtin_popcountll(t.attacks[attrition::pop_lowest(k)] & ~pos_.marked) <= 1;
  }
  for (int a : actions_) {
    const bool capture = a >= kAttritionPlacements && (enemies >> AttritionRules::move_to(a)) & 1;
    if (!capture && !cornered) continue;
    AttritionPos after = pos_;
    rules_.play(after, a);
    if (after.over() && !after.is_out(me)) return a;
  }
  return -1;
}

std::optional<std::vector<double>> AttritionState::solved_returns() const {
  if (is_terminal()) return std::nullopt;
  const std::optional<SeparatedPaths> paths = attrition_separated_paths(rules_, pos_);
  // The game lasts at most 2 * min(paths) + 1 more plies; the cap must not come first.
  if (!paths ||
      (max_plies_ > 0 && pos_.ply + 2 * std::min(paths->to_act, paths->other) + 1 > max_plies_))
    return std::nullopt;
  std::vector<double> r(2, -1.0);
  r[size_t(paths->winner(pos_.to_act))] = 1.0;
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
    for (size_t s = 0; s < r.size(); ++s)
      out += ", seat " + std::to_string(s) + " " + std::to_string(r[s]);
    out += "\n";
  } else {
    out += "Seat " + std::to_string(pos_.to_act) + " to act";
    if (pos_.to_place[pos_.to_act])
      out +=
          " (places a knight; " + std::to_string(pos_.to_place[pos_.to_act]) + " still to place)";
    out += "\n";
  }
  if (pos_.n_out) {
    out += "Out:";
    for (int i = 0; i < pos_.n_out; ++i)
      out += " seat " + std::to_string(pos_.out_seat[i]) +
             (pos_.out_captured[i] ? " (captured)" : " (no move)");
    out += "\n";
  }
  out += "First seat " + std::to_string(pos_.first) + ", ply " + std::to_string(pos_.ply) + "\n";
  out += "FEN: " + fen() + "\n";
  return out;
}

std::unique_ptr<Game> make_attrition_game(const Variant& v) {
  return std::make_unique<AttritionGame>(v);
}

}  // namespace vzero
