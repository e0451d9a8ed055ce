// FairyGame and FairyState (fairy_state.h): the "fairy" rules behind the Game
// interface, with the history, repetition, the clocks and the length cap.
#include "game/fairy/fairy_game.h"

#include <algorithm>
#include <utility>

#include "game/fairy/fairy_state.h"
#include "util/error.h"

namespace vzero {

std::unique_ptr<GameState> FairyGame::new_state(const std::string& fen) const {
  return std::make_unique<FairyState>(*this, fen);
}

FairyState::FairyState(const FairyGame& game, const std::string& fen)
    : game_(game), max_plies_(game.variant().max_plies) {
  const FairyRules& r = game.rules();
  history_.push_back(fen.empty() ? r.start() : r.parse_fen(fen));
  push_key();
}

void FairyState::apply(int action) {
  const FairyRules& r = game_.rules();
  history_.push_back(r.play(pos(), legal().move_of(action, [&] { return fen(); })));
  push_key();
  valid_ = false;
}

void FairyState::undo() {
  check(history_.size() > 1, "undo: no action to take back");
  history_.pop_back();
  keys_.pop_back();
  checks_.pop_back();
  valid_ = false;
}

int FairyState::winning_action() const {
  if (!game_.variant().king_capture || is_terminal()) return -1;
  const FairyPos& p = pos();
  const int king = p.king[1 - int(p.stm)];
  if (king < 0) return -1;
  const LegalMoves& l = legal();
  for (size_t i = 0; i < l.moves.size(); ++i)
    if (l.moves[i].to() == king && l.moves[i].kind() != MoveKind::kDrop) return l.actions[i];
  return -1;
}

int FairyState::text_to_action(const std::string& text) const {
  return legal().action_of(
      text, [&](Move m) { return game_.rules().move_text(m); }, [&] { return fen(); });
}

std::string FairyState::to_text() const {
  const FairyRules& r = game_.rules();
  std::string out = r.board_text(pos());
  out += std::string(pos().stm == kWhite ? "White" : "Black") + " to move";
  if (r.in_check(pos())) out += " (check)";
  return out + "\nFEN: " + fen() + "\n";
}

void FairyState::push_key() {
  const FairyRules& r = game_.rules();
  keys_.push_back(r.hash(pos()));
  checks_.push_back(game_.variant().perpetual_check_loses && r.in_check(pos()));
}

int FairyState::repetitions(int* first) const {
  const int n = int(keys_.size()) - 1;
  const int window = game_.variant().fifty_move ? std::min<int>(pos().rule50, n) : n;
  int reps = 0;
  for (int i = n - 2; i >= n - window; i -= 2)
    if (keys_[i] == keys_[n]) {
      ++reps;
      if (first) *first = i;
    }
  return reps;
}

int FairyState::perpetual_checker(int first) const {
  const int n = int(keys_.size()) - 1;
  bool last = true, other = true;
  for (int j = first + 1; j <= n; ++j) ((n - j) % 2 == 0 ? last : other) &= checks_[size_t(j)] != 0;
  if (last) return int(opponent(pos().stm));
  return other ? int(pos().stm) : -1;
}

const LegalMoves& FairyState::legal() const {
  if (valid_) return legal_;
  valid_ = true;
  legal_.actions.clear();
  legal_.moves.clear();
  legal_.reason.clear();
  const FairyRules& r = game_.rules();
  MoveList list;
  r.legal_moves(pos(), list);
  legal_.result = r.outcome(pos(), list, &legal_.reason);
  const auto draw = [&](const char* why) {
    legal_.result = 2;
    legal_.reason = why;
  };
  const Variant& v = game_.variant();
  int first = -1;
  if (legal_.result < 0) {
    if (v.fifty_move && pos().rule50 >= 100) {
      draw("fifty-move");
    } else if (repetitions(&first) >= v.repetition - 1) {
      const int checker = v.perpetual_check_loses ? perpetual_checker(first) : -1;
      draw("repetition");
      if (checker >= 0) legal_.result = 1 - checker, legal_.reason = "perpetual-check";
    } else if (max_plies_ > 0 && plies() >= max_plies_) {
      draw("cap");
    }
  }
  if (legal_.result >= 0) return legal_;
  std::vector<std::pair<int, Move>> pairs;
  for (const Move m : list) {
    const int a = game_.actions().index(m);
    if (a < 0) throw Error("internal: move " + r.move_text(m) + " has no action in " + game_.id());
    pairs.emplace_back(a, m);
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [a, m] : pairs) {
    legal_.actions.push_back(a);
    legal_.moves.push_back(m);
  }
  return legal_;
}

std::unique_ptr<Game> make_fairy_game(const Variant& v) { return std::make_unique<FairyGame>(v); }

}  // namespace vzero
