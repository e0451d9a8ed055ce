// Regressions found by the fuzz targets of fuzz/ in what mcts reads: games
// files (fuzz_records) and search options from protocol requests and player
// specs (fuzz_json).
#include <catch.hpp>
#include <nlohmann/json.hpp>

#include "game/builtin/games.h"
#include "match/game_record.h"
#include "match/players.h"
#include "search/config.h"
#include "util/error.h"

using namespace vzero;

namespace {

// A record line of a 2-player chess game with one field's JSON text replaced.
std::string record_with(const std::string& field, const std::string& value) {
  MatchRecord r;
  r.match = "a vs b";
  r.variant = "chess";
  r.players = {"a", "b"};
  r.roles = {0, 1};
  r.moves = {"e2e4"};
  r.result = {1.0, -1.0};
  r.reason = "checkmate";
  r.plies = 1;
  r.seed = 7;
  nlohmann::json j = nlohmann::json::parse(to_json_line(r));
  j[field] = nlohmann::json::parse(value);
  return j.dump();
}

}  // namespace

TEST_CASE("fuzz: numbers in a game record that do not fit their field are refused, not cast",
          "[fuzz][records]") {
  // fuzz_records: "roles": [7.7e63] was converted to int by nlohmann-json
  // (undefined behaviour, caught by UBSan); so could index, forfeit_seat,
  // plies and seed be, or be negative.
  CHECK(parse_json_line(record_with("roles", "[0,1]")).roles == std::vector<int>{0, 1});
  // Values of fields that no game record may hold.
  const std::pair<const char*, const char*> kBadValues[] = {{"roles", "[7.77778e+63,1]"},
                                                            {"roles", "[0,2]"},
                                                            {"roles", "[0.5,1]"},
                                                            {"roles", "7"},
                                                            {"index", "1e300"},
                                                            {"index", "2.5"},
                                                            {"index", "-1"},
                                                            {"index", "4294967296"},
                                                            {"forfeit_seat", "1e10"},
                                                            {"forfeit_seat", "2"},
                                                            {"plies", "-3"},
                                                            {"plies", "18446744073709551615"},
                                                            {"seed", "-5"},
                                                            {"seed", "1.5"},
                                                            {"seconds", "-1"}};
  for (const auto& [field, value] : kBadValues) {
    INFO(field << " = " << value);
    CHECK_THROWS_WITH(parse_json_line(record_with(field, value)),
                      Catch::Contains("bad game record"));
  }
  const MatchRecord big = parse_json_line(record_with("seed", "18446744073709551615"));
  CHECK(big.seed == UINT64_MAX);
  CHECK(parse_json_line(to_json_line(big)).seed == UINT64_MAX);
}

TEST_CASE("fuzz: a search option sets one key, whatever its text", "[fuzz][search]") {
  // A JSON request's "search" keys and a player spec's options are read as
  // "key = value" TOML: a value or key with a newline or quotes could set a
  // second option (simulations past the request's limits) or a quoted one.
  SearchConfig c;
  CHECK_THROWS_AS(set_search_option(c, "batch", "8\nsimulations = 1000000"), Error);
  CHECK_THROWS_AS(set_search_option(c, "simulations = 1000000\nbatch", "8"), Error);
  CHECK_THROWS_AS(set_search_option(c, " simulations", "900"), Error);
  CHECK_THROWS_AS(set_search_option(c, "\"simulations\"", "900"), Error);
  CHECK(c.simulations == SearchConfig{}.simulations);
  CHECK(c.batch == SearchConfig{}.batch);
  set_search_option(c, "simulations", "900");
  CHECK(c.simulations == 900);

  PlayerContext ctx;
  ctx.game = &game_by_id("chess");
  CHECK_THROWS_AS(make_player("mcts:sims=8,batch=8\nsimulations=1000000", ctx), Error);
  CHECK_THROWS_AS(make_player("mcts:sims=8, simulations=1000000", ctx), Error);
}
