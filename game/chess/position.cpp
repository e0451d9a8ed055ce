// Position of the chess-like variants: setting up, playing and taking back
// moves, keys, repetitions, attacks and its text (square and move names, diagram).
#include "game/chess/position.h"

#include <cstring>

#include "game/fen_text.h"
#include "game/zobrist.h"
#include "util/error.h"

namespace vzero {

const Zobrist& zobrist() {
  static const Zobrist z = [] {
    Zobrist k{};
    uint64_t seed = 0x7A65726F;  // "zero"
    for (auto& row : k.piece)
      for (auto& x : row) x = splitmix64(seed);
    for (auto& x : k.castling) x = splitmix64(seed);
    for (auto& x : k.ep) x = splitmix64(seed);
    k.side = splitmix64(seed);
    for (auto& x : k.phase) x = splitmix64(seed);
    for (auto& a : k.hand)
      for (auto& b : a)
        for (auto& x : b) x = splitmix64(seed);
    for (auto& row : k.extra)
      for (auto& x : row) x = splitmix64(seed);
    k.succession = splitmix64(seed);
    k.castling[0] = 0;
    k.phase[0] = 0;
    for (auto& a : k.hand)
      for (auto& b : a) b[0] = 0;
    return k;
  }();
  return z;
}

Position::Position(const Variant& v) : v_(&v), g_(&Geometry::of(v)) {
  hook_ = v.hook == "ascending"     ? Hook::kAscending
          : v.hook == "007"         ? Hook::k007
          : v.hook == "007-detente" ? Hook::kDetente
                                    : Hook::kChess;
  for (int i = 0; i < 4; ++i) succession_order_[i] = v.type_of_letter("qrbn"[i]);
  royal_ = v.royal_type();
  pawn_ = v.pawn_type();
  bool simple = true;
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    const PieceMoves& m = v.pieces[t].moves;
    if (!m.capture_leaps.empty()) leap_types_.push_back(int(t));
    if (m.capture_slides == kOrthogonal || m.capture_slides == (kOrthogonal | kDiagonal))
      orth_types_ |= uint16_t(1u << t);
    if (m.capture_slides == kDiagonal || m.capture_slides == (kOrthogonal | kDiagonal))
      diag_types_ |= uint16_t(1u << t);
    const uint8_t rest = m.capture_slides & ~((orth_types_ >> t & 1 ? kOrthogonal : 0) |
                                              (diag_types_ >> t & 1 ? kDiagonal : 0));
    if (rest) odd_slide_types_.push_back(int(t)), simple = false;
    if (m.hop_slides) hop_types_.push_back(int(t)), simple = false;
    // Pins along a line assume quiet and capture slides agree.
    if (m.quiet_slides != m.capture_slides) simple = false;
  }
  for (char c : v.promotion_pieces) promotion_types_ |= uint16_t(1u << v.type_of_letter(c));
  fast_legality_ = simple && v.check_rule && royal_ >= 0;
  st_.reserve(1024);
  // Castling squares come from the start position: the king and the
  // outermost rooks of the castling rank.
  clear();
  set_fen(v.start_fen);
  for (int c = 0; c < 2; ++c) {
    for (int t = 0; t < kMaxPieceTypes; ++t) initial_count_[c][t] = count_[c][t];
  }
  std::memset(castling_mask_, 0, sizeof castling_mask_);
  if (v.castling) {
    const int rook = v.type_of_letter('r');
    check(royal_ >= 0 && rook >= 0, v.id + ": castling needs a king and a rook");
    for (int c = 0; c < 2; ++c) {
      const Color color = Color(c);
      const Bitboard rank = g_->relative_rank_bb(color, v.castling_rank);
      const Bitboard kings = pieces(color, royal_) & rank, rooks = pieces(color, rook) & rank;
      check(kings && !more_than_one(kings) && rooks,
            v.id + ": the start position does not allow castling");
      const int k = lsb(kings);
      castle_king_from_[c] = k;
      const int rank_index = g_->rank_of(k);
      const int sides[2] = {msb(rooks), lsb(rooks)};  // kingside = towards file j/h
      const CastlingRule* rules[2] = {&v.kingside, &v.queenside};
      for (int side = 0; side < 2; ++side) {
        const int right = 2 * c + side;
        castle_rook_from_[right] = sides[side];
        castle_king_to_[right] = g_->square(rules[side]->king_to_file, rank_index);
        castle_rook_to_[right] = g_->square(rules[side]->rook_to_file, rank_index);
        castling_mask_[sides[side]] |= uint8_t(1u << right);
      }
      castling_mask_[k] |= uint8_t(3u << (2 * c));
    }
  }
  set_fen(v.start_fen);  // again, now that the castling squares are known
}

