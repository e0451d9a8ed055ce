// The frontends' shared analysis and the UCI engine, driven line by line.
#include <algorithm>
#include <catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "frontend/analysis.h"
#include "frontend/uci.h"
#include "frontend_test_util.h"
#include "game/builtin/games.h"
#include "test_util.h"

using namespace vzero;
using vzero::testing::Lines;

namespace {

// The value of `key` in a UCI line ("nodes 400 ..." -> "400"); "" when absent.
std::string field(const std::string& line, const std::string& key) {
  std::istringstream in(line);
  for (std::string w; in >> w;)
    if (w == key && in >> w) return w;
  return "";
}

// The actions of a position reached from the start by moves, as text.
std::vector<std::string> legal_after(const std::string& variant,
                                     std::initializer_list<const char*> moves) {
  auto s = game_by_id(variant).new_state();
  vzero::testing::play(*s, moves);
  return vzero::testing::texts(*s);
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Sends `go`, REQUIREs a bestmove within `seconds` and returns its line; `from` is set to the
// line count before the command.
int go_until_bestmove(vzero::UciEngine& uci, Lines& out, const std::string& go, double seconds,
                      size_t& from) {
  from = out.size();
  uci.handle_line(go);
  const int best = out.wait_for("bestmove", from, seconds);
  REQUIRE(best >= 0);
  return best;
}

constexpr const char* kMateInOne = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";  // Ra8#

}  // namespace

TEST_CASE(
    "analysis: root statistics are sorted, carry priors and values, and pvs start at their action",
    "[frontend]") {
  const Game& game = game_by_id("grand");
  auto state = game.new_state();
  const Engine engine = basic_engine("heuristic", SearchConfig{}, 1);
  const RootStats s = analyse(engine, *state, 300, 3, 7);
  CHECK(s.player == 0);
  CHECK(s.visits == 300);
  CHECK(s.value.size() == 2);
  REQUIRE(s.actions.size() == state->legal_actions().size());
  int visits = 0;
  float priors = 0.0f;
  for (size_t i = 0; i < s.actions.size(); ++i) {
    visits += s.actions[i].visits;
    priors += s.actions[i].prior;
    if (i > 0) CHECK(s.actions[i - 1].visits >= s.actions[i].visits);
    if (s.actions[i].visits > 0) CHECK(s.actions[i].value.size() == 2);
  }
  CHECK(visits == 299);  // the root's own evaluation is the first visit
  CHECK(priors == Approx(1.0f).epsilon(1e-4));
  for (int i = 0; i < 3; ++i) {
    REQUIRE(!s.actions[i].pv.empty());
    CHECK(s.actions[i].pv.front() == s.actions[i].action);
  }
  CHECK(s.actions[3].pv.empty());
  CHECK(best_action(s) == s.actions[0].action);

  RootStats twice = s;
  merge_root_stats(twice, s);
  CHECK(twice.visits == 600);
  CHECK(twice.actions[0].visits == 2 * s.actions[0].visits);
  CHECK(twice.actions[0].value[0] == Approx(s.actions[0].value[0]));
}

TEST_CASE(
    "analysis: a proven win is the move to play, and a player without a search gets the fallback",
    "[frontend]") {
  const Game& game = game_by_id("chess");
  auto state = game.new_state(kMateInOne);
  const RootStats s = analyse(basic_engine("constant", SearchConfig{}, 1), *state, 200, 1, 1);
  CHECK(s.proven);
  CHECK(game.action_text(best_action(s)) == "a1a8");
  PlayerContext ctx;
  ctx.game = &game;
  const Engine random = engine_of(*make_player("random", ctx), SearchConfig{}, 1);
  CHECK(random.evaluator->name() == kFallbackEvaluator);
  const Engine mcts =
      engine_of(*make_player("mcts:sims=33,evaluator=rollout,root_noise=true", ctx), {}, 1);
  CHECK(mcts.evaluator->name() == "rollout");
  CHECK(mcts.search.simulations == 33);
  CHECK_FALSE(mcts.search.root_noise);  // analyses are deterministic
}

TEST_CASE("analysis: shipped models are found as <dir>/<variant>.pt", "[frontend]") {
  const auto dir = vzero::testing::temp_dir("shipped");
  std::ofstream(dir / "grand.pt") << "x";
  CHECK(shipped_model("grand", {"/nonexistent", dir.string()}) == (dir / "grand.pt").string());
  CHECK(shipped_model("chess", {dir.string()}).empty());
}

TEST_CASE("uci: score lines map values to centipawns and proven results to mate",
          "[frontend][uci]") {
  CHECK(centipawns(0.0f) == 0);
  CHECK(centipawns(0.5f) == 93);
  CHECK(centipawns(-0.5f) == -93);
  CHECK(centipawns(1.0f) == 1410);
  auto start = game_by_id("chess").new_state();
  const int e4 = start->text_to_action("e2e4");
  auto after = start->clone();
  after->apply(e4);
  const int e5 = after->text_to_action("e7e5");
  RootStats s;
  s.player = 0;
  s.value = {-1.0f, 1.0f};
  s.proven = true;
  s.actions.push_back({e4, 10, 0.5f, {-1.0f, 1.0f}, true, {e4, e5}});
  const std::string lost = info_line(*start, s, 1, InfoOptions{}, 10, 5);
  CHECK(lost ==
        "info depth 2 multipv 1 score mate -1 wdl 0 0 1000 nodes 10 nps 2000 time 5 pv e2e4 e7e5");
  s.actions[0].value = {0.5f, -0.5f};
  s.actions[0].proven = false;
  CHECK(field(info_line(*start, s, 1, InfoOptions{}, 10, 5), "cp") == "93");
  CHECK(info_line(*start, s, 1, InfoOptions{1, true}, 10, 5).find("wdl 500 500 0") !=
        std::string::npos);
  CHECK(info_line(*start, s, 1, InfoOptions{1, false}, 10, 5).find("wdl") == std::string::npos);
}

TEST_CASE(
    "uci: a scripted session (options, grand, position with moves, go nodes, infinite and stop)",
    "[frontend][uci]") {
  Lines out;
  UciEngine uci(out.sink(), {});
  REQUIRE(uci.handle_line("uci"));
  const int ok = out.wait_for("uciok", 0, 1.0);
  REQUIRE(ok >= 0);
  bool has_variant = false;
  for (const std::string& l : out.since(0))
    if (l.rfind("option name UCI_Variant type combo default chess", 0) == 0)
      has_variant = l.find(" var grand") != std::string::npos &&
                    l.find(" var chess") != std::string::npos &&
                    l.find(" var attrition-4p") == std::string::npos;
  CHECK(has_variant);
  bool has_temperature = false;
  for (const std::string& l : out.since(0))
    has_temperature |= l == "option name PolicyTemperature type spin default 150 min 10 max 1000";
  CHECK(has_temperature);
  uci.handle_line("setoption name PolicyTemperature value 100");

  uci.handle_line("setoption name UCI_Variant value grand");
  uci.handle_line("isready");
  REQUIRE(out.wait_for("readyok", 0, 5.0) >= 0);
  uci.handle_line("position startpos moves e3e4 e8e7 i2h4");
  size_t from = 0;
  int best = go_until_bestmove(uci, out, "go nodes 400", 60.0, from);
  const std::string move = field(out.at(best), "bestmove");
  CHECK(contains(legal_after("grand", {"e3e4", "e8e7", "i2h4"}), move));
  const int info = out.wait_for("info depth", from, 0.0);
  REQUIRE(info >= 0);
  CHECK(info < best);
  const std::string last_info = out.at(best - 1);
  CHECK(field(last_info, "nodes") == "400");
  CHECK(!field(last_info, "cp").empty());
  CHECK(!field(last_info, "pv").empty());
  CHECK(field(last_info, "wdl").size() > 0);

  // go infinite: no bestmove until stop, then at once.
  uci.handle_line("position startpos");
  from = out.size();
  uci.handle_line("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(out.wait_for("bestmove", from, 0.0) < 0);
  const auto stop_sent = Lines::Clock::now();
  uci.handle_line("stop");
  best = out.wait_for("bestmove", from, 2.0);
  REQUIRE(best >= 0);
  const double latency_ms =
      std::chrono::duration<double, std::milli>(out.time_of(best) - stop_sent).count();
  std::cout << "uci stop latency (go infinite, grand, heuristic): " << latency_ms << " ms"
            << std::endl;
  CHECK(latency_ms < 2000.0);  // the goal is 100 ms; CI machines are shared
  CHECK(contains(legal_after("grand", {}), field(out.at(best), "bestmove")));

  // quit while thinking returns at once.
  uci.handle_line("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto quit_sent = Lines::Clock::now();
  CHECK_FALSE(uci.handle_line("quit"));
  CHECK(std::chrono::duration<double>(Lines::Clock::now() - quit_sent).count() < 2.0);
}

TEST_CASE("uci: shogi and minishogi under fairy-stockfish's names, drops and promotions",
          "[frontend][uci][shogi]") {
  Lines out;
  UciEngine uci(out.sink(), {});
  uci.handle_line("uci");
  REQUIRE(out.wait_for("uciok", 0, 1.0) >= 0);
  bool offered = false;
  for (const std::string& l : out.since(0))
    offered |= l.rfind("option name UCI_Variant", 0) == 0 &&
               l.find(" var shogi") != std::string::npos &&
               l.find(" var minishogi") != std::string::npos;
  CHECK(offered);
  uci.handle_line("setoption name UCI_Variant value minishogi");
  // A rook promotes into the zone, the king steps, a pawn is dropped.
  const std::string fen = "2k2/P4/5/5/K3R[Pb] w - - 0 1";
  const size_t from = out.size();
  uci.handle_line("position fen " + fen + " moves e1e5+ c5b4 P@c3");
  uci.handle_line("go nodes 100");
  const int best = out.wait_for("bestmove", from, 30.0);
  REQUIRE(best >= 0);
  for (const std::string& l : out.since(from)) CHECK(l.find("illegal") == std::string::npos);
  auto s = game_by_id("minishogi").new_state(fen);
  vzero::testing::play(*s, {"e1e5+", "c5b4", "P@c3"});
  CHECK(contains(vzero::testing::texts(*s), field(out.at(best), "bestmove")));
}

TEST_CASE("uci: bad input gets info string and the engine carries on", "[frontend][uci]") {
  Lines out;
  UciEngine uci(out.sink(), {});
  const auto reply_to = [&](const std::string& line) {
    const size_t from = out.size();
    CHECK(uci.handle_line(line));
    const std::vector<std::string> r = out.since(from);
    return r.empty() ? std::string() : r.front();
  };
  for (const char* bad :
       {"foo", "setoption name Threads value 0", "setoption name Threads value x",
        "setoption name Nope value 1", "setoption name UCI_Variant value attrition-4p", "setoption",
        "setoption name PolicyTemperature value 5", "setoption name PolicyTemperature value 1.5",
        "position", "position fen 8/8/8 w - - 0 1", "position startpos e2e4",
        "position startpos moves e2e4 e7e5 e1e5", "go nodes abc", "\x01\xff garbage"}) {
    INFO(bad);
    CHECK(reply_to(bad).rfind("info string ", 0) == 0);
  }
  // The illegal move kept the moves before it; the bad go still searched.
  uci.wait();
  CHECK(out.wait_for("bestmove", 0, 30.0) >= 0);
  size_t from = out.size();
  uci.handle_line("d");
  bool after_e5 = false;
  for (const std::string& l : out.since(from))
    after_e5 |= l.find("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w") != std::string::npos;
  CHECK(after_e5);
  // A second go while searching is refused, and a game that is over has no move.
  from = out.size();
  uci.handle_line("go infinite");
  CHECK(reply_to("go nodes 5").rfind("info string already searching", 0) == 0);
  uci.handle_line("stop");
  uci.handle_line("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  from = out.size();
  uci.handle_line("go nodes 10");
  CHECK(out.wait_for("bestmove (none)", from, 1.0) >= 0);
}

TEST_CASE("uci: mate scores, MultiPV, Threads, time limits, models that cannot be used",
          "[frontend][uci]") {
  Lines out;
  const auto models = vzero::testing::temp_dir("uci-models");
  std::ofstream(models / "chess.pt") << "not a checkpoint";
  UciEngine uci(out.sink(), {models.string()});
  uci.handle_line("isready");  // Model auto finds chess.pt, which no net: kind can read here
  REQUIRE(out.wait_for("readyok", 0, 5.0) >= 0);
  CHECK(out.wait_for("info string cannot use model", 0, 0.0) >= 0);

  uci.handle_line("setoption name Model value none");
  uci.handle_line("setoption name MultiPV value 3");
  uci.handle_line("setoption name Threads value 2");
  uci.handle_line(std::string("position fen ") + kMateInOne);
  size_t from = out.size();
  uci.handle_line("go nodes 2000");
  const int best = out.wait_for("bestmove", from, 30.0);
  REQUIRE(best >= 0);
  CHECK(out.at(best) == "bestmove a1a8");
  std::vector<std::string> last;  // the final report: the last MultiPV lines
  for (int i = best - 3; i < best; ++i) last.push_back(out.at(i));
  CHECK(field(last[0], "multipv") == "1");
  CHECK(field(last[0], "mate") == "1");
  CHECK(field(last[2], "multipv") == "3");

  uci.handle_line("setoption name MultiPV value 1");
  uci.handle_line("ucinewgame");
  from = out.size();
  const auto t0 = Lines::Clock::now();
  uci.handle_line("go wtime 3000 btime 3000 winc 0 binc 0");
  REQUIRE(out.wait_for("bestmove", from, 30.0) >= 0);
  const double s = std::chrono::duration<double>(Lines::Clock::now() - t0).count();
  CHECK(s < 2.0);  // 3 s on the clock: about 0.1 s for this move
  from = out.size();
  uci.handle_line("go movetime 50");
  CHECK(out.wait_for("bestmove", from, 30.0) >= 0);
}

TEST_CASE("uci: the clock's share of a move", "[frontend][uci]") {
  std::vector<std::string> warnings;
  const auto limits = [&](const std::string& go, int side = 0) {
    return go_limits(uci_words(go), side, 0, [&](const std::string& w) { warnings.push_back(w); });
  };
  // 60 s left, no increment: seconds, not a fraction of one.
  SearchLimits l = limits("go wtime 60000 btime 60000");
  CHECK(l.time_ms >= 1500);
  CHECK(l.time_ms <= 5000);
  CHECK(l.nodes == 0);
  // Black's clock for black.
  CHECK(limits("go wtime 60000 btime 6000", 1).time_ms < l.time_ms / 5);
  // The increment is spent too.
  CHECK(limits("go wtime 60000 btime 60000 winc 2000 binc 2000").time_ms > l.time_ms + 1000);
  // Never the whole clock: little time with a big increment, the last move before a control.
  for (const char* go : {"go wtime 500 btime 500 winc 5000 binc 5000", "go wtime 100 btime 100",
                         "go wtime 1000 btime 1000 movestogo 1", "go wtime 31 btime 31",
                         "go wtime 0 btime 0 winc 100 binc 100"}) {
    INFO(go);
    const SearchLimits t = limits(go);
    const int64_t clock = std::stoll(uci_words(go)[2]);
    CHECK(t.time_ms >= 1);
    CHECK(t.time_ms <= std::max<int64_t>(1, (clock - 30) * 9 / 10));
  }
  CHECK(limits("go wtime 1000 btime 1000 movestogo 1").time_ms >= 500);
  // movetime caps the clock's share; nodes stay a separate limit; ponder is kept.
  CHECK(limits("go wtime 60000 btime 60000 movetime 100").time_ms <= 100);
  l = limits("go ponder wtime 60000 btime 60000 nodes 50");
  CHECK(l.ponder);
  CHECK(l.nodes == 50);
  CHECK(warnings.empty());
}

TEST_CASE("uci: tree reuse between moves, go ponder and ponderhit", "[frontend][uci]") {
  Lines out;
  UciEngine uci(out.sink(), {});
  uci.handle_line("setoption name Model value none");
  uci.handle_line("position startpos");
  size_t from = 0;
  int best = go_until_bestmove(uci, out, "go nodes 300", 30.0, from);
  const std::string move = field(out.at(best), "bestmove");
  // The next position of the same game: the subtree of the move is kept.
  const std::string reply = "e7e5";
  uci.handle_line("position startpos moves " + move);
  from = out.size();
  uci.handle_line("go nodes 50");
  best = out.wait_for("bestmove", from, 30.0);
  REQUIRE(best >= 0);
  int reused = out.wait_for("info string tree reuse: ", from, 0.0);
  REQUIRE(reused >= 0);
  CHECK(std::stoll(field(out.at(reused), "reuse:")) > 0);
  // Another game's position (or a new game) starts afresh.
  uci.handle_line("ucinewgame");
  uci.handle_line("position startpos moves e2e4");
  from = out.size();
  uci.handle_line("go nodes 20");
  REQUIRE(out.wait_for("bestmove", from, 30.0) >= 0);
  CHECK(out.wait_for("info string tree reuse", from, 0.0) < 0);
  // go ponder: no bestmove until ponderhit, then the limits count.
  uci.handle_line("position startpos moves e2e4 " + reply);
  from = out.size();
  uci.handle_line("go ponder nodes 40");
  CHECK(out.wait_for("bestmove", from, 0.3) < 0);
  uci.handle_line("ponderhit");
  CHECK(out.wait_for("bestmove", from, 30.0) >= 0);
  // stop while pondering: bestmove at once; ponderhit without a ponder search is answered.
  from = out.size();
  uci.handle_line("go ponder wtime 100000 btime 100000");
  CHECK(out.wait_for("bestmove", from, 0.3) < 0);
  uci.handle_line("stop");
  CHECK(out.wait_for("bestmove", from, 30.0) >= 0);
  from = out.size();
  uci.handle_line("ponderhit");
  CHECK(out.wait_for("info string ponderhit without", from, 5.0) >= 0);
}
