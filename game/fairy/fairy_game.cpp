// FairyGame and FairyState: the "fairy" rules (fairy_rules.h) behind the Game
// interface, with the action space, history, repetition and the clocks.
#include "game/fairy/fairy_game.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "util/error.h"
#include "game/fairy/fairy_rules.h"

namespace vzero {
namespace {

// The fixed action space: every (from, to) pair a piece type of the variant
// reaches on the empty board (both colours; pawn and joker double steps,
// castling), then each promotion choice of a pawn move into its zone and in
// place (WC-10) and the "+" of a move that starts or ends in the zone of a
// type that has a promoted form (SH-3, SH-7), then drops (type x square) of
// every type that can be in hand.
class FairyActions {
 public:
  explicit FairyActions(const FairyRules& r) {
    const Variant& v = r.variant();
    const Geometry& g = r.geometry();
    n_ = g.squares;
    std::vector<Bitboard> reach(n_, 0);
    std::vector<Bitboard> promo_reach(n_, 0), plus_reach(n_, 0);
    const int pawn = r.pawn();
    for (size_t t = 0; t < v.pieces.size(); ++t)
      for (int c = 0; c < 2; ++c)
        for (int s = 0; s < n_; ++s) {
          Bitboard b = g.quiet_leaps[c][t][s] | g.capture_leaps[c][t][s] |
                       g.slide(g.quiet_slides[c][t] | g.capture_slides[c][t] | g.hop_slides[c][t], s, 0);
          if (v.pieces[t].promotes_to >= 0) {
            const Bitboard zone = r.promo_zone(Color(c));
            plus_reach[s] |= test(zone, s) ? b : b & zone;
          }
          if (int(t) == pawn) {
            for (int rank : {v.double_step_rank, v.joker_pawn_double_step_rank}) {
              const int two = s + 2 * g.push[c];
              if (rank && g.relative_rank(Color(c), s) == rank && two >= 0 && two < n_) b |= square_bb(two);
            }
            Bitboard zone = 0;
            for (int rank = v.promotion_first_rank; rank <= g.ranks; ++rank) zone |= g.relative_rank_bb(Color(c), rank);
            promo_reach[s] |= b & zone;
            if (v.pawns_wait && (zone & square_bb(s)) && g.relative_rank(Color(c), s) == v.promotion_first_rank)
              promo_reach[s] |= square_bb(s);
          }
          reach[s] |= b;
        }
    if (v.castling)
      for (int c = 0; c < 2; ++c)
        for (int right = 2 * c; right < 2 * c + 2; ++right)
          reach[r.castle_king_from(Color(c))] |= square_bb(r.castle_king_to(right));
    std::vector<int> promo_types;
    for (char c : v.promotion_pieces) promo_types.push_back(v.type_of_letter(c));
    for (int from = 0; from < n_; ++from) {
      for (int to = 0; to < n_; ++to) {
        if (test(reach[from], to)) add(key(from, to, 0, 0), r.square_name(from) + r.square_name(to));
        if (test(plus_reach[from], to))
          add(key(from, to, 3, 0), r.square_name(from) + r.square_name(to) + "+");
        if (!test(promo_reach[from], to)) continue;
        for (int t : promo_types)
          add(key(from, to, 1, t), r.square_name(from) + r.square_name(to) + v.pieces[t].letter);
      }
    }
    for (size_t t = 0; t < v.pieces.size(); ++t)
      if (v.pieces[t].promoted) plus_types_ |= uint16_t(1u << t);
    // Types that can be in a hand: those of the start hands and those captured into one.
    for (size_t t = 0; t < v.pieces.size(); ++t) {
      if (!r.can_be_in_hand(int(t))) continue;
      const std::string letter(1, char(std::toupper(static_cast<unsigned char>(v.pieces[t].letter))));
      for (int s = 0; s < n_; ++s) add(key(s, s, 2, int(t)), letter + "@" + r.square_name(s));
    }
  }