void Position::clear() {
  std::memset(board_, kNoPiece, sizeof board_);
  std::memset(by_type_, 0, sizeof by_type_);
  std::memset(by_color_, 0, sizeof by_color_);
  std::memset(count_, 0, sizeof count_);
  occupied_ = 0;
  stm_ = kWhite;
  game_ply_ = 0;
  st_.assign(1, StateInfo{});
}

void Position::put_piece(Piece p, int s) {
  board_[s] = p;
  const Bitboard b = square_bb(s);
  by_type_[type_of(p)] |= b;
  by_color_[color_of(p)] |= b;
  occupied_ |= b;
  if (color_of(p) < 2) ++count_[color_of(p)][type_of(p)];
}

void Position::remove_piece(int s) {
  const Piece p = board_[s];
  const Bitboard b = square_bb(s);
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  occupied_ ^= b;
  board_[s] = kNoPiece;
  if (color_of(p) < 2) --count_[color_of(p)][type_of(p)];
}

void Position::move_piece(int from, int to) {
  const Piece p = board_[from];
  const Bitboard b = square_bb(from) | square_bb(to);
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  occupied_ ^= b;
  board_[from] = kNoPiece;
  board_[to] = p;
}

uint64_t Position::compute_key() const {
  const Zobrist& z = zobrist();
  uint64_t k = 0;
  for (int s = 0; s < g_->squares; ++s)
    if (board_[s] != kNoPiece) k ^= z.piece[board_[s]][s];
  const StateInfo& st = st_.back();
  k ^= z.castling[st.castling];
  if (st.ep >= 0) k ^= z.ep[st.ep];
  k ^= z.phase[st.phase];
  if (st.pending) k ^= z.succession;
  for (int i = 0; i < 2; ++i) {
    if (st.moved[i] >= 0) k ^= z.extra[0][st.moved[i]];
    if (st.protect[i] >= 0) k ^= z.extra[1][st.protect[i]];
  }
  if (stm_ == kBlack) k ^= z.side;
  return k;
}

void Position::do_move(Move m) {
  const Zobrist& z = zobrist();
  st_.push_back(st_.back());
  StateInfo& st = st_.back();
  st.move = m;
  st.captured = kNoPiece;
  st.ascended = -1;
  if (m.kind() ==
      MoveKind::kSuccession) {  // the victim's choice, not a move: no clock runs; he moves next
    const int to = m.to();
    st.successor = board_[to];
    st.pending = 0;
    const Piece king = make_piece(stm_, royal_);
    remove_piece(to);
    put_piece(king, to);
    st.key ^= z.piece[st.successor][to] ^ z.piece[king][to] ^ z.succession;
    return;
  }
  ++st.rule50;
  ++game_ply_;
  uint64_t k = st.key ^ z.side;
  if (st.ep >= 0) {
    k ^= z.ep[st.ep];
    st.ep = -1;
  }
  const Color us = stm_, them = opponent(us);
  const int from = m.from(), to = m.to();
  int capsq = -1, rook_to = -1;
  switch (m.kind()) {
    case MoveKind::kCastling: {
      const int right = 2 * us + (to == castle_king_to_[2 * us] ? 0 : 1);
      const int rfrom = castle_rook_from_[right], rto = castle_rook_to_[right];
      rook_to = rto;
      const Piece king = board_[from], rook = board_[rfrom];
      remove_piece(from);
      remove_piece(rfrom);
      put_piece(king, to);
      put_piece(rook, rto);
      k ^= z.piece[king][from] ^ z.piece[king][to] ^ z.piece[rook][rfrom] ^ z.piece[rook][rto];
      break;
    }
    default: {
      const Piece p = board_[from];
      capsq = m.kind() == MoveKind::kEnPassant ? to - g_->push[us] : to;
      const Piece captured = board_[capsq];
      if (captured != kNoPiece) {
        remove_piece(capsq);
        k ^= z.piece[captured][capsq];
        st.captured = captured;
        st.rule50 = 0;
      }
      move_piece(from, to);
      k ^= z.piece[p][from] ^ z.piece[p][to];
      if (type_of(p) == pawn_) {
        st.rule50 = 0;
        if (to - from == 2 * g_->push[us] && v_->en_passant) {
          const int ep = from + g_->push[us];
          if (g_->capture_leaps_to[them][pawn_][ep] & pieces(them, pawn_)) {
            st.ep = int8_t(ep);
            k ^= z.ep[ep];
          }
        }
        if (m.kind() == MoveKind::kPromotion) {
          const Piece promoted = make_piece(us, m.type());
          remove_piece(to);
          put_piece(promoted, to);
          k ^= z.piece[p][to] ^ z.piece[promoted][to];
        }
      }
      break;
    }
  }
  if (st.castling && (castling_mask_[from] | castling_mask_[to])) {
    k ^= z.castling[st.castling];
    st.castling &= uint8_t(~(castling_mask_[from] | castling_mask_[to]));
    k ^= z.castling[st.castling];
  }
  if (hook_ == Hook::kAscending && st.captured != kNoPiece && type_of(st.captured) == royal_)
    ascend(st, them, k);
  if (hook_ == Hook::kDetente) update_detente(st, m, capsq, rook_to, k);
  if (has_turn_phases()) {
    k ^= z.phase[st.phase];
    st.phase = uint8_t((st.phase + 1) % 3);
    k ^= z.phase[st.phase];
  }
  stm_ = them;
  st.key = k;
}

