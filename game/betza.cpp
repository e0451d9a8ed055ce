// Betza-like notation for piece moves (see variant.h for the subset).
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "game/variant.h"
#include "util/error.h"

namespace vzero {
namespace {

// The eight symmetric images of the leap (a, b), without duplicates.
std::vector<Step> images(int a, int b) {
  std::vector<Step> out;
  const int xs[2][2] = {{a, b}, {b, a}};
  for (const auto& p : xs)
    for (int sx : {1, -1})
      for (int sy : {1, -1}) {
        Step s{p[0] * sx, p[1] * sy};
        bool seen = false;
        for (const Step& o : out) seen |= (o.dx == s.dx && o.dy == s.dy);
        if (!seen) out.push_back(s);
      }
  return out;
}

bool atom_leap(char atom, int& a, int& b) {
  // The leaper atoms and their leaps (a, b).
  static const struct {
    char atom;
    int a, b;
  } leaps[] = {{'W', 1, 0}, {'F', 1, 1}, {'D', 2, 0}, {'N', 2, 1}, {'A', 2, 2},
               {'H', 3, 0}, {'C', 3, 1}, {'Z', 3, 2}, {'G', 3, 3}};
  for (const auto& leap : leaps)
    if (leap.atom == atom) {
      a = leap.a, b = leap.b;
      return true;
    }
  return false;
}

int direction_of(Step s) {
  const int dx = (s.dx > 0) - (s.dx < 0), dy = (s.dy > 0) - (s.dy < 0);
  static const int table[3][3] = {{kSW, kW, kNW}, {kS, -1, kN}, {kSE, kE, kNE}};
  return table[dx + 1][dy + 1];
}

// Does the step pass one directional condition ("f", "fl", "s", ...)?
bool single_matches(char c, Step s) {
  const int ax = std::abs(s.dx), ay = std::abs(s.dy);
  switch (c) {
    case 'f':
      return s.dy > 0;
    case 'b':
      return s.dy < 0;
    case 'l':
      return s.dx < 0;
    case 'r':
      return s.dx > 0;
    case 'v':
      return s.dx == 0 || ay > ax;
    case 's':
      return s.dy == 0 || ax > ay;
    default:
      return false;
  }
}

bool matches(const std::vector<std::string>& conditions, Step s) {
  if (conditions.empty()) return true;
  for (const std::string& cond : conditions) {
    // A doubled "ff" or "bb": the steps that go most forward (backward), e.g. the shogi knight ffN.
    if (cond == "ff" || cond == "bb") {
      if (single_matches(cond[0], s) && single_matches('v', s)) return true;
      continue;
    }
    bool all = true;
    for (char c : cond) all = all && single_matches(c, s);
    if (all) return true;
  }
  return false;
}

}  // namespace

PieceMoves parse_betza(const std::string& betza) {
  PieceMoves out;
  size_t i = 0;
  const auto fail = [&](const std::string& why) {
    throw Error("bad Betza move '" + betza + "': " + why);
  };
  if (betza.empty()) fail("empty");
  while (i < betza.size()) {
    bool quiet = false, capture = false, hop = false;
    std::vector<std::string> conditions;
    while (i < betza.size() && std::islower(static_cast<unsigned char>(betza[i]))) {
      const char c = betza[i++];
      if (c == 'm')
        quiet = true;
      else if (c == 'c')
        capture = true;
      else if (c == 'p')
        hop = true;
      else if (c == 'f' || c == 'b') {
        std::string cond(1, c);
        if (i < betza.size() &&
            (std::string("lrsv").find(betza[i]) != std::string::npos || betza[i] == c))
          cond += betza[i++];
        conditions.push_back(cond);
      } else if (c == 'l' || c == 'r' || c == 'v' || c == 's') {
        conditions.emplace_back(1, c);
      } else {
        fail(std::string("unknown modifier '") + c + "'");
      }
    }
    if (i >= betza.size()) fail("modifiers without an atom");
    const char atom = betza[i++];
    if (!quiet && !capture) quiet = capture = true;
    // Expand compound atoms into (leap atom, rides) pairs.
    std::vector<std::pair<char, bool>> parts;
    switch (atom) {
      case 'K':
        parts = {{'W', false}, {'F', false}};
        break;
      case 'R':
        parts = {{'W', true}};
        break;
      case 'B':
        parts = {{'F', true}};
        break;
      case 'Q':
        parts = {{'W', true}, {'F', true}};
        break;
      default: {
        int a, b;
        if (!atom_leap(atom, a, b)) fail(std::string("unknown atom '") + atom + "'");
        bool rides = false;
        if (i < betza.size() && betza[i] == atom) {
          rides = true;
          ++i;
        }
        parts = {{atom, rides}};
      }
    }
    for (const auto& [leap_atom, rides] : parts) {
      int a, b;
      atom_leap(leap_atom, a, b);
      if ((rides || hop) && !(leap_atom == 'W' || leap_atom == 'F'))
        fail("only W and F may ride or hop");
      for (Step s : images(a, b)) {
        if (!matches(conditions, s)) continue;
        if (hop) {
          if (!rides && leap_atom != 'W' && leap_atom != 'F') fail("hop needs a rider");
          out.hop_slides |= uint8_t(1u << direction_of(s));
        } else if (rides) {
          const uint8_t bit = uint8_t(1u << direction_of(s));
          if (quiet) out.quiet_slides |= bit;
          if (capture) out.capture_slides |= bit;
        } else {
          if (quiet) out.quiet_leaps.push_back(s);
          if (capture) out.capture_leaps.push_back(s);
        }
      }
    }
  }
  return out;
}

}  // namespace vzero
