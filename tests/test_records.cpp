// Openings files, game records (JSON lines), resuming matches, and PGN
// checked by Debian's pgn-extract.
#include <atomic>
#include <catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "game/builtin/games.h"
#include "match/arena.h"
#include "match/game_record.h"
#include "match/openings.h"
#include "match/pgn.h"
#include "match/players.h"
#include "test_util.h"

using namespace vzero;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A match between two specs on a variant with the given settings.
ArenaResult match(const std::string& variant, const std::string& a, const std::string& b,
                  ArenaConfig c) {
  const Game& game = game_by_id(variant);
  c.progress = false;
  c.names = {a, b};
  return play_arena(game, c, [&](int role, uint64_t seed) {
    PlayerContext p;
    p.game = &game;
    p.seed = seed;
    return make_player(role == 0 ? a : b, p);
  });
}

}  // namespace

TEST_CASE("openings: lines of FENs and moves, comments, and errors naming the line", "[records]") {
  const Game& chess = game_by_id("chess");
  const auto dir = testing::temp_dir("openings");
  write(dir / "good.txt",
        "# two openings and a blank line\n"
        "\n"
        "moves: e2e4 e7e5   # the open game\n"
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 moves: g1f3\n");
  const std::vector<Opening> o = read_openings(chess, (dir / "good.txt").string());
  REQUIRE(o.size() == 3);
  CHECK(o[0].fen.empty());
  CHECK(o[0].moves == std::vector<std::string>{"e2e4", "e7e5"});
  CHECK(o[1].moves.empty());
  CHECK(o[2].moves == std::vector<std::string>{"g1f3"});
  // Both ways to write the same position reach it.
  CHECK(play_opening(chess, o[0])->hash() == play_opening(chess, o[1])->hash());
  for (const Opening& x : o) CHECK(parse_opening(chess, x.text()) == x);

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"moves: e2e4\nmoves: e7e5\n", ":2: opening move 'e7e5'"},
      {"# fine\nmoves: e2e4\n8/8/8 w - - 0 1\n", ":3: bad FEN"},
      {"moves: f2f3 e7e5 g2g4 d8h4\n", ":1: the game is over after this opening"},
      {"moves:\n", ":1: 'moves:' without moves"},
      {"moves: e2e4 zz\n", ":1: opening move 'zz'"},
      {"# nothing\n\n", "has no openings"},
  };
  for (const auto& [text, message] : bad) {
    write(dir / "bad.txt", text);
    CHECK_THROWS_WITH(read_openings(chess, (dir / "bad.txt").string()),
                      Catch::Contains((dir / "bad.txt").string()) && Catch::Contains(message));
  }
  CHECK_THROWS_WITH(read_openings(chess, (dir / "missing.txt").string()),
                    Catch::Contains("cannot read"));
}

TEST_CASE("openings: random openings are seeded, legal, and leave a game to play", "[records]") {
  const Game& game = game_by_id("attrition");
  const Opening a = random_opening(game, 6, 42), b = random_opening(game, 6, 42),
                c = random_opening(game, 6, 43);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a.moves.size() <= 6);
  CHECK_FALSE(play_opening(game, a)->is_terminal());
}

TEST_CASE("openings: balanced ones are measured, distinct, most balanced first", "[records]") {
  const Game& game = game_by_id("attrition");
  BalanceConfig c;
  c.plies = 2;
  c.candidates = 12;
  c.keep = 5;
  c.simulations = 50;
  c.games = 2;
  const std::vector<MeasuredOpening> kept = balanced_openings(game, c);
  REQUIRE(kept.size() == 5);
  std::set<uint64_t> positions;
  for (size_t i = 0; i < kept.size(); ++i) {
    const MeasuredOpening& m = kept[i];
    CHECK(m.opening.moves.size() == 2);
    positions.insert(play_opening(game, m.opening)->hash());
    REQUIRE(m.values.size() == 2);
    CHECK(m.values[0] == Approx(-m.values[1]));  // mean returns of zero-sum games
    CHECK(m.spread == Approx(std::abs(m.values[0] - m.values[1])));
    if (i > 0) CHECK(kept[i - 1].spread <= m.spread);
  }
  CHECK(positions.size() == 5);
  const std::vector<MeasuredOpening> again = balanced_openings(game, c);
  for (size_t i = 0; i < kept.size(); ++i) CHECK(again[i].opening == kept[i].opening);
  c.games = 0;  // by the root value of one search
  for (const MeasuredOpening& m : balanced_openings(game_by_id("chess"), c))
    CHECK(m.opening.moves.size() == 2);
  c.keep = 13;
  CHECK_THROWS_WITH(balanced_openings(game, c), Catch::Contains("keep"));
}