Bitboard Position::successors(Color c) const {
  for (int t : succession_order_)
    if (t >= 0 && pieces(c, t)) return pieces(c, t);
  return 0;
}

void Position::ascend(StateInfo& st, Color victim, uint64_t& key) {
  const Zobrist& z = zobrist();
  key ^= z.castling[st.castling];
  st.castling &= uint8_t(~(3u << (2 * victim)));  // AT-2a
  key ^= z.castling[st.castling];
  const Bitboard candidates = successors(victim);
  if (!candidates) return;          // AT-5: the victim has lost
  if (more_than_one(candidates)) {  // AT-3: the victim chooses, as an action
    st.pending = 1;
    key ^= z.succession;
    return;
  }
  const int s = lsb(candidates);  // AT-2: a lone successor ascends at once
  const Piece king = make_piece(victim, royal_);
  st.ascended = int8_t(s);
  st.successor = board_[s];
  remove_piece(s);
  put_piece(king, s);
  key ^= z.piece[st.successor][s] ^ z.piece[king][s];
}

void Position::update_detente(StateInfo& st, Move m, int capsq, int rook_to, uint64_t& key) const {
  const Zobrist& z = zobrist();
  for (int i = 0; i < 2; ++i) {
    if (st.moved[i] >= 0) key ^= z.extra[0][st.moved[i]];
    if (st.protect[i] >= 0) key ^= z.extra[1][st.protect[i]];
  }
  if (st.phase == 0) {  // move 1: remember the chooser's piece (OD-2)
    st.moved[0] = int8_t(m.to());
    st.moved[1] = int8_t(rook_to);
    st.protect[0] = st.protect[1] = -1;
  } else if (st.phase == 1) {  // move 2: protect the opponent's piece (OD-1)
    st.protect[0] = int8_t(m.to());
    st.protect[1] = int8_t(rook_to);
    for (int8_t& s : st.moved)
      if (s == capsq) s = -1;
  } else {
    st.moved[0] = st.moved[1] = st.protect[0] = st.protect[1] = -1;
  }
  for (int i = 0; i < 2; ++i) {
    if (st.moved[i] >= 0) key ^= z.extra[0][st.moved[i]];
    if (st.protect[i] >= 0) key ^= z.extra[1][st.protect[i]];
  }
}

void Position::undo_move() {
  const StateInfo& st = st_.back();
  const Move m = st.move;
  if (m.kind() == MoveKind::kSuccession) {
    remove_piece(m.to());
    put_piece(st.successor, m.to());
    st_.pop_back();
    return;
  }
  if (st.ascended >= 0) {
    remove_piece(st.ascended);
    put_piece(st.successor, st.ascended);
  }
  stm_ = opponent(stm_);
  const Color us = stm_;
  const int from = m.from(), to = m.to();
  switch (m.kind()) {
    case MoveKind::kCastling: {
      const int right = 2 * us + (to == castle_king_to_[2 * us] ? 0 : 1);
      const int rfrom = castle_rook_from_[right], rto = castle_rook_to_[right];
      const Piece king = board_[to], rook = board_[rto];
      remove_piece(to);
      remove_piece(rto);
      put_piece(king, from);
      put_piece(rook, rfrom);
      break;
    }
    default: {
      if (m.kind() == MoveKind::kPromotion) {
        remove_piece(to);
        put_piece(make_piece(us, pawn_), to);
      }
      move_piece(to, from);
      if (st.captured != kNoPiece) {
        const int capsq = m.kind() == MoveKind::kEnPassant ? to - g_->push[us] : to;
        put_piece(st.captured, capsq);
      }
      break;
    }
  }
  st_.pop_back();
  --game_ply_;
}

