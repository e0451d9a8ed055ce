// Legal move generation and perft. Variants whose pieces only leap and slide
// symmetrically, with a royal king and the check rule, use pins and checkers
// (generate_fast); the others generate pseudo-legal moves and test each.
#include "game/chess/position.h"

namespace vzero {

Bitboard Position::piece_moves(Color us, int type, int from, Bitboard empty,
                               Bitboard enemies) const {
  const Geometry& g = *g_;
  Bitboard m =
      (g.quiet_leaps[us][type][from] & empty) | (g.capture_leaps[us][type][from] & enemies);
  const uint8_t qs = g.quiet_slides[us][type], cs = g.capture_slides[us][type];
  if (qs == cs) {
    if (qs) {
      Bitboard s = 0;
      if ((qs & kOrthogonal) == kOrthogonal) s |= g.rook_attacks(from, occupied_);
      if ((qs & kDiagonal) == kDiagonal) s |= g.bishop_attacks(from, occupied_);
      const uint8_t rest = qs & ~(((qs & kOrthogonal) == kOrthogonal ? kOrthogonal : 0) |
                                  ((qs & kDiagonal) == kDiagonal ? kDiagonal : 0));
      if (rest) s |= g.slide(rest, from, occupied_);
      m |= s & (empty | enemies);
    }
  } else {
    if (qs) m |= g.slide(qs, from, occupied_) & empty;
    if (cs) m |= g.slide(cs, from, occupied_) & enemies;
  }
  if (const uint8_t hs = g.hop_slides[us][type])
    m |= g.hop(hs, from, occupied_) & (empty | enemies);
  if (type == pawn_ && v_->double_step_rank && g.relative_rank(us, from) == v_->double_step_rank) {
    const int one = from + g.push[us];
    if (test(empty, one) && test(empty, one + g.push[us])) m |= square_bb(one + g.push[us]);
  }
  return m;
}

void Position::add_pawn_moves(MoveList& out, int from, Bitboard targets) const {
  const Color us = stm_;
  while (targets) {
    const int to = pop_lsb(targets);
    const int rank = g_->relative_rank(us, to);
    if (rank < v_->promotion_first_rank) {
      out.push(Move::make(from, to));
      continue;
    }
    for (uint16_t t = promotion_types_; t; t &= t - 1) {
      const int type = __builtin_ctz(t);
      if (!v_->promote_to_lost_only || count_[us][type] < initial_count_[us][type])
        out.push(Move::make(from, to, MoveKind::kPromotion, type));
    }
    if (rank < v_->promotion_mandatory_rank) out.push(Move::make(from, to));
  }
}

Bitboard Position::pinned_pieces(Color us, int ksq) const {
  const Color them = opponent(us);
  Bitboard orth = 0, diag = 0;
  for (uint16_t t = orth_types_; t; t &= t - 1) orth |= by_type_[__builtin_ctz(t)];
  for (uint16_t t = diag_types_; t; t &= t - 1) diag |= by_type_[__builtin_ctz(t)];
  const Geometry& g = *g_;
  Bitboard snipers =
      ((g.rook_attacks(ksq, 0) & orth) | (g.bishop_attacks(ksq, 0) & diag)) & by_color_[them];
  Bitboard pinned = 0;
  while (snipers) {
    const Bitboard b = g.between(ksq, pop_lsb(snipers)) & occupied_;
    if (b && !more_than_one(b)) pinned |= b & by_color_[us];
  }
  return pinned;
}

bool Position::castling_allowed(int right) const {
  const Color us = Color(right / 2), them = opponent(us);
  const int kfrom = castle_king_from_[us], kto = castle_king_to_[right];
  const int rfrom = castle_rook_from_[right], rto = castle_rook_to_[right];
  const Geometry& g = *g_;
  const Bitboard path =
      g.between(kfrom, kto) | square_bb(kto) | g.between(rfrom, rto) | square_bb(rto);
  if (path & occupied_ & ~(square_bb(kfrom) | square_bb(rfrom))) return false;
  Bitboard king_path = g.between(kfrom, kto) | square_bb(kto) | square_bb(kfrom);
  while (king_path)
    if (attackers_to(pop_lsb(king_path), occupied_, them)) return false;
  return true;
}

void Position::add_castling(MoveList& out) const {
  const uint8_t rights = st_.back().castling >> (2 * stm_) & 3;
  for (int side = 0; side < 2; ++side)
    if (rights & (1 << side) && castling_allowed(2 * stm_ + side))
      out.push(Move::make(castle_king_from_[stm_], castle_king_to_[2 * stm_ + side],
                          MoveKind::kCastling));
}

void Position::add_piece_moves(MoveList& out, int skip_type, Bitboard target, Bitboard pinned,
                               int ksq) const {
  const Color us = stm_;
  const Bitboard empty = ~occupied_ & g_->board, enemies = by_color_[opponent(us)];
  for (size_t t = 0; t < v_->pieces.size(); ++t) {
    if (int(t) == skip_type) continue;
    Bitboard from_set = pieces(us, int(t));
    while (from_set) {
      const int from = pop_lsb(from_set);
      Bitboard targets = piece_moves(us, int(t), from, empty, enemies) & target;
      if (test(pinned, from)) targets &= g_->line(ksq, from);
      if (int(t) == pawn_) {
        add_pawn_moves(out, from, targets);
      } else {
        while (targets) out.push(Move::make(from, pop_lsb(targets)));
      }
    }
  }
}

void Position::generate_pseudo(MoveList& out) const {
  const Color us = stm_;
  add_piece_moves(out, -1, ~Bitboard(0), 0, -1);
  const int8_t ep = st_.back().ep;
  if (ep >= 0) {
    Bitboard capturers = g_->capture_leaps_to[us][pawn_][ep] & pieces(us, pawn_);
    while (capturers) out.push(Move::make(pop_lsb(capturers), ep, MoveKind::kEnPassant));
  }
  if (st_.back().castling) add_castling(out);
}

void Position::generate_fast(MoveList& out) const {
  const Color us = stm_, them = opponent(us);
  const Geometry& g = *g_;
  const int ksq = lsb(pieces(us, royal_));
  const Bitboard checkers = attackers_to(ksq, occupied_, them);
  const Bitboard empty = ~occupied_ & g.board, enemies = by_color_[them];
  if (!more_than_one(checkers)) {
    const Bitboard target = checkers ? g.between(ksq, lsb(checkers)) | checkers : g.board;
    add_piece_moves(out, royal_, target, pinned_pieces(us, ksq), ksq);
    const int8_t ep = st_.back().ep;
    if (ep >= 0) {
      const int capsq = ep - g.push[us];
      Bitboard capturers = g.capture_leaps_to[us][pawn_][ep] & pieces(us, pawn_);
      while (capturers) {
        const int from = pop_lsb(capturers);
        const Bitboard occ = (occupied_ ^ square_bb(from) ^ square_bb(capsq)) | square_bb(ep);
        if (!(attackers_to(ksq, occ, them) & ~square_bb(capsq)))
          out.push(Move::make(from, ep, MoveKind::kEnPassant));
      }
    }
    if (!checkers && st_.back().castling) add_castling(out);
  }
  Bitboard targets = piece_moves(us, royal_, ksq, empty, enemies);
  const Bitboard occ = occupied_ ^ square_bb(ksq);
  while (targets) {
    const int to = pop_lsb(targets);
    if (!attackers_to(to, occ, them)) out.push(Move::make(ksq, to));
  }
}

bool Position::leaves_king_safe(Move m) const {
  Position& self = const_cast<Position&>(*this);  // restored before returning
  const Color us = stm_;
  self.do_move(m);
  const bool safe =
      !has_royal(us) || !attackers_to(lsb(pieces(us, royal_)), occupied_, opponent(us));
  self.undo_move();
  return safe;
}

void Position::legal_moves(MoveList& out) const {
  out.size = 0;
  if (hook_ == Hook::kAscending) {
    if (st_.back().pending) {  // AT-3: only the choice of a successor
      Bitboard candidates = successors(stm_);
      while (candidates) {
        const int s = pop_lsb(candidates);
        out.push(Move::make(s, s, MoveKind::kSuccession, royal_));
      }
      return;
    }
    if (!has_royal(stm_)) return;  // AT-5: the game is over
  }
  if (fast_legality_ && has_royal(stm_)) {
    generate_fast(out);
  } else {
    generate_pseudo(out);
    if (v_->check_rule && royal_ >= 0) {
      int kept = 0;
      for (int i = 0; i < out.size; ++i)
        if (leaves_king_safe(out.moves[i])) out.moves[kept++] = out.moves[i];
      out.size = kept;
    }
  }
  if (hook_ == Hook::kDetente && st_.back().phase == 2) apply_detente(out);
}

void Position::apply_detente(MoveList& moves) const {
  const StateInfo& st = st_.back();
  const auto is_protected = [&](Move m) {
    const int target = m.kind() == MoveKind::kEnPassant ? m.to() - g_->push[stm_] : m.to();
    return target == st.protect[0] || target == st.protect[1];
  };
  const auto moves_first = [&](Move m) {
    for (int s : st.moved) {
      if (s < 0) continue;
      if (m.from() == s) return true;
      if (m.kind() == MoveKind::kCastling) {  // castling also moves the rook
        const int right = 2 * stm_ + (m.to() == castle_king_to_[2 * stm_] ? 0 : 1);
        if (castle_rook_from_[right] == s) return true;
      }
    }
    return false;
  };
  MoveList allowed;  // OD-1
  for (const Move m : moves)
    if (!is_protected(m)) allowed.push(m);
  MoveList others;  // OD-2
  for (const Move m : allowed)
    if (!moves_first(m)) others.push(m);
  const MoveList& chosen = others.size ? others : allowed;
  if (chosen.size == 0) return;  // OD-3: both restrictions lifted
  moves.size = 0;
  for (const Move m : chosen) moves.push(m);
}

uint64_t Position::perft(int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  legal_moves(moves);
  if (depth == 1) return uint64_t(moves.size);
  uint64_t nodes = 0;
  for (const Move m : moves) {
    do_move(m);
    nodes += perft(depth - 1);
    undo_move();
  }
  return nodes;
}

}  // namespace vzero
