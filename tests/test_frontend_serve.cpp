// The JSON-lines session of `vzero serve --stdio`: whole games and bad requests.
#include <catch.hpp>
#include <nlohmann/json.hpp>

#include "frontend/json_session.h"
#include "game/builtin/games.h"

using namespace vzero;
using nlohmann::json;

namespace {

const std::vector<std::string> kNoModels;  // sessions that find no shipped model

// Sends one request and parses the reply, which must be one JSON object on one line.
json ask(JsonSession& s, const json& request) {
  const std::string reply = s.handle_line(request.dump());
  REQUIRE(reply.find('\n') == std::string::npos);
  const json r = json::parse(reply);
  REQUIRE(r.is_object());
  return r;
}

// The reply to `line`, REQUIREd to be a JSON object.
json object_reply(JsonSession& s, const std::string& line) {
  const json r = json::parse(s.handle_line(line));
  REQUIRE(r.is_object());
  return r;
}

// The reply to `line`, a JSON object; CHECKs (REQUIREs when `require`) that it is an error.
json error_reply(JsonSession& s, const std::string& line, bool require) {
  const json r = object_reply(s, line);
  INFO(line << " -> " << r.dump());
  if (require)
    REQUIRE(r.contains("error"));
  else
    CHECK(r.contains("error"));
  return r;
}

json ask_ok(JsonSession& s, const json& request) {
  json r = ask(s, request);
  INFO(request.dump() << " -> " << r.dump());
  REQUIRE_FALSE(r.contains("error"));
  return r;
}

bool contains(const json& array, const json& x) {
  for (const json& v : array)
    if (v == x) return true;
  return false;
}

// Plays a whole game through the session: the player picks every action,
// checked against `legal`; every few plies an analysis looks at the position.
// Returns the final state reply and the seats that acted, in order.
std::pair<json, std::vector<int>> play_out(JsonSession& s, int analyse_every, int max_plies) {
  std::vector<int> seats;
  json state = ask_ok(s, {{"cmd", "state"}});
  while (!state["terminal"].get<bool>()) {
    REQUIRE(int(seats.size()) < max_plies);
    const json legal = ask_ok(s, {{"cmd", "legal"}});
    REQUIRE(legal["to_move"] == state["to_move"]);
    if (seats.size() % size_t(analyse_every) == 0) {
      const json a = ask_ok(s, {{"cmd", "analyse"}, {"sims", 24}, {"top", 3}});
      CHECK(a["to_move"] == state["to_move"]);
      CHECK(a["value"].size() == state["players"]);
      REQUIRE(!a["actions"].empty());
      for (const json& x : a["actions"]) {
        CHECK(contains(legal["actions"], x["action"]));
        CHECK(x["prior"].get<double>() >= 0.0);
        CHECK(x.contains("visits"));
        if (!x["value"].is_null()) CHECK(x["value"].size() == state["players"]);
      }
    }
    const json picked = ask_ok(s, {{"cmd", "pick"}, {"apply", true}});
    CHECK(picked["seat"] == state["to_move"]);
    CHECK(contains(legal["actions"], picked["action"]));
    seats.push_back(state["to_move"].get<int>());
    CHECK(picked["ply"] == seats.size());
    state = picked;
  }
  return {state, seats};
}

}  // namespace

TEST_CASE("serve: a whole 4-player attrition game", "[frontend][serve]") {
  JsonSession s(kNoModels);
  const json start = ask_ok(s, {{"cmd", "start"},
                                {"variant", "attrition-4p"},
                                {"player", "mcts:sims=16,evaluator=heuristic"},
                                {"seed", 3},
                                {"id", 7}});
  CHECK(start["id"] == 7);
  CHECK(start["players"] == 4);
  CHECK(start["to_move"] == 0);
  auto [end, seats] = play_out(s, 5, 2000);
  CHECK(end["terminal"] == true);
  CHECK(!end["end_reason"].get<std::string>().empty());
  CHECK(end["to_move"] == -1);
  REQUIRE(end["returns"].size() == 4);
  double best = -2;
  for (const json& r : end["returns"]) best = std::max(best, r.get<double>());
  CHECK(best == 1.0);  // one winner (CA-11)
  // All four seats acted, first in seat order while placing (CA-2).
  CHECK(std::vector<int>(seats.begin(), seats.begin() + 4) == std::vector<int>({0, 1, 2, 3}));
  CHECK(end["moves"].size() == seats.size());
  // The game is over: no more picks or analyses, but the state is still there.
  CHECK(ask(s, {{"cmd", "pick"}}).contains("error"));
  CHECK(ask(s, {{"cmd", "analyse"}}).contains("error"));
  CHECK(ask_ok(s, {{"cmd", "state"}})["terminal"] == true);
}

