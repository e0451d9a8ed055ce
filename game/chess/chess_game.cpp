// ChessGame and ChessState: a Position behind the Game interface, with the
// end of the game, draws and the length cap.
#include "game/chess/chess_game.h"

#include <algorithm>
#include <numeric>

#include "util/error.h"

namespace vzero {

std::unique_ptr<GameState> ChessGame::new_state(const std::string& fen) const {
  return std::make_unique<ChessState>(*this, fen);
}

ChessState::ChessState(const ChessGame& game, const std::string& fen)
    : game_(game), pos_(game.variant()), max_plies_(game.variant().max_plies) {
  if (!fen.empty()) pos_.set_fen(fen);
}

const ChessState::Legal& ChessState::legal() const {
  if (legal_valid_) return legal_;
  legal_valid_ = true;
  legal_.actions.clear();
  legal_.moves.clear();
  MoveList list;
  pos_.legal_moves(list);
  legal_.result = outcome(list.size, &legal_.reason);
  if (legal_.result >= 0) return legal_;
  // Sort (action, move) pairs packed in 64 bits.
  uint64_t packed[kMaxMoves];
  for (int i = 0; i < list.size; ++i) {
    const int a = game_.actions().index(list.moves[i]);
    if (a < 0)
      throw Error("internal: move " + pos_.move_text(list.moves[i]) + " has no action in " +
                  game_.id());
    packed[i] = uint64_t(a) << 32 | list.moves[i].raw();
  }
  std::sort(packed, packed + list.size);
  legal_.actions.resize(list.size);
  legal_.moves.resize(list.size);
  for (int i = 0; i < list.size; ++i) {
    legal_.actions[i] = int(packed[i] >> 32);
    legal_.moves[i] = Move::from_raw(uint32_t(packed[i]));
  }
  return legal_;
}

const std::vector<int>& ChessState::legal_actions() const { return legal().actions; }

int ChessState::current_player() const { return is_terminal() ? -1 : int(pos_.chooser()); }

void ChessState::apply(int action) {
  pos_.do_move(legal().move_of(action, [&] { return pos_.fen(); }));
  legal_valid_ = false;
}

void ChessState::undo() {
  check(pos_.plies_played() > 0, "undo: no action to take back");
  pos_.undo_move();
  legal_valid_ = false;
}

bool ChessState::insufficient_material() const {
  return game_.variant().insufficient_material && no_mating_material();
}

bool ChessState::dead_draw() const {
  // Where kings may be captured, or (Ascending the Throne) a king can ascend, a lone minor or king
  // still wins: only a checkmate-only variant is dead here.
  return game_.variant().check_rule && pos_.hook() != Hook::kAscending && no_mating_material();
}

bool ChessState::no_mating_material() const {
  const Variant& v = game_.variant();
  int minors = 0;
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    if (v.pieces[t].royal) continue;
    const int n = pos_.count(kWhite, int(t)) + pos_.count(kBlack, int(t));
    if (n == 0) continue;
    if (v.pieces[t].letter != 'n' && v.pieces[t].letter != 'b') return false;
    minors += n;
  }
  return minors <= 1;
}

std::optional<std::vector<double>> ChessState::solved_returns() const {
  // 007 (OO-1): every move of a turn is the chooser's, so a mate within the turn is a plain OR
  // search. On the turn's second and third moves, the rest of the turn (up to 2 plies, about 1,200
  // positions); from its first move the 3-ply search would cost ~40 network evaluations' time, so
  // there only a mate at once counts (the tree finds the rest one ply down).
  if (!pos_.has_turn_phases() || is_terminal()) return std::nullopt;
  const int plies = pos_.phase() == 0 ? 1 : 3 - pos_.phase();
  if (!chooser_mates_within(plies)) return std::nullopt;
  std::vector<double> r(2, -1.0);
  r[pos_.chooser()] = 1.0;
  return r;
}

bool ChessState::chooser_mates_within(int plies) const {
  Position& p = const_cast<Position&>(pos_);  // every move is taken back before returning
  const Color chooser = p.chooser();
  MoveList moves;
  p.legal_moves(moves);
  for (int i = 0; i < moves.size; ++i) {
    if (plies == 1 && !p.may_give_check(moves.moves[i])) continue;  // no check, no mate
    p.do_move(moves.moves[i]);
    bool wins = false;
    if (plies > 1 || p.in_check()) {
      MoveList replies;
      p.legal_moves(replies);
      const int result = outcome(replies.size, nullptr);
      wins = result == int(chooser) || (result < 0 && plies > 1 && chooser_mates_within(plies - 1));
    }
    p.undo_move();
    if (wins) return true;
  }
  return false;
}

int ChessState::outcome(int legal_moves, std::string* reason) const {
  const auto set = [&](const char* r, int result) {
    if (reason) *reason = r;
    return result;
  };
  const Color mover = pos_.side_to_move();
  if (pos_.hook() == Hook::kAscending && !pos_.has_royal(mover) && !pos_.succession_pending())
    return set("king-captured", int(opponent(mover)));  // AT-5
  if (legal_moves == 0) {
    // The owner of the mated colour loses (OO-5: in 007 too, seat = colour).
    if (pos_.in_check() && game_.variant().check_rule)
      return set("checkmate", int(opponent(mover)));
    return set("stalemate", 2);
  }
  if (pos_.rule50() >= 100) return set("fifty-move", 2);
  if (pos_.repetitions() >= 2) return set("repetition", 2);
  if (insufficient_material()) return set("insufficient-material", 2);
  if (max_plies_ > 0 && pos_.plies_played() >= max_plies_) return set("cap", 2);
  return set("", -1);
}

bool ChessState::is_terminal() const { return legal().result >= 0; }

std::vector<double> ChessState::returns() const { return legal().returns(); }

std::string ChessState::end_reason() const { return legal().reason; }

std::string ChessState::action_to_text(int action) const { return game_.action_text(action); }

int ChessState::text_to_action(const std::string& text) const {
  return legal().action_of(
      text, [&](Move m) { return pos_.move_text(m); }, [&] { return pos_.fen(); });
}

std::string ChessState::to_text() const {
  std::string out = pos_.board_text();
  const char* names[2] = {"White", "Black"};
  out += std::string(names[pos_.side_to_move()]) + " to move";
  if (pos_.has_turn_phases())
    out += std::string(", chosen by ") + names[pos_.chooser()] + " (move " +
           std::to_string(pos_.phase() + 1) + " of 3)";
  if (pos_.succession_pending()) out += ": name a successor (K@square)";
  if (pos_.in_check()) out += " (check)";
  out += "\nFEN: " + pos_.fen() + "\n";
  return out;
}

}  // namespace vzero
