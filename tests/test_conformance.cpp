// One conformance test run over every registered variant: random games
// through the narrow game interface, checking its invariants at every ply.
#include <algorithm>
#include <catch.hpp>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
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

TEST_CASE("conformance: every variant's policy map is injective, in range and stable",
          "[conformance][policy-map]") {
  // Planes of each built-in variant's map: a change here changes what a
  // convolutional policy head of a new model reads (stored checkpoints keep
  // their own map).
  const std::map<std::string, int> planes = {
      {"007", 89},         {"007-detente", 89}, {"ascending", 90},
      {"attrition", 9},    {"attrition-2k", 9}, {"attrition-2k-sudden", 9},
      {"attrition-3p", 9}, {"attrition-4p", 9}, {"chess", 89},
      {"grand", 116},      {"losalamos", 66},   {"minishogi", 69},
      {"parachute", 97},   {"shogi", 143},      {"world", 133}};
  for (const std::string& id : vzero::game_ids()) {
    INFO(id);
    const vzero::Game& game = vzero::game_by_id(id);
    const std::optional<vzero::PolicyMap> map = game.policy_map();
    REQUIRE(map);
    CHECK(vzero::policy_map_problem(game, *map).empty());
    const std::optional<vzero::PolicyMap> again = game.policy_map();
    REQUIRE(again);
    CHECK(again->planes == map->planes);
    CHECK(again->plane == map->plane);
    CHECK(again->square == map->square);
    REQUIRE(planes.count(id) == 1);
    CHECK(map->planes == planes.at(id));
    // Every plane is used; a move's square is its from square, a drop's its target.
    std::vector<int> used(size_t(map->planes), 0);
    for (int a = 0; a < game.num_actions(); ++a) ++used[size_t(map->plane[size_t(a)])];
    CHECK(std::count(used.begin(), used.end(), 0) == 0);
    const int files = game.variant().files;
    for (int a = 0; a < game.num_actions(); a += 7) {
      const std::string& t = game.action_text(a);
      const size_t at = t.find('@');
      const size_t start = at == std::string::npos ? 0 : at + 1;
      size_t end = start + 1;
      while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end]))) ++end;
      const int square =
          (std::stoi(t.substr(start + 1, end - start - 1)) - 1) * files + (t[start] - 'a');
      CHECK(map->square[size_t(a)] == square);
    }
  }
  // Moves of one step, kind and suffix share a plane; others do not (chess).
  const vzero::Game& chess = vzero::game_by_id("chess");
  const vzero::PolicyMap map = *chess.policy_map();
  const auto action = [&](const std::string& text) {
    for (int a = 0; a < chess.num_actions(); ++a)
      if (chess.action_text(a) == text) return a;
    FAIL("no action " << text);
    return -1;
  };
  const auto plane = [&](const std::string& text) { return map.plane[size_t(action(text))]; };
  CHECK(plane("e2e4") == plane("a3a5"));
  CHECK(plane("e2e4") != plane("e2e3"));
  CHECK(plane("g1f3") == plane("b1a3"));
  CHECK(plane("g1f3") != plane("g1h3"));
  CHECK(plane("e7e8q") != plane("e7e8n"));
  CHECK(plane("e7e8q") != plane("e7e8"));
  CHECK(plane("e7e8q") == plane("a7a8q"));
}