Bitboard Position::attackers_to(int s, Bitboard occupied, Color by) const {
  const Geometry& g = *g_;
  const Bitboard theirs = by_color_[by];
  Bitboard orth = 0, diag = 0;
  for (uint16_t t = orth_types_; t; t &= t - 1) orth |= by_type_[__builtin_ctz(t)];
  for (uint16_t t = diag_types_; t; t &= t - 1) diag |= by_type_[__builtin_ctz(t)];
  orth &= theirs;
  diag &= theirs;
  Bitboard a = 0;
  if (orth) a |= g.rook_attacks(s, occupied) & orth;
  if (diag) a |= g.bishop_attacks(s, occupied) & diag;
  for (int t : leap_types_) a |= g.capture_leaps_to[by][t][s] & by_type_[t] & theirs;
  for (int t : odd_slide_types_) {
    const Bitboard mine = by_type_[t] & theirs;
    if (!mine) continue;
    for (uint8_t d = g.capture_slides[by][t]; d; d &= d - 1)
      a |= g.slide_one((__builtin_ctz(d) + 4) % 8, s, occupied) & mine;
  }
  for (int t : hop_types_) {
    const Bitboard mine = by_type_[t] & theirs;
    if (!mine) continue;
    for (uint8_t d = g.hop_slides[by][t]; d; d &= d - 1)
      a |= g.hop(uint8_t(1u << ((__builtin_ctz(d) + 4) % 8)), s, occupied) & mine;
  }
  return a & occupied;
}

bool Position::may_give_check(Move m) {
  if (m.kind() != MoveKind::kNormal || royal_ < 0) return true;
  const Color us = stm_;
  const Bitboard kings = pieces(opponent(us), royal_);
  if (!kings) return false;
  const int from = m.from(), to = m.to();
  const Piece captured = board_[to];
  if (captured != kNoPiece) remove_piece(to);
  move_piece(from, to);
  const bool check = attackers_to(lsb(kings), occupied_, us) != 0;
  move_piece(to, from);
  if (captured != kNoPiece) put_piece(captured, to);
  return check;
}

bool Position::in_check() const {
  if (royal_ < 0 || !pieces(stm_, royal_)) return false;
  return attackers_to(lsb(pieces(stm_, royal_)), occupied_, opponent(stm_)) != 0;
}

int Position::repetitions() const {
  const int n = int(st_.size()) - 1;
  const int window = std::min<int>(st_.back().rule50, n);
  int reps = 0;
  for (int i = n - 4; i >= n - window; i -= 2)
    if (st_[i].key == st_[n].key) ++reps;
  return reps;
}

std::string Position::square_name(int s) const { return vzero::square_name(*g_, s); }

int Position::parse_square(const std::string& text) const { return vzero::parse_square(*g_, text); }

std::string Position::move_text(Move m) const {
  const std::string to = square_name(m.to());
  switch (m.kind()) {
    case MoveKind::kDrop:
    case MoveKind::kSuccession: {
      const char letter =
          char(std::toupper(static_cast<unsigned char>(v_->pieces[m.type()].letter)));
      return std::string(1, letter) + "@" + to;
    }
    case MoveKind::kPromotion:
      return square_name(m.from()) + to + v_->pieces[m.type()].letter;
    default:
      return square_name(m.from()) + to;
  }
}

std::string Position::board_text() const {
  std::string out;
  for (int r = g_->ranks - 1; r >= 0; --r) {
    std::string num = std::to_string(r + 1);
    out += std::string(3 - num.size(), ' ') + num + " ";
    for (int f = 0; f < g_->files; ++f) {
      const Piece p = board_[g_->square(f, r)];
      char c = '.';
      if (p != kNoPiece) {
        c = v_->pieces[type_of(p)].letter;
        if (color_of(p) != kBlack) c = char(std::toupper(static_cast<unsigned char>(c)));
      }
      out += ' ';
      out += c;
    }
    out += '\n';
  }
  out += "    ";
  for (int f = 0; f < g_->files; ++f) out += std::string(" ") + char('a' + f);
  out += '\n';
  return out;
}

}  // namespace vzero
