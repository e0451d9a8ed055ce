// The frontends with networks: UCI's Model option (a path, or the shipped
// model found by "auto") and the JSON session's model, on tiny checkpoints.
#include <nlohmann/json.hpp>

#include "frontend/json_session.h"
#include "frontend/uci.h"
#include "frontend_test_util.h"
#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/server.h"
#include "test_util.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;
using nlohmann::json;
using vzero::testing::Lines;

namespace {

// Writes a tiny fresh network of variant to path.
void write_tiny_checkpoint(const std::string& variant, const std::string& path) {
  ModelConfig c;
  c.blocks = 1;
  c.filters = 8;
  c.value_hidden = 16;
  PolicyValueNet m = make_model(c, ModelIdentity::of(game_by_id(variant)), 5);
  m->eval();
  save_checkpoint(path, m, 0, 0);
}

std::string bestmove_after(Lines& out, UciEngine& uci, const std::string& go) {
  const size_t from = out.size();
  uci.handle_line(go);
  const int best = out.wait_for("bestmove", from, 120.0);
  for (const std::string& l : out.since(from)) UNSCOPED_INFO(l);
  REQUIRE(best >= 0);
  return out.at(best).substr(9);
}

}  // namespace

TEST_CASE(
    "frontend net: UCI searches with the shipped model, a given one, or none when it does not fit",
    "[frontend][net]") {
  register_net_players(ServerConfig{});
  const auto dir = vzero::testing::temp_dir("frontend-net");
  write_tiny_checkpoint("grand", (dir / "grand.pt").string());
  write_tiny_checkpoint("chess", (dir / "other-chess.pt").string());
  Lines out;
  UciEngine uci(out.sink(), {dir.string()});
  uci.handle_line("setoption name UCI_Variant value grand");
  uci.handle_line("isready");
  REQUIRE(out.wait_for("readyok", 0, 60.0) >= 0);
  CHECK(out.wait_for("info string grand: model " + (dir / "grand.pt").string(), 0, 0.0) >= 0);
  uci.handle_line("position startpos moves e3e4");
  auto s = game_by_id("grand").new_state();
  vzero::testing::play(*s, {"e3e4"});
  CHECK(vzero::testing::has(*s, bestmove_after(out, uci, "go nodes 64")));

  // A chess model does not fit grand: said once, then a network-free search.
  size_t from = out.size();
  uci.handle_line("setoption name Model value " + (dir / "other-chess.pt").string());
  CHECK(vzero::testing::has(*s, bestmove_after(out, uci, "go nodes 64")));
  CHECK(out.wait_for("info string cannot use model", from, 0.0) >= 0);

  // The chess model plays chess.
  uci.handle_line("setoption name UCI_Variant value chess");
  from = out.size();
  const std::string move = bestmove_after(out, uci, "go nodes 64");
  CHECK(out.wait_for("info string chess: model", from, 0.0) >= 0);
  CHECK(vzero::testing::has(*game_by_id("chess").new_state(), move));

  // Pipelined (a batch gathered while the server evaluates another): a legal move; a bad value is
  // refused.
  uci.handle_line("setoption name Pipeline value true");
  uci.handle_line("position startpos moves e2e4");
  auto after = game_by_id("chess").new_state();
  vzero::testing::play(*after, {"e2e4"});
  CHECK(vzero::testing::has(*after, bestmove_after(out, uci, "go nodes 200")));
  from = out.size();
  uci.handle_line("setoption name Pipeline value maybe");
  CHECK(out.wait_for("info string Pipeline must be true or false", from, 1.0) >= 0);
}

TEST_CASE("frontend net: the JSON session plays and analyses with a model", "[frontend][net]") {
  register_net_players(ServerConfig{});
  const auto dir = vzero::testing::temp_dir("frontend-net-serve");
  write_tiny_checkpoint("attrition-3p", (dir / "attrition-3p.pt").string());
  JsonSession s({dir.string()});
  json r = json::parse(s.handle_line(
      R"({"cmd": "start", "variant": "attrition-3p", "search": {"simulations": 16}})"));
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["player"] ==
        "net:model=" + (dir / "attrition-3p.pt").string());  // auto finds the shipped model
  while (!r["terminal"].get<bool>()) {
    const json a = json::parse(s.handle_line(R"({"cmd": "analyse", "top": 2})"));
    REQUIRE(a["actions"].size() >= 1);
    CHECK(a["value"].size() == 3);
    CHECK((a["visits"] == 16 || a["proven"] == true));  // a proven root ends the search early
    r = json::parse(s.handle_line(R"({"cmd": "pick", "apply": true})"));
    REQUIRE_FALSE(r.contains("error"));
  }
  CHECK(r["returns"].size() == 3);
}
