// Move generation, playing moves, attacks and game ends of the "fairy" hook
// (fairy_rules.h). Rule ids refer to rules/world.md (WC-*),
// rules/parachute.md (PC-*) and rules/shogi.md (SH-*).
#include "game/fairy/fairy_rules.h"

#include <cctype>

#include "game/fen_text.h"
#include "game/zobrist.h"
#include "util/error.h"

namespace vzero {
namespace {

// A well-mixed 64-bit value of x (splitmix64's finaliser).
uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

FairyRules::FairyRules(const Variant& v) : v_(v), g_(Geometry::of(v)) {
  royal_ = v.royal_type();
  pawn_ = v.pawn_type();
  rook_ = v.type_of_letter('r');
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    const PieceType& pt = v.pieces[t];
    if (pt.joker) {
      check(joker_ < 0, v.id + ": more than one joker type");
      joker_ = int(t);
    }
    if (pt.shared) {
      check(shared_ < 0, v.id + ": more than one shared type");
      shared_ = int(t);
    }
    if (pt.immune) immune_types_ |= uint16_t(1u << t);
    if (!pt.joker && !pt.moves.capture_leaps.empty()) leap_types_.push_back(int(t));
    if (pt.promotes_to >= 0) promotable_ |= uint16_t(1u << t);
  }
  bool hoppers = false;
  for (int c = 0; c < 2; ++c)
    for (size_t t = 0; t < v.pieces.size(); ++t) {
      hoppers = hoppers || g_.hop_slides[c][t];
      if (!v.immobility_illegal) continue;
      for (int sq = 0; sq < g_.squares; ++sq) {
        const uint8_t slides =
            g_.quiet_slides[c][t] | g_.capture_slides[c][t] | g_.hop_slides[c][t];
        if (!(g_.quiet_leaps[c][t][sq] | g_.capture_leaps[c][t][sq] | g_.slide(slides, sq, 0)))
          dead_[c][t] |= square_bb(sq);  // SH-8
      }
    }
  for (int sq = 0; sq < g_.squares; ++sq) file_bb_[g_.file_of(sq)] |= square_bb(sq);
  fast_legality_ = v.check_rule && royal_ >= 0 && joker_ < 0 && shared_ < 0 && !hoppers &&
                   !v.drop_no_check && !v.king_capture;
  for (char c : v.promotion_pieces) promo_types_ |= uint16_t(1u << v.type_of_letter(c));
  if (v.start_piece) start_type_ = v.type_of_letter(v.start_piece);
  for (int c = 0; c < 2; ++c) {
    const Color color = Color(c);
    for (int r = v.promotion_first_rank; r <= v.ranks; ++r)
      promo_zone_[c] |= g_.relative_rank_bb(color, r);
    if (v.pawns_wait) wait_rank_[c] = g_.relative_rank_bb(color, v.promotion_first_rank);
    for (int r = 1; r <= v.drop_ranks; ++r) drop_zone_[c] |= g_.relative_rank_bb(color, r);
    for (int r = 1; r <= v.start_piece_ranks; ++r) start_zone_[c] |= g_.relative_rank_bb(color, r);
  }
  // The start read once with any type allowed in hand and no castling squares known yet.
  const FairyPos s = parse_fen(v.start_fen);
  hand_types_ = 0;
  for (size_t t = 0; t < v.pieces.size(); ++t)
    if (v.pieces[t].to_hand || s.hand[0][t] || s.hand[1][t])
      hand_types_ |= uint16_t(1u << hand_type(int(t)));
  if (v.castling) {
    // The castling squares: the king and the outermost rooks of the castling rank at the start.
    check(royal_ >= 0 && rook_ >= 0, v.id + ": castling needs a king and a rook");
    for (int c = 0; c < 2; ++c) {
      const Color color = Color(c);
      const Bitboard rank = g_.relative_rank_bb(color, v.castling_rank);
      const Bitboard kings = s.by_type[royal_] & s.by_color[c] & rank;
      const Bitboard rooks = s.by_type[rook_] & s.by_color[c] & rank;
      check(kings && !more_than_one(kings) && rooks,
            v.id + ": the start position does not allow castling");
      const int k = lsb(kings);
      castle_king_from_[c] = k;
      const int sides[2] = {msb(rooks), lsb(rooks)};  // kingside: towards the last file
      const CastlingRule* rules[2] = {&v.kingside, &v.queenside};
      for (int side = 0; side < 2; ++side) {
        const int right = 2 * c + side;
        castle_rook_from_[right] = sides[side];
        castle_king_to_[right] = g_.square(rules[side]->king_to_file, g_.rank_of(k));
        castle_rook_to_[right] = g_.square(rules[side]->rook_to_file, g_.rank_of(k));
        castling_mask_[sides[side]] |= uint8_t(1u << right);
      }
      castling_mask_[k] |= uint8_t(3u << (2 * c));
    }
  }
  parse_fen(v.start_fen);  // now with castling rights: throws if the start is bad
}

void FairyRules::put(FairyPos& p, Piece pc, int s) const {
  const Bitboard b = square_bb(s);
  p.board[s] = pc;
  p.by_color[color_of(pc)] |= b;
  p.by_type[type_of(pc)] |= b;
  p.occupied |= b;
  if (type_of(pc) == royal_ && color_of(pc) < 2) p.king[color_of(pc)] = int8_t(s);
}

void FairyRules::remove(FairyPos& p, int s) const {
  const Piece pc = p.board[s];
  const Bitboard b = square_bb(s);
  p.board[s] = kNoPiece;
  p.by_color[color_of(pc)] &= ~b;
  p.by_type[type_of(pc)] &= ~b;
  p.occupied &= ~b;
  if (type_of(pc) == royal_ && color_of(pc) < 2) p.king[color_of(pc)] = -1;
}

bool FairyRules::is_waiting(const FairyPos& p, int s) const {
  const Piece pc = p.board[s];
  return pc != kNoPiece && type_of(pc) == pawn_ && color_of(pc) < 2 &&
         test(wait_rank_[color_of(pc)], s);
}

int FairyRules::joker_power(const FairyPos& p, Color c) const {
  if (joker_ < 0) return -1;
  // WC-7a: after two joker moves in a row, the next actor's joker has no power.
  if (v_.joker_max_streak && p.joker_streak >= v_.joker_max_streak && c == p.stm) return -1;
  const int u = p.used[opponent(c)];
  if (u < 0 || u == joker_ || !v_.pieces[u].imitable) return -1;
  return u;
}

Bitboard FairyRules::capturable(const FairyPos& p, Color by) const {
  const Color them = opponent(by);
  Bitboard b = p.by_color[them];
  for (uint16_t t = immune_types_; t; t &= t - 1) b &= ~p.by_type[__builtin_ctz(t)];
  if (pawn_ >= 0) b &= ~(p.by_type[pawn_] & wait_rank_[them]);  // WC-10
  return b;
}

bool FairyRules::attacks(const FairyPos& p, int from, int s) const {
  const Piece pc = p.board[from];
  const Color c = color_of(pc);
  if (c >= 2) return false;
  int e = type_of(pc);
  if (e == joker_) {
    e = joker_power(p, c);
    if (e < 0) return false;
  } else if (is_waiting(p, from)) {
    return false;
  }
  if (test(g_.capture_leaps[c][e][from], s)) return true;
  const uint8_t slides = g_.capture_slides[c][e], hops = g_.hop_slides[c][e];
  if (!(slides | hops) || !g_.line(from, s)) return false;
  // The direction from `from` towards s.
  const int df = g_.file_of(s) - g_.file_of(from), dr = g_.rank_of(s) - g_.rank_of(from);
  static const int kDir[3][3] = {{kSW, kW, kNW}, {kS, -1, kN}, {kSE, kE, kNE}};
  const int d = kDir[(df > 0) - (df < 0) + 1][(dr > 0) - (dr < 0) + 1];
  const int blockers = popcount(g_.between(from, s) & p.occupied);
  return ((slides >> d & 1) && blockers == 0) || ((hops >> d & 1) && blockers == 1);
}

bool FairyRules::attacked(const FairyPos& p, int s, Color by) const {
  const Bitboard mine = p.by_color[by];
  // Leapers (waiting pawns attack nothing, WC-10).
  const Bitboard waiting = pawn_ >= 0 ? p.by_type[pawn_] & wait_rank_[by] : 0;
  for (int t : leap_types_)
    if (g_.capture_leaps_to[by][t][s] & p.by_type[t] & mine & ~waiting) return true;
  // Sliders: the first piece on each line from s; hoppers: the second.
  for (int d = 0; d < kDirectionCount; ++d) {
    Bitboard line = g_.ray[d][s] & p.occupied;
    if (!line) continue;
    const int back = (d + 4) % kDirectionCount;  // the direction from that piece to s
    const int first = Geometry::kPositive[d] ? lsb(line) : msb(line);
    const Piece a = p.board[first];
    if (color_of(a) == by && type_of(a) != joker_ &&
        (g_.capture_slides[by][type_of(a)] >> back & 1))
      return true;
    line ^= square_bb(first);
    if (!line) continue;
    const Piece b = p.board[Geometry::kPositive[d] ? lsb(line) : msb(line)];
    if (color_of(b) == by && type_of(b) != joker_ && (g_.hop_slides[by][type_of(b)] >> back & 1))
      return true;
  }
  // Jokers, with their current power.
  if (joker_ >= 0)
    for (Bitboard j = p.by_type[joker_] & mine; j;)
      if (attacks(p, pop_lsb(j), s)) return true;
  return false;
}

bool FairyRules::in_check(const FairyPos& p) const {
  const int k = p.king[p.stm];
  return k >= 0 && attacked(p, k, opponent(p.stm));
}

void FairyRules::add_piece_moves(const FairyPos& p, int s, Color c, int e, bool real_pawn,
                                 MoveList& out) const {
  const Geometry& g = g_;
  const Bitboard empty = ~p.occupied & g.board;
  const Bitboard hop = g.hop(g.hop_slides[c][e], s, p.occupied);
  Bitboard targets =
      ((g.quiet_leaps[c][e][s] | g.slide(g.quiet_slides[c][e], s, p.occupied) | hop) & empty) |
      ((g.capture_leaps[c][e][s] | g.slide(g.capture_slides[c][e], s, p.occupied) | hop) &
       capturable(p, c));
  if (e == pawn_) {
    const int rank = real_pawn ? v_.double_step_rank : v_.joker_pawn_double_step_rank;  // WC-7b
    if (rank && g.relative_rank(c, s) == rank && rank + 2 <= g.ranks) {
      const int one = s + g.push[c], two = one + g.push[c];
      if (test(empty, one) && test(empty, two)) targets |= square_bb(two);
    }
    if (p.ep >= 0 && v_.en_passant && test(g.capture_leaps[c][pawn_][s], p.ep))
      out.push(Move::make(s, p.ep, MoveKind::kEnPassant));
  }
  // SH-7: a type with a promoted form may promote when it starts or ends in the zone.
  const int plus =
      (promotable_ >> e & 1) && type_of(p.board[s]) == e ? v_.pieces[e].promotes_to : -1;
  if (plus < 0 && !real_pawn) {
    for (targets &= ~dead_[c][e]; targets;) out.push(Move::make(s, pop_lsb(targets)));
    return;
  }
  const bool starts_in_zone = test(promo_zone_[c], s);
  while (targets) {
    const int to = pop_lsb(targets);
    if (plus >= 0 && (starts_in_zone || test(promo_zone_[c], to))) {
      out.push(Move::make(s, to, MoveKind::kPromotion, plus));
      if (!test(dead_[c][e], to)) out.push(Move::make(s, to));  // SH-8: else compulsory
      continue;
    }
    if (!real_pawn || !test(promo_zone_[c], to)) {
      if (!test(dead_[c][e], to)) out.push(Move::make(s, to));  // SH-8
      continue;
    }
    bool promoted = false;
    for (uint16_t t = promo_types_; t; t &= t - 1) {
      const int type = __builtin_ctz(t);
      if (v_.promote_from_pool && !p.pool[c][type]) continue;  // WC-9
      out.push(Move::make(s, to, MoveKind::kPromotion, type));
      promoted = true;
    }
    if (v_.promote_from_pool ? (!promoted && v_.pawns_wait)  // WC-9a: the pawn waits
                             : g.relative_rank(c, to) < v_.promotion_mandatory_rank)
      out.push(Move::make(s, to));
  }
}

void FairyRules::add_drops(const FairyPos& p, MoveList& out) const {
  const Color us = p.stm;
  const Bitboard empty = ~p.occupied & g_.board;
  for (size_t t = 0; t < v_.pieces.size(); ++t) {
    const int n = p.hand[us][t];
    if (!n) continue;
    Bitboard zone = drop_zone_[us];
    if (int(t) == start_type_ && p.start_piece[us])  // WC-6a, WC-6b
      zone = n > 1 ? zone | start_zone_[us] : start_zone_[us];
    zone &= ~dead_[us][t];            // SH-10: no piece where it could never move
    if (v_.drop_no_doubled >> t & 1)  // SH-10 nifu
      for (Bitboard own = p.by_type[t] & p.by_color[us]; own;)
        zone &= ~file_bb_[g_.file_of(pop_lsb(own))];
    for (Bitboard b = zone & empty; b;) {
      const int s = pop_lsb(b);
      out.push(Move::make(s, s, MoveKind::kDrop, int(t)));
    }
  }
}

void FairyRules::add_castling(const FairyPos& p, MoveList& out) const {
  const Color us = p.stm, them = opponent(us);
  for (int side = 0; side < 2; ++side) {
    const int right = 2 * us + side;
    if (!(p.castling >> right & 1)) continue;
    const int kfrom = castle_king_from_[us], rfrom = castle_rook_from_[right];
    const int kto = castle_king_to_[right], rto = castle_rook_to_[right];
    const Bitboard ends = square_bb(kfrom) | square_bb(rfrom);
    const Bitboard path = g_.between(kfrom, rfrom) | square_bb(kto) | square_bb(rto);
    if (path & p.occupied & ~ends) continue;
    // WC-11: the king not in check, no square of the wing nor of the king's way attacked.
    Bitboard safe = g_.between(kfrom, rfrom) | ends | g_.between(kfrom, kto) | square_bb(kto);
    bool ok = true;
    while (safe && ok) ok = !attacked(p, pop_lsb(safe), them);
    if (ok) out.push(Move::make(kfrom, kto, MoveKind::kCastling));
  }
}

void FairyRules::generate(const FairyPos& p, MoveList& out) const {
  out.size = 0;
  const Color us = p.stm;
  for (Bitboard b = p.by_color[us]; b;) {
    const int s = pop_lsb(b);
    const int t = type_of(p.board[s]);
    if (t == joker_) {
      const int e = joker_power(p, us);
      if (e >= 0) add_piece_moves(p, s, us, e, false, out);
    } else if (is_waiting(p, s)) {  // WC-10: only a promotion in place
      for (uint16_t m = promo_types_; m; m &= m - 1) {
        const int type = __builtin_ctz(m);
        if (p.pool[us][type]) out.push(Move::make(s, s, MoveKind::kPromotion, type));
      }
    } else {
      add_piece_moves(p, s, us, t, t == pawn_, out);
    }
  }
  if (shared_ >= 0 && p.used[opponent(us)] != shared_)  // PC-8
    for (Bitboard b = p.by_color[kNeutral]; b;) {
      const int s = pop_lsb(b);
      Bitboard targets =
          (g_.quiet_leaps[us][shared_][s] | g_.slide(g_.quiet_slides[us][shared_], s, p.occupied)) &
          ~p.occupied & g_.board;
      while (targets) out.push(Move::make(s, pop_lsb(targets)));
    }
  add_drops(p, out);
  if (v_.castling && p.castling) add_castling(p, out);
}

FairyPos FairyRules::play(const FairyPos& p, Move m) const {
  FairyPos n = p;
  const Color us = p.stm, them = opponent(us);
  const int from = m.from(), to = m.to();
  n.ep = -1;
  ++n.rule50;
  ++n.game_ply;
  int used = -1;
  bool joker_move = false;
  switch (m.kind()) {
    case MoveKind::kDrop: {
      const int t = m.type();
      --n.hand[us][t];
      if (t == start_type_ && n.start_piece[us] && test(start_zone_[us], to)) n.start_piece[us] = 0;
      put(n, make_piece(us, t), to);
      if (v_.drop_resets_clock) n.rule50 = 0;
      used = t;
      break;
    }
    case MoveKind::kCastling: {
      const int right = 2 * us + (to == castle_king_to_[2 * us] ? 0 : 1);
      const int rfrom = castle_rook_from_[right], rto = castle_rook_to_[right];
      const Piece king = p.board[from], rook = p.board[rfrom];
      remove(n, from);
      remove(n, rfrom);
      put(n, king, to);
      put(n, rook, rto);
      used = royal_;  // WC-7: castling counts as the king
      break;
    }
    default: {
      const Piece pc = p.board[from];
      const int t = type_of(pc);
      const int capsq = m.kind() == MoveKind::kEnPassant ? to - g_.push[us] : to;
      const Piece victim = from == to ? kNoPiece : p.board[capsq];
      if (victim != kNoPiece) {
        const int vt = type_of(victim);
        remove(n, capsq);
        n.rule50 = 0;
        if (v_.pieces[vt].to_hand)
          ++n.hand[us][hand_type(vt)];  // WC-6b, SH-9: to the captor's hand
        else if (v_.captured_to_pool && (promo_types_ >> vt & 1))
          ++n.pool[them][vt];  // WC-6d
      }
      remove(n, from);
      if (m.kind() == MoveKind::kPromotion) {
        put(n, make_piece(us, m.type()), to);
        if (v_.promote_from_pool) --n.pool[us][m.type()];
      } else {
        put(n, pc, to);
      }
      if (t == pawn_ && color_of(pc) < 2) {
        n.rule50 = 0;
        if (to - from == 2 * g_.push[us] && v_.en_passant) n.ep = int8_t(from + g_.push[us]);
      }
      if (t == joker_) {
        joker_move = true;
        used = v_.joker_chain ? joker_power(p, us) : t;  // WC-7a
      } else {
        used = t;  // a promotion counts as the pawn; the shared piece as itself
      }
      break;
    }
  }
  if (n.castling) n.castling &= uint8_t(~(castling_mask_[from] | castling_mask_[to]));
  n.used[us] = int8_t(used);
  n.joker_streak = joker_move && v_.joker_max_streak ? uint8_t(p.joker_streak + 1) : 0;
  n.stm = them;
  return n;
}

bool FairyRules::legal_after(const FairyPos& before, const FairyPos& after, Move m) const {
  const Color us = before.stm, them = opponent(us);
  if (v_.check_rule && after.king[us] >= 0 && attacked(after, after.king[us], them))
    return false;  // WC-8
  if (m.kind() == MoveKind::kDrop && v_.drop_no_check && after.king[them] >= 0 &&
      attacked(after, after.king[them], us))
    return false;  // WC-6c
  return true;
}

Bitboard FairyRules::pinned(const FairyPos& p, Color us) const {
  const Color them = opponent(us);
  const int k = p.king[us];
  Bitboard pins = 0;
  for (int d = 0; d < kDirectionCount; ++d) {
    Bitboard line = g_.ray[d][k] & p.occupied;
    if (!line) continue;
    const int first = Geometry::kPositive[d] ? lsb(line) : msb(line);
    if (color_of(p.board[first]) != us) continue;
    line ^= square_bb(first);
    if (!line) continue;
    const Piece b = p.board[Geometry::kPositive[d] ? lsb(line) : msb(line)];
    if (color_of(b) == them &&
        (g_.capture_slides[them][type_of(b)] >> ((d + 4) % kDirectionCount) & 1))
      pins |= square_bb(first);
  }
  return pins;
}

bool FairyRules::drop_mates(const FairyPos& p, Move m) const {
  const Color us = p.stm, them = opponent(us);
  const FairyPos n = play(p, m);
  const int k = n.king[them];
  if (k < 0 || !attacked(n, k, us)) return false;
  // A drop next to the king, or checking by a leap, cannot be blocked: only board moves answer it.
  const bool blockable = g_.between(k, m.to()) != 0;
  MoveList replies;
  generate(n, replies);
  for (const Move r : replies)
    if ((blockable || r.kind() != MoveKind::kDrop) && legal_after(n, play(n, r), r)) return false;
  return true;
}

void FairyRules::legal_moves(const FairyPos& p, MoveList& out) const {
  out.size = 0;
  if (royal_ >= 0 && p.king[p.stm] < 0) return;  // the king was captured: the game is over
  generate(p, out);
  if (!v_.check_rule && !v_.drop_no_check && !v_.drop_no_mate) return;
  // Out of check, with pins known, only king moves and en passant need a trial move.
  const int k = p.king[p.stm];
  const bool fast = fast_legality_ && k >= 0 && !in_check(p);
  const Bitboard pins = fast ? pinned(p, p.stm) : 0;
  int kept = 0;
  for (int i = 0; i < out.size; ++i) {
    const Move m = out.moves[i];
    bool ok;
    if (!v_.check_rule && m.kind() != MoveKind::kDrop)
      ok = true;
    else if (fast && m.kind() == MoveKind::kDrop)
      ok = true;
    else if (fast && m.from() != k && m.kind() != MoveKind::kEnPassant)
      ok = !test(pins, m.from()) || test(g_.line(k, m.from()), m.to());
    else
      ok = legal_after(p, play(p, m), m);
    if (ok && m.kind() == MoveKind::kDrop && (v_.drop_no_mate >> m.type() & 1))
      ok = !drop_mates(p, m);
    if (ok) out.moves[kept++] = m;
  }
  out.size = kept;
}

bool FairyRules::has_escape(const FairyPos& p, const MoveList& moves) const {
  const Color us = p.stm, them = opponent(us);
  for (const Move m : moves) {
    const FairyPos n = play(p, m);
    if (n.king[them] < 0 || !attacked(n, n.king[us], them))
      return true;  // capturing the king escapes
  }
  return false;
}

int FairyRules::outcome(const FairyPos& p, const MoveList& legal, std::string* reason) const {
  const auto set = [&](const char* r, int result) {
    if (reason) *reason = r;
    return result;
  };
  const Color us = p.stm, them = opponent(us);
  if (royal_ >= 0 && p.king[us] < 0) return set("king-captured", int(them));  // PC-10
  if (legal.size == 0) {
    // WC-8; PC-10 (no action at all while in check: no escape either), else PC-11; SH-11.
    if ((v_.check_rule || v_.king_capture) && in_check(p)) return set("checkmate", int(them));
    return set("stalemate", v_.stalemate_loses ? int(them) : 2);
  }
  if (v_.king_capture && in_check(p) && !has_escape(p, legal))
    return set("checkmate", int(them));  // PC-10
  return set("", -1);
}

uint64_t FairyRules::perft(const FairyPos& p, int depth) const {
  if (depth <= 0) return 1;
  MoveList moves;
  legal_moves(p, moves);
  if (outcome(p, moves, nullptr) >= 0) return 0;
  if (depth == 1) return uint64_t(moves.size);
  uint64_t nodes = 0;
  for (const Move m : moves) nodes += perft(play(p, m), depth - 1);
  return nodes;
}

uint64_t FairyRules::hash(const FairyPos& p) const {
  const Zobrist& z = zobrist();
  uint64_t k = 0;
  for (Bitboard b = p.occupied; b;) {
    const int s = pop_lsb(b);
    k ^= z.piece[p.board[s]][s];
  }
  for (int c = 0; c < 2; ++c)
    for (size_t t = 0; t < v_.pieces.size(); ++t) {
      k ^= z.hand[c][t][p.hand[c][t] & 63];
      if (p.pool[c][t]) k ^= mix64(0x100000ull + uint64_t(c) * 4096 + t * 256 + p.pool[c][t]);
    }
  k ^= z.castling[p.castling & 15];
  if (p.ep >= 0) k ^= z.ep[p.ep];
  if (p.stm == kBlack) k ^= z.side;
  // The last actions matter only to a joker or the shared piece on the board
  // (repetition compares positions by this key).
  const bool memory = (joker_ >= 0 && p.by_type[joker_]) || (shared_ >= 0 && p.by_type[shared_]);
  k ^= mix64(0x200000ull + uint64_t(p.start_piece[0]) + 2 * p.start_piece[1] +
             (memory ? 4 * uint64_t(p.used[0] + 1) + 64 * uint64_t(p.used[1] + 1) +
                           1024 * uint64_t(p.joker_streak)
                     : 0));
  return k;
}

std::string FairyRules::square_name(int s) const { return vzero::square_name(g_, s); }

std::string FairyRules::move_text(Move m) const {
  const std::string to = square_name(m.to());
  switch (m.kind()) {
    case MoveKind::kDrop:
      return std::string(
                 1, char(std::toupper(static_cast<unsigned char>(v_.pieces[m.type()].letter)))) +
             "@" + to;
    case MoveKind::kPromotion:  // SH-3: "+" for a promoted form
      return square_name(m.from()) + to +
             (v_.pieces[m.type()].promoted ? '+' : v_.pieces[m.type()].letter);
    default:
      return square_name(m.from()) + to;
  }
}

std::string FairyRules::board_text(const FairyPos& p) const {
  const bool wide = v_.has_promoted_types();  // cells of two characters: "+P", " P"
  std::string out;
  for (int r = g_.ranks - 1; r >= 0; --r) {
    const std::string num = std::to_string(r + 1);
    out += std::string(3 - num.size(), ' ') + num + " ";
    for (int f = 0; f < g_.files; ++f) {
      const Piece pc = p.board[g_.square(f, r)];
      char c = '.';
      if (pc != kNoPiece) {
        c = v_.pieces[type_of(pc)].letter;
        if (color_of(pc) != kBlack) c = char(std::toupper(static_cast<unsigned char>(c)));
      }
      out += ' ';
      if (wide) out += pc != kNoPiece && v_.pieces[type_of(pc)].promoted ? '+' : ' ';
      out += c;
    }
    out += '\n';
  }
  out += "    ";
  for (int f = 0; f < g_.files; ++f) out += std::string(wide ? "  " : " ") + char('a' + f);
  out += '\n';
  const char* names[2] = {"White", "Black"};
  for (int c = 0; c < 2; ++c) {
    std::string hand, pool;
    for (size_t t = 0; t < v_.pieces.size(); ++t) {
      const char letter = c == kWhite
                              ? char(std::toupper(static_cast<unsigned char>(v_.pieces[t].letter)))
                              : v_.pieces[t].letter;
      hand += std::string(p.hand[c][t], letter);
      pool += std::string(p.pool[c][t], letter);
    }
    out += std::string(names[c]) + " hand: " + (hand.empty() ? "-" : hand);
    if (v_.captured_to_pool) out += ", captured pool: " + (pool.empty() ? "-" : pool);
    if (joker_ >= 0) {
      const int e = joker_power(p, Color(c));
      out += ", joker power: " + (e < 0 ? std::string("none") : v_.pieces[e].name);
    }
    out += '\n';
  }
  return out;
}

}  // namespace vzero