TEST_CASE("serve: pick gives the root value per seat of a searching player, none for random",
          "[frontend][serve]") {
  JsonSession s(kNoModels);
  // Black a queen up: the search must see White worse.
  ask_ok(s, {{"cmd", "start"},
             {"variant", "chess"},
             {"fen", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"},
             {"player", "mcts:sims=64,evaluator=heuristic"}});
  const json picked = ask_ok(s, {{"cmd", "pick"}});
  REQUIRE(picked["value"].size() == 2);
  const double white = picked["value"][0].get<double>(), black = picked["value"][1].get<double>();
  CHECK(white < 0.0);
  CHECK(white >= -1.0);
  CHECK(black == Approx(-white).margin(1e-3));
  ask_ok(s, {{"cmd", "start"}, {"variant", "losalamos"}, {"player", "random"}});
  CHECK_FALSE(ask_ok(s, {{"cmd", "pick"}}).contains("value"));
}

TEST_CASE("serve: a whole 007 game, three actions per turn", "[frontend][serve]") {
  JsonSession s(kNoModels);
  ask_ok(s, {{"cmd", "start"},
             {"variant", "007"},
             {"player", "random"},
             {"seed", 5},
             {"search", {{"simulations", 40}, {"cpuct", 1.5}}}});
  auto [end, seats] = play_out(s, 20, 5000);
  CHECK(end["terminal"] == true);
  CHECK(!end["end_reason"].get<std::string>().empty());
  // OO-1: plies 1-3 White's turn, 4-6 Black's, ... (until the game ended).
  for (size_t i = 0; i < seats.size(); ++i) CHECK(seats[i] == int(i / 3 % 2));
}

TEST_CASE("serve: apply, undo, moves at the start and the analysis of a fixed position",
          "[frontend][serve]") {
  JsonSession s(kNoModels);
  json r = ask_ok(s, {{"cmd", "start"}, {"variant", "chess"}, {"moves", {"e2e4", "e7e5"}}});
  CHECK(r["ply"] == 2);
  CHECK(r["player"] == "mcts:evaluator=heuristic");  // auto without a shipped model
  r = ask_ok(s, {{"cmd", "apply"}, {"actions", {"g1f3", "b8c6", "f1b5"}}});
  CHECK(r["ply"] == 5);
  CHECK(r["moves"] == json({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}));
  // One bad action in a list applies none of them.
  CHECK(ask(s, {{"cmd", "apply"}, {"actions", {"a7a6", "e1e1"}}}).contains("error"));
  CHECK(ask_ok(s, {{"cmd", "state"}})["ply"] == 5);
  r = ask_ok(s, {{"cmd", "undo"}, {"count", 3}});
  CHECK(r["ply"] == 2);
  CHECK(r["to_move"] == 0);
  CHECK(ask(s, {{"cmd", "undo"}, {"count", 3}}).contains("error"));
  CHECK(ask_ok(s, {{"cmd", "pick"}})["ply"].is_null());  // pick without apply leaves the game
  CHECK(ask_ok(s, {{"cmd", "state"}})["ply"] == 2);

  ask_ok(s, {{"cmd", "start"}, {"variant", "chess"}, {"fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}});
  const json a = ask_ok(s, {{"cmd", "analyse"}, {"sims", 300}, {"top", 0}});
  CHECK(a["proven"] == true);
  CHECK(a["value"] == json({1.0, -1.0}));
  CHECK(a["actions"][0]["action"] == "a1a8");
  CHECK(a["actions"][0]["pv"] == json({"a1a8"}));
  CHECK(a["actions"].size() == ask_ok(s, {{"cmd", "legal"}})["actions"].size());  // top 0: all
  CHECK(ask_ok(s, {{"cmd", "pick"}})["action"] == "a1a8");
}

TEST_CASE("serve: every bad request gets an error object and changes nothing",
          "[frontend][serve]") {
  JsonSession s(kNoModels);
  const auto error_of = [&](const std::string& line) { return error_reply(s, line, false); };
  error_of("");
  error_of("not json");
  error_of("[1, 2]");
  error_of("{}");
  error_of(R"({"cmd": 3})");
  error_of(R"({"cmd": "legal"})");  // no game yet
  error_of(R"({"cmd": "dance"})");
  error_of(std::string(100, '[') + std::string(100, ']'));
  error_of(R"({"cmd": "start", "variant": "nonesuch"})");
  error_of(R"({"cmd": "start", "variant": "chess", "fen": "8/8 w"})");
  error_of(R"({"cmd": "start", "variant": "chess", "player": "wizard"})");
  error_of(R"({"cmd": "start", "variant": "chess", "player": "random", "model": "x.pt"})");
  error_of(R"({"cmd": "start", "variant": "chess", "search": {"simz": 3}})");
  error_of(R"({"cmd": "start", "variant": "chess", "search": {"simulations": -1}})");
  error_of(R"({"cmd": "start", "variant": "chess", "moves": ["e2e4", "e2e4"]})");
  error_of(R"({"cmd": "start", "variant": "chess", "seed": "one"})");
  CHECK(error_of(R"({"cmd": "nope", "id": "abc"})")["id"] == "abc");
  ask_ok(s, {{"cmd", "start"}, {"variant", "world"}});
  error_of(R"({"cmd": "apply"})");
  error_of(R"({"cmd": "apply", "action": 5})");
  error_of(R"({"cmd": "apply", "action": "z9z9"})");
  error_of(R"({"cmd": "analyse", "sims": 0})");
  error_of(R"({"cmd": "analyse", "sims": 1.5})");
  error_of(R"({"cmd": "undo"})");
  CHECK(ask_ok(s, {{"cmd", "state"}})["ply"] == 0);
  CHECK(ask_ok(s, {{"cmd", "variants"}})["variants"].size() == game_ids().size());
  CHECK(ask_ok(s, {{"cmd", "quit"}})["bye"] == true);
  CHECK(s.finished());
}

TEST_CASE("serve: an unknown field is an error naming it, and changes nothing",
          "[frontend][serve]") {
  JsonSession s(kNoModels);
  const auto error_of = [&](const std::string& line) {
    return error_reply(s, line, true)["error"].get<std::string>();
  };
  // A typo of "variant" does not start chess.
  const std::string e = error_of(R"({"cmd": "start", "varient": "losalamos"})");
  CHECK(e.find("'varient'") != std::string::npos);
  CHECK(e.find("variant") != std::string::npos);  // the fields start takes are listed
  CHECK(error_of(R"({"cmd": "legal"})").find("no game") != std::string::npos);  // none started
  CHECK(error_of(R"({"cmd": "quit", "now": true})").find("'now'") != std::string::npos);
  CHECK_FALSE(s.finished());
  CHECK(error_of(R"({"cmd": "dance", "x": 1})").find("unknown cmd 'dance'") != std::string::npos);
  const json started =
      ask_ok(s, {{"cmd", "start"}, {"variant", "losalamos"}, {"player", "random"}});
  CHECK(started["variant"] == "losalamos");
  CHECK(error_of(R"({"cmd": "apply", "move": "b2b3"})").find("'move'") != std::string::npos);
  CHECK(error_of(R"({"cmd": "analyse", "simulations": 8})").find("'simulations'") !=
        std::string::npos);
  CHECK(error_of(R"({"cmd": "pick", "aply": true})").find("'aply'") != std::string::npos);
  CHECK(error_of(R"({"cmd": "undo", "n": 1})").find("'n'") != std::string::npos);
  CHECK(error_of(R"({"cmd": "state", "verbose": true})").find("takes no fields") !=
        std::string::npos);
  CHECK(ask_ok(s, {{"cmd", "state"}})["ply"] == 0);  // nothing was applied
  // Every documented field is still taken.
  ask_ok(s, {{"cmd", "start"},
             {"variant", "chess"},
             {"fen", ""},
             {"moves", {"e2e4"}},
             {"player", "random"},
             {"search", json::object()},
             {"seed", 3},
             {"id", 1}});
  ask_ok(s, {{"cmd", "apply"}, {"action", "e7e5"}, {"actions", {"g1f3"}}});
  ask_ok(s, {{"cmd", "undo"}, {"count", 1}});
  ask_ok(s, {{"cmd", "analyse"}, {"sims", 4}, {"top", 1}});
  ask_ok(s, {{"cmd", "pick"}, {"apply", false}});
}