  int size() const { return int(text_.size()); }
  const std::string& text(int a) const { return text_[a]; }
  // The action of a move; -1 when it has none (a bug in the variant data).
  int index(Move m) const {
    const bool plus = m.kind() == MoveKind::kPromotion && (plus_types_ >> m.type() & 1);
    const int cls = plus                               ? 3
                    : m.kind() == MoveKind::kPromotion ? 1
                    : m.kind() == MoveKind::kDrop      ? 2
                                                       : 0;
    const auto it = index_.find(key(m.from(), m.to(), cls, cls == 1 || cls == 2 ? m.type() : 0));
    return it == index_.end() ? -1 : it->second;
  }

 private:
  static uint32_t key(int from, int to, int cls, int type) {
    return uint32_t(from) | uint32_t(to) << 7 | uint32_t(cls) << 14 | uint32_t(type) << 16;
  }
  void add(uint32_t k, const std::string& text) {
    index_.emplace(k, int(text_.size()));
    text_.push_back(text);
  }
  int n_ = 0;
  uint16_t plus_types_ = 0;  // promoted types: their promotions share one "+" action per (from, to)
  std::vector<std::string> text_;
  std::unordered_map<uint32_t, int> index_;
};

// The network input of a fairy variant (docs/encoding.md): pieces by owner
// (mine, theirs, shared; promoted types their own), waiting pawns and en
// passant as planes; hands (counts), pools, start pieces, joker powers,
// streak, rights and clocks as scalars. The shogi family has no waiting
// pawns, en passant, start pieces, jokers or fifty-move rule; it counts
// earlier occurrences up to its n-fold repetition.
EncodingSpec fairy_encoding(const FairyRules& r) {
  const Variant& v = r.variant();
  const bool shogi = v.has_promoted_types();
  EncodingSpec e;
  e.height = v.ranks;
  e.width = v.files;
  for (const char* side : {"mine", "theirs"})
    for (const PieceType& p : v.pieces)
      if (!p.shared) e.add_plane(std::string(side) + " " + p.name);
  for (const PieceType& p : v.pieces)
    if (p.shared) e.add_plane("shared " + p.name);
  if (!shogi) {
    e.add_plane("waiting pawns");
    e.add_plane("en passant square");
  }
  e.add_scalar("white to act");
  if (v.castling) add_castling_scalars(e);
  for (const char* side : {"my", "their"})
    for (size_t t = 0; t < v.pieces.size(); ++t)
      if (r.can_be_in_hand(int(t))) e.add_scalar(std::string(side) + " hand: " + v.pieces[t].name);
  if (v.promote_from_pool)
    for (const char* side : {"my", "their"})
      for (const PieceType& p : v.pieces) e.add_scalar(std::string(side) + " pool: " + p.name);
  if (!shogi) {
    e.add_scalar("my start piece in hand");
    e.add_scalar("their start piece in hand");
  }
  if (r.joker() >= 0)
    for (const char* side : {"my", "their"})
      for (const PieceType& p : v.pieces) e.add_scalar(std::string(side) + " joker moves as " + p.name);
  if (r.shared() >= 0) {
    e.add_scalar("my last action moved the shared piece");
    e.add_scalar("their last action moved the shared piece");
  }
  if (shogi) {
    e.add_scalar("earlier occurrences / " + std::to_string(v.repetition - 1));
    e.add_scalar("plies / length cap");
  } else {
    e.add_scalar("joker streak / 2");
    add_clock_scalars(e);
  }
  return e;
}

class FairyGame : public Game {
 public:
  explicit FairyGame(const Variant& v)
      : variant_(v), rules_(v), actions_(rules_), encoding_(fairy_encoding(rules_)) {
    for (size_t t = 0; t < v.pieces.size(); ++t) values_.push_back(piece_value(v, int(t)));
  }
  const EncodingSpec& encoding() const override { return encoding_; }
  const Variant& variant() const override { return variant_; }
  int num_players() const override { return 2; }
  int num_actions() const override { return actions_.size(); }
  const std::string& action_text(int action) const override { return actions_.text(action); }
  std::unique_ptr<GameState> new_state(const std::string& fen) const override;
  const FairyRules& rules() const { return rules_; }
  const FairyActions& actions() const { return actions_; }
  double value_of(int type) const { return values_[size_t(type)]; }  // piece_value, kept

