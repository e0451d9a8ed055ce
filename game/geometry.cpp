// Building a variant's attack tables, and the per-variant cache of them (geometry.h).
#include "game/geometry.h"

#include <map>
#include <mutex>
#include <string>

namespace vzero {
namespace {

const int kDx[kDirectionCount] = {0, 1, 1, 1, 0, -1, -1, -1};
const int kDy[kDirectionCount] = {1, 1, 0, -1, -1, -1, 0, 1};

// Mirror a direction mask top to bottom (N <-> S, NE <-> SE, NW <-> SW).
uint8_t mirror_dirs(uint8_t m) {
  static const int image[kDirectionCount] = {kS, kSE, kE, kNE, kN, kNW, kW, kSW};
  uint8_t out = 0;
  for (int d = 0; d < kDirectionCount; ++d)
    if (m & (1 << d)) out |= uint8_t(1 << image[d]);
  return out;
}

}  // namespace

Geometry::Geometry(const Variant& v) : files(v.files), ranks(v.ranks), squares(v.squares()) {
  for (int s = 0; s < squares; ++s) board |= square_bb(s);
  for (int r = 0; r < kMaxSquares / 8; ++r) rank_bb[r] = 0;
  for (int s = 0; s < squares; ++s) rank_bb[rank_of(s)] |= square_bb(s);
  const auto on_board = [&](int f, int r) { return f >= 0 && f < files && r >= 0 && r < ranks; };
  for (int d = 0; d < kDirectionCount; ++d)
    for (int s = 0; s < kMaxSquares; ++s) {
      ray[d][s] = 0;
      if (s >= squares) continue;
      for (int f = file_of(s) + kDx[d], r = rank_of(s) + kDy[d]; on_board(f, r);
           f += kDx[d], r += kDy[d])
        ray[d][s] |= square_bb(square(f, r));
    }
  push[kWhite] = files;
  push[kBlack] = -files;
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kMaxPieceTypes; ++t) {
      quiet_slides[c][t] = capture_slides[c][t] = hop_slides[c][t] = 0;
      for (int s = 0; s < kMaxSquares; ++s)
        quiet_leaps[c][t][s] = capture_leaps[c][t][s] = capture_leaps_to[c][t][s] = 0;
    }
  for (size_t t = 0; t < v.pieces.size(); ++t) {
    const PieceMoves& m = v.pieces[t].moves;
    for (int c = 0; c < 2; ++c) {
      const int sign = c == kWhite ? 1 : -1;
      quiet_slides[c][t] = c == kWhite ? m.quiet_slides : mirror_dirs(m.quiet_slides);
      capture_slides[c][t] = c == kWhite ? m.capture_slides : mirror_dirs(m.capture_slides);
      hop_slides[c][t] = c == kWhite ? m.hop_slides : mirror_dirs(m.hop_slides);
      for (int s = 0; s < squares; ++s) {
        for (const Step& st : m.quiet_leaps) {
          const int f = file_of(s) + st.dx, r = rank_of(s) + sign * st.dy;
          if (on_board(f, r)) quiet_leaps[c][t][s] |= square_bb(square(f, r));
        }
        for (const Step& st : m.capture_leaps) {
          const int f = file_of(s) + st.dx, r = rank_of(s) + sign * st.dy;
          if (on_board(f, r)) {
            capture_leaps[c][t][s] |= square_bb(square(f, r));
            capture_leaps_to[c][t][square(f, r)] |= square_bb(s);
          }
        }
      }
    }
  }
  between_bb.assign(size_t(squares) * squares, 0);
  line_bb.assign(size_t(squares) * squares, 0);
  for (int a = 0; a < squares; ++a)
    for (int d = 0; d < kDirectionCount; ++d) {
      Bitboard r = ray[d][a];
      while (r) {
        const int b = pop_lsb(r);
        between_bb[a * squares + b] = ray[d][a] & ray[(d + 4) % 8][b];
        line_bb[a * squares + b] = ray[d][a] | ray[(d + 4) % 8][a] | square_bb(a);
      }
    }
}

const Geometry& Geometry::of(const Variant& v) {
  // Keyed by address, but checked against what the geometry is made of: a
  // variant that reuses a dead one's address gets a geometry of its own.
  std::string made_of = std::to_string(v.files) + "x" + std::to_string(v.ranks);
  for (const PieceType& p : v.pieces) made_of += " " + p.betza;
  static std::mutex mutex;
  static std::map<const Variant*, std::pair<std::string, std::unique_ptr<Geometry>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[&v];
  if (!slot.second || slot.first != made_of) slot = {made_of, std::make_unique<Geometry>(v)};
  return *slot.second;
}

}  // namespace vzero
