// One conformance test run over every registered variant: random games
// through the narrow game interface, checking its invariants at every ply.
#include <algorithm>
#include <catch.hpp>
#include <numeric>
#include <random>

#include "game/builtin/games.h"

namespace {

void check_state(const vzero::GameState& state) {
  const vzero::Game& game = state.game();
  const std::vector<int>& actions = state.legal_actions();
  REQUIRE(std::is_sorted(actions.begin(), actions.end()));
  REQUIRE(std::adjacent_find(actions.begin(), actions.end()) == actions.end());
  for (int a : actions) {
    REQUIRE(a >= 0);
    REQUIRE(a < game.num_actions());
    // Action text round-trips.
    REQUIRE(state.text_to_action(state.action_to_text(a)) == a);
  }
  REQUIRE(state.is_terminal() == actions.empty());
  REQUIRE((state.current_player() == -1) == state.is_terminal());
  // FEN round-trips, and the hash of the re-read position is the same.
  auto copy = game.new_state(state.fen());
  REQUIRE(copy->fen() == state.fen());
  REQUIRE(copy->hash() == state.hash());
}

}  // namespace

TEST_CASE("conformance: random games through every variant", "[conformance]") {
  for (const std::string& id : vzero::game_ids()) {
    const vzero::Game& game = vzero::game_by_id(id);
    SECTION(id) {
      std::mt19937_64 rng(12345);
      const int games = 6;
      for (int g = 0; g < games; ++g) {
        auto state = game.new_state();
        const int cap = game.variant().max_plies;
        std::vector<std::pair<std::string, uint64_t>> trail;
        while (!state->is_terminal()) {
          check_state(*state);
          trail.emplace_back(state->fen(), state->hash());
          const std::vector<int>& actions = state->legal_actions();
          const int a = actions[rng() % actions.size()];
          // apply then undo restores FEN and hash exactly
          state->apply(a);
          state->undo();
          REQUIRE(state->fen() == trail.back().first);
          REQUIRE(state->hash() == trail.back().second);
          state->apply(a);
          REQUIRE(state->plies() <= cap);
        }
        check_state(*state);
        INFO(id << " game " << g << " ended by " << state->end_reason() << " " << state->fen());
        REQUIRE(!state->end_reason().empty());
        const std::vector<double> r = state->returns();
        REQUIRE(int(r.size()) == game.num_players());
        REQUIRE(std::accumulate(r.begin(), r.end(), 0.0) == Approx(0.0).margin(1e-9));
        // Undo all the way back: every earlier position returns exactly.
        while (!trail.empty()) {
          state->undo();
          REQUIRE(state->fen() == trail.back().first);
          REQUIRE(state->hash() == trail.back().second);
          trail.pop_back();
        }
      }
    }
  }
}

TEST_CASE("conformance: clones are independent", "[conformance]") {
  for (const std::string& id : vzero::game_ids()) {
    auto state = vzero::game_by_id(id).new_state();
    auto clone = state->clone();
    clone->apply(clone->legal_actions().front());
    CHECK(state->plies() == 0);
    CHECK(clone->plies() == 1);
    CHECK(state->fen() != clone->fen());
  }
}