 private:
  const Variant& variant_;
  FairyRules rules_;
  FairyActions actions_;
  EncodingSpec encoding_;
  std::vector<double> values_;
};

class FairyState : public GameState {
 public:
  FairyState(const FairyGame& game, const std::string& fen)
      : game_(game), max_plies_(game.variant().max_plies) {
    const FairyRules& r = game.rules();
    history_.push_back(fen.empty() ? r.start() : r.parse_fen(fen));
    push_key();
  }
  const Game& game() const override { return game_; }
  int current_player() const override { return is_terminal() ? -1 : int(pos().stm); }
  const std::vector<int>& legal_actions() const override { return legal().actions; }
  void apply(int action) override {
    const Legal& l = legal();
    const auto it = std::lower_bound(l.actions.begin(), l.actions.end(), action);
    if (it == l.actions.end() || *it != action)
      throw Error("illegal action " + std::to_string(action) + " in " + fen());
    const FairyRules& r = game_.rules();
    history_.push_back(r.play(pos(), l.moves[it - l.actions.begin()]));
    push_key();
    valid_ = false;
  }
  void undo() override {
    check(history_.size() > 1, "undo: no action to take back");
    history_.pop_back();
    keys_.pop_back();
    checks_.pop_back();
    valid_ = false;
  }
  bool is_terminal() const override { return legal().result >= 0; }
  std::vector<double> returns() const override {
    std::vector<double> out(2, 0.0);
    const int o = legal().result;
    if (o == 0 || o == 1) out[o] = 1.0, out[1 - o] = -1.0;
    return out;
  }
  std::string end_reason() const override { return legal().reason; }
  uint64_t hash() const override { return keys_.back(); }
  std::string fen() const override { return game_.rules().fen(pos()); }
  std::string action_to_text(int action) const override { return game_.action_text(action); }
  int text_to_action(const std::string& text) const override {
    if (!is_action_syntax(text)) throw Error("malformed action '" + text + "'");
    const Legal& l = legal();
    for (size_t i = 0; i < l.moves.size(); ++i)
      if (game_.rules().move_text(l.moves[i]) == text) return l.actions[i];
    throw Error("illegal action '" + text + "' in position " + fen());
  }
  std::unique_ptr<GameState> clone() const override { return std::make_unique<FairyState>(*this); }
  int plies() const override { return int(history_.size()) - 1; }
  uint64_t perft(int depth) override { return game_.rules().perft(pos(), depth); }
  std::string to_text() const override {
    const FairyRules& r = game_.rules();
    std::string out = r.board_text(pos());
    out += std::string(pos().stm == kWhite ? "White" : "Black") + " to move";
    if (r.in_check(pos())) out += " (check)";
    return out + "\nFEN: " + fen() + "\n";
  }
  void set_max_plies(int plies) override { max_plies_ = plies; }

  // Material, pieces in hand included: tanh of the balance in pawns / 5.
  std::vector<double> heuristic_values() const override {
    const FairyPos& p = pos();
    double balance = 0.0;  // first player minus second
    for (Bitboard b = p.by_color[kWhite] | p.by_color[kBlack]; b;) {
      const Piece pc = p.board[pop_lsb(b)];
      balance += (color_of(pc) == kWhite ? 1 : -1) * game_.value_of(type_of(pc));
    }
    for (size_t t = 0; t < game_.variant().pieces.size(); ++t)
      balance += (p.hand[kWhite][t] - p.hand[kBlack][t]) * game_.value_of(int(t));
    const double w = std::tanh(balance / 5.0);
    return {w, -w};
  }

