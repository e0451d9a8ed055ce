#pragma once
// Helpers shared by the rule tests of single variants (shogi, world, parachute, ascending).
#include <catch.hpp>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "game/builtin/games.h"
#include "tests/test_util.h"

namespace vzero::testing {

using Moves = std::vector<std::string>;

// A state of variant id at fen (its start position when fen is empty).
inline std::unique_ptr<GameState> state_of(const std::string& id, const std::string& fen = "") {
  return game_by_id(id).new_state(fen);
}

// The FEN after playing moves (rules notation) from s.
inline std::string fen_after(std::unique_ptr<GameState> s,
                             std::initializer_list<const char*> moves) {
  play(*s, moves);
  return s->fen();
}

// Checks, one by one, that every move of legal is legal in s and no move of illegal is.
inline void check_legal(const GameState& s, const Moves& legal, const Moves& illegal) {
  for (const std::string& m : legal) CHECK(has(s, m));
  for (const std::string& m : illegal) CHECK(!has(s, m));
}

// Requires that s has ended and checks that it ended for reason ("checkmate", "stalemate", ...).
inline void check_ended(const GameState& s, const std::string& reason) {
  REQUIRE(s.is_terminal());
  CHECK(s.end_reason() == reason);
}

}  // namespace vzero::testing