TEST_CASE("records: a game record survives JSON exactly; bad lines are named", "[records]") {
  MatchRecord r;
  r.match = "a \"quoted\" match";
  r.index = 7;
  r.variant = "attrition-3p";
  r.players = {"mcts:sims=10", "random", "random"};
  r.roles = {0, 1, 1};
  r.opening = {"8/8/8/8/8/8/8/8 0 0 111 - 0", {"N@d4"}};
  r.moves = {"N@a1", "N@h8", "d4e6"};
  r.result = {1.0, 0.0, -1.0};
  r.reason = "forfeit: engine died (exited with status 3)";
  r.forfeit_seat = 2;
  r.plies = 3;
  r.seconds = 0.25;
  r.seed = 18446744073709551615ull;
  r.time = "2024-05-06T07:08:09Z";
  const std::string line = to_json_line(r);
  CHECK(line.find('\n') == std::string::npos);
  const MatchRecord back = parse_json_line(line);
  CHECK(to_json_line(back) == line);
  CHECK(back.seed == r.seed);
  CHECK(back.opening == r.opening);
  CHECK(back.result == r.result);

  const auto dir = testing::temp_dir("records");
  const fs::path file = dir / "games.jsonl";
  // A last line cut short (a killed writer) is not a record, and appending starts a clean line.
  write(file, line + "\n" + line.substr(0, 40));
  CHECK(read_records(file.string()).size() == 1);
  AppendFile(file.string()).append(line + "\n");
  CHECK(read_records(file.string()).size() == 2);
  write(file, line + "\n{\"match\": 3}\n");
  CHECK_THROWS_WITH(read_records(file.string()),
                    Catch::Contains(file.string() + ":2: bad game record"));
  write(file, line + "\nnot json\n");
  CHECK_THROWS_WITH(read_records(file.string()), Catch::Contains(":2: bad game record"));
  CHECK(read_records((dir / "none.jsonl").string()).empty());
  CHECK_THROWS_WITH(read_records(dir.string()), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(AppendFile(dir.string()), Catch::Contains("is a directory"));
}

TEST_CASE("records: a games file that appears while it is read is no games yet, never an error",
          "[records]") {
  // The ranks of a job read the games file while rank 0 creates it (regression: the file
  // appearing between a failed open and the check for it was refused as unreadable).
  const auto dir = testing::temp_dir("appearing");
  int refused = 0, nonempty = 0;
  for (int i = 0; i < 200; ++i) {
    const std::string path = (dir / ("games-" + std::to_string(i) + ".jsonl")).string();
    std::atomic<bool> created{false};
    std::thread reader([&] {
      for (bool last = false; !last;) {
        last = created.load();
        try {
          if (!read_records(path).empty()) ++nonempty;
        } catch (const Error&) {
          ++refused;
        }
      }
    });
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    std::ofstream{path};
    created = true;
    reader.join();
  }
  CHECK(refused == 0);
  CHECK(nonempty == 0);
}

TEST_CASE("records: a match resumes from its games file and ends as if never stopped",
          "[records]") {
  const auto dir = testing::temp_dir("resume");
  const std::string file = (dir / "games.jsonl").string();
  ArenaConfig c;
  c.seed = 5;
  c.opening_plies = 2;
  c.threads = 2;
  c.games = 6;
  c.record = file;
  const ArenaResult first = match("attrition", "mcts:sims=30,evaluator=heuristic", "random", c);
  CHECK(first.resumed == 0);
  CHECK(read_records(file).size() == 6);
  c.games = 10;
  const ArenaResult resumed = match("attrition", "mcts:sims=30,evaluator=heuristic", "random", c);
  CHECK(resumed.resumed == 6);
  CHECK(read_records(file).size() == 10);
  c.record = "";
  const ArenaResult whole = match("attrition", "mcts:sims=30,evaluator=heuristic", "random", c);
  CHECK(resumed.summary() == whole.summary());
  CHECK(resumed.pentanomial.pairs == whole.pentanomial.pairs);
  // Same index, same game: the records of the resumed run equal a fresh run's.
  const std::vector<MatchRecord> games = read_records(file);
  for (const MatchRecord& g : games) {
    CHECK(g.match == "mcts:sims=30,evaluator=heuristic vs random");
    CHECK(g.roles[g.index % 2] == 0);
    CHECK(g.players[g.index % 2] == "mcts:sims=30,evaluator=heuristic");
  }
  // Another seed is another match: refused rather than mixed.
  c.record = file;
  c.seed = 6;
  CHECK_THROWS_WITH(match("attrition", "mcts:sims=30,evaluator=heuristic", "random", c),
                    Catch::Contains("played with other settings"));
  c.match = "second";  // under another name it is a new match in the same file
  CHECK(match("attrition", "mcts:sims=30,evaluator=heuristic", "random", c).resumed == 0);
}

TEST_CASE("records: openings are played once in each seat order", "[records]") {
  const Game& chess = game_by_id("chess");
  ArenaConfig c;
  c.games = 6;
  c.openings = {parse_opening(chess, "moves: e2e4"), parse_opening(chess, "moves: d2d4 d7d5"),
                parse_opening(chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")};
  const auto dir = testing::temp_dir("seats");
  c.record = (dir / "games.jsonl").string();
  match("chess", "random", "random", c);
  const std::vector<MatchRecord> games = read_records(c.record);
  REQUIRE(games.size() == 6);
  for (const MatchRecord& g : games) {
    CHECK(g.opening == c.openings[g.index / 2]);
    CHECK(g.roles == (g.index % 2 == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0}));
  }
}

TEST_CASE("records: SPRT stops on pairs in index order, the same with any thread count",
          "[records]") {
  ArenaConfig c;
  c.games = 200;
  c.sprt = parse_sprt("elo0=0,elo1=200");
  c.opening_plies = 2;
  c.threads = 1;
  const ArenaResult one = match("attrition", "mcts:sims=100,evaluator=heuristic", "random", c);
  c.threads = 3;
  const ArenaResult three = match("attrition", "mcts:sims=100,evaluator=heuristic", "random", c);
  CHECK(one.sprt_result == SprtResult::kH1);
  CHECK(one.games < 200);
  CHECK(one.games % 2 == 0);
  CHECK(one.games == three.games);
  CHECK(one.llr == three.llr);
  CHECK(one.summary() == three.summary());
  CHECK(one.report() == three.report());
  CHECK(one.report().back().rfind("sprt llr ", 0) == 0);
  CHECK(one.report().back().find("result H1") != std::string::npos);
}

TEST_CASE("pgn: SAN of special moves", "[records]") {
  const Game& chess = game_by_id("chess");
  const auto san_of = [&](const std::string& fen, const std::string& move) {
    auto s = chess.new_state(fen);
    return san(*s, s->text_to_action(move));
  };
  const std::string castle = "r3k2r/pppq1ppp/2n2n2/3pp3/1bB1P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 0 8";
  CHECK(san_of(castle, "e1g1") == "O-O");
  CHECK(san_of(castle, "e1c1") == "O-O-O");
  CHECK(san_of(castle, "c4d5") == "Bxd5");
  CHECK(san_of(castle, "e4d5") == "exd5");
  CHECK(san_of(castle, "f3e5") == "Nxe5");
  CHECK(san_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6") == "exf6");
  CHECK(san_of("2r5/1P4k1/8/8/8/8/5p2/K7 w - - 0 1", "b7c8n") == "bxc8=N");
  CHECK(san_of("2r5/1P4k1/8/8/8/8/5p2/K7 w - - 0 1", "b7b8q") == "b8=Q");
  CHECK(san_of("k7/8/8/8/8/8/8/KR1R4 w - - 0 1", "b1c1") == "Rbc1");
  CHECK(san_of("7k/8/8/8/8/8/R7/KR6 w - - 0 1", "a2a7") == "Ra7");
  CHECK(san_of("7k/8/8/8/R7/8/R7/K7 w - - 0 1", "a2a3") == "R2a3");
  CHECK(san_of("7k/8/8/8/8/8/1R6/KR6 w - - 0 1", "b2a2") == "Ra2");
  CHECK(san_of("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1", "e1e8") == "Re8#");
  const Game& grand = game_by_id("grand");
  auto g =
      grand.new_state("r8r/1Pbqkcabn1/pppppppppp/10/10/10/10/P1PPPPPPPP/1NB1KCABN1/R8R w - - 0 1");
  CHECK(san(*g, g->text_to_action("b9a10q")) == "bxa10=Q");
}

// Random chess games from the start and from FENs (castling, en passant and
// promotions on the way), written as PGN, read and re-written by Debian's
// pgn-extract without an error, converted back to UCI moves, and replayed in
// vzero to the recorded result.
TEST_CASE("pgn: pgn-extract accepts vzero's chess PGN, and its moves replay to the result",
          "[records][pgn]") {
  const Game& chess = game_by_id("chess");
  const auto dir = testing::temp_dir("pgn");
  ArenaConfig c;
  c.games = 12;
  c.openings = {
      parse_opening(chess, "moves: e2e4 d7d5"),
      parse_opening(chess, "r3k2r/pppq1ppp/2n2n2/3pp3/1bB1P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 0 8"),
      parse_opening(chess, "4k3/1P4p1/8/3pP3/8/8/6p1/R3K3 w Q d6 0 40"),
      parse_opening(chess,
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 moves: e7e5 g1f3")};
  c.record = (dir / "games.jsonl").string();
  c.pgn = (dir / "games.pgn").string();
  match("chess", "mcts:sims=20,evaluator=heuristic", "random", c);
  const std::vector<MatchRecord> games = read_records(c.record);
  REQUIRE(games.size() == 12);

  const fs::path out = dir / "uci.pgn", log = dir / "log.txt";
  const std::string cmd = "/usr/games/pgn-extract -Wuci -C -N -V -w10000 --fixresulttags -o " +
                          out.string() + " " + c.pgn + " 2> " + log.string();
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string diagnostics = slurp(log);
  INFO(diagnostics);
  CHECK(diagnostics.find("12 games matched out of 12") != std::string::npos);
  for (const char* bad : {"Failed", "rror", "llegal", "nknown", "fixed"})
    CHECK(diagnostics.find(bad) == std::string::npos);

  // Each game of the output: its FEN tag, its result tag, and the moves line.
  std::istringstream text(slurp(out));
  std::vector<std::vector<std::string>> moves;
  std::vector<std::string> fens, results;
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("[Event ", 0) == 0) fens.emplace_back(), results.emplace_back();
    if (line.rfind("[FEN \"", 0) == 0) fens.back() = line.substr(6, line.size() - 8);
    if (line.rfind("[Result \"", 0) == 0) results.back() = line.substr(9, line.size() - 11);
    if (!line.empty() && line[0] != '[') {
      std::istringstream words(line);
      moves.emplace_back();
      for (std::string w; words >> w;) moves.back().push_back(w);
    }
  }
  REQUIRE(moves.size() == 12);
  REQUIRE(fens.size() == 12);
  for (size_t i = 0; i < games.size(); ++i) {
    const MatchRecord& g = games[i];
    INFO("game " << g.index);
    CHECK(fens[i] == g.opening.fen);
    std::unique_ptr<GameState> s = chess.new_state(fens[i]);
    const std::string result = moves[i].back();
    moves[i].pop_back();
    for (std::string m : moves[i]) {
      m.back() =
          char(std::tolower(static_cast<unsigned char>(m.back())));  // pgn-extract writes "e7e8Q"
      s->apply(s->text_to_action(m));
    }
    CHECK(int(moves[i].size()) == int(g.opening.moves.size()) + g.plies);
    CHECK(s->is_terminal());
    CHECK(s->returns() == g.result);
    CHECK(s->end_reason() == g.reason);
    CHECK(result == results[i]);
    CHECK(result == (g.result[0] > g.result[1]   ? "1-0"
                     : g.result[0] < g.result[1] ? "0-1"
                                                 : "1/2-1/2"));
  }
}

TEST_CASE("records: a match game ends as a draw at its first dead position", "[records]") {
  // In 007 bare kings play on by the rules (to the fifty-move rule); the match scores the draw
  // that must follow at once (GameState::dead_draw). Kxe2 is White's only move.
  const Game& game = game_by_id("007");
  ArenaConfig c;
  c.games = 2;
  c.openings = {parse_opening(game, "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")};
  c.keep_records = true;
  c.progress = false;
  const ArenaResult r = play_arena(game, c, [&](int, uint64_t seed) {
    PlayerContext p;
    p.game = &game;
    p.seed = seed;
    return make_player("random", p);
  });
  REQUIRE(r.records.size() == 2);
  for (const MatchRecord& g : r.records) {
    CHECK(g.moves == std::vector<std::string>{"e1e2"});
    CHECK(g.reason == "dead-position");
    CHECK(g.result == std::vector<double>{0.0, 0.0});
  }
  CHECK(r.draws == 2);
}