  // Fills fairy_encoding's planes and scalars, from the view of the side to act.
  void encode(uint8_t* planes, float* scalars) const override {
    const FairyRules& r = game_.rules();
    const Variant& v = r.variant();
    const EncodingSpec& e = game_.encoding();
    const FairyPos& p = pos();
    const int area = e.plane_size(), types = int(v.pieces.size());
    std::fill(planes, planes + size_t(e.planes) * area, uint8_t(0));
    const Color me = p.stm, them = opponent(me);
    // Plane of each (owner, type): mine, theirs, then shared.
    std::vector<int> mine(types, -1), theirs(types, -1), shared(types, -1);
    int plane = 0;
    for (int t = 0; t < types; ++t)
      if (!v.pieces[t].shared) mine[t] = plane++;
    for (int t = 0; t < types; ++t)
      if (!v.pieces[t].shared) theirs[t] = plane++;
    for (int t = 0; t < types; ++t)
      if (v.pieces[t].shared) shared[t] = plane++;
    const bool shogi = v.has_promoted_types();  // no waiting pawns or en passant (fairy_encoding)
    const int waiting = shogi ? -1 : plane++, ep = shogi ? -1 : plane++;
    for (int s = 0; s < area; ++s) {
      const Piece pc = p.board[s];
      if (pc == kNoPiece) continue;
      const int t = type_of(pc);
      const Color c = color_of(pc);
      const int at = c == kNeutral ? shared[t] : c == me ? mine[t] : theirs[t];
      if (at >= 0) planes[at * area + s] = 1;
      if (waiting >= 0 && r.is_waiting(p, s)) planes[waiting * area + s] = 1;
    }
    if (ep >= 0 && p.ep >= 0) planes[ep * area + p.ep] = 1;
    int k = 0;
    scalars[k++] = me == kWhite;
    if (v.castling) k += write_castling_scalars(p.castling, me == kWhite, scalars + k);
    for (Color c : {me, them})
      for (int t = 0; t < types; ++t)
        if (r.can_be_in_hand(t)) scalars[k++] = p.hand[c][t];
    if (v.promote_from_pool)
      for (Color c : {me, them})
        for (int t = 0; t < types; ++t) scalars[k++] = p.pool[c][t];
    if (!shogi) {
      scalars[k++] = p.start_piece[me];
      scalars[k++] = p.start_piece[them];
    }
    if (r.joker() >= 0)
      for (Color c : {me, them}) {
        const int power = r.joker_power(p, c);
        for (int t = 0; t < types; ++t) scalars[k++] = power == t;
      }
    if (r.shared() >= 0) {
      scalars[k++] = p.used[me] == r.shared();
      scalars[k++] = p.used[them] == r.shared();
    }
    if (shogi) {
      scalars[k++] = float(repetitions(nullptr)) / float(v.repetition - 1);
      scalars[k++] = max_plies_ > 0 ? std::min(1.0f, float(plies()) / float(max_plies_)) : 0.0f;
    } else {
      scalars[k++] = float(p.joker_streak) / 2.0f;
      write_clock_scalars(repetitions(nullptr), p.rule50, plies(), max_plies_, scalars + k);
    }
  }

 private:
  struct Legal {
    std::vector<int> actions;  // sorted
    std::vector<Move> moves;   // moves[i] has action actions[i]
    int result = -1;           // winner 0/1, 2 for a draw, -1 while playing
    std::string reason;
  };
  const FairyPos& pos() const { return history_.back(); }

  // Records the key of the newest position and whether its side to move is in check.
  void push_key() {
    const FairyRules& r = game_.rules();
    keys_.push_back(r.hash(pos()));
    checks_.push_back(game_.variant().perpetual_check_loses && r.in_check(pos()));
  }

  // Earlier positions equal to this one: within the fifty-move clock's window,
  // or the whole game without that rule; *first: the earliest (if any).
  int repetitions(int* first) const {
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

  // SH-12: the seat that gave check with every one of its moves since position
  // `first` loses (the last mover is judged first); -1 when neither did.
  int perpetual_checker(int first) const {
    const int n = int(keys_.size()) - 1;
    bool last = true, other = true;
    for (int j = first + 1; j <= n; ++j)
      ((n - j) % 2 == 0 ? last : other) &= checks_[size_t(j)] != 0;
    if (last) return int(opponent(pos().stm));
    return other ? int(pos().stm) : -1;
  }

  const Legal& legal() const {
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
    std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [a, m] : pairs) {
      legal_.actions.push_back(a);
      legal_.moves.push_back(m);
    }
    return legal_;
  }

  const FairyGame& game_;
  std::vector<FairyPos> history_;
  std::vector<uint64_t> keys_;
  std::vector<uint8_t> checks_;  // per position: its side to move is in check (kept for SH-12 only)
  int max_plies_;
  mutable Legal legal_;
  mutable bool valid_ = false;
};

std::unique_ptr<GameState> FairyGame::new_state(const std::string& fen) const {
  return std::make_unique<FairyState>(*this, fen);
}

}  // namespace

std::unique_ptr<Game> make_fairy_game(const Variant& v) { return std::make_unique<FairyGame>(v); }

}  // namespace vzero
