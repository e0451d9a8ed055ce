// UCI engines as players: the move mapping against Debian's fairy-stockfish,
// forfeits of broken engines (a fake engine script), and no process left behind.
#include <dirent.h>
#include <sys/wait.h>

#include <algorithm>
#include <catch.hpp>
#include <cerrno>
#include <fstream>
#include <set>

#include "game/builtin/games.h"
#include "match/arena.h"
#include "match/game_record.h"
#include "match/uci_player.h"
#include "match/uci_process.h"
#include "test_util.h"

using namespace vzero;

namespace {

const std::string kFairy = "/usr/games/fairy-stockfish";
const std::string kFake = std::string(VZERO_TESTS_DIR) + "/fake_uci.sh";

// The legal moves fairy-stockfish lists ("go perft 1") for a variant's FEN.
std::set<std::string> engine_moves(const std::string& variant, const std::string& fen) {
  ChildProcess engine(kFairy, {});
  engine.send("uci");
  while (engine.read_line(10) != "uciok") {
  }
  engine.send("setoption name UCI_Variant value " + variant);
  engine.send("position fen " + fen);
  engine.send("go perft 1");
  std::set<std::string> moves;
  for (std::string line; (line = engine.read_line(10)).rfind("Nodes searched", 0) != 0;)
    if (line.find(": ") != std::string::npos) moves.insert(line.substr(0, line.find(':')));
  engine.stop("quit", 1.0);
  return moves;
}

std::set<std::string> vzero_moves(const std::string& variant, const std::string& fen) {
  const auto texts = testing::texts(*game_by_id(variant).new_state(fen));
  return {texts.begin(), texts.end()};
}

// Plays a match of spec (A) against random (B) on chess, recording to the file.
ArenaResult match(const std::string& variant, const std::string& spec, int games,
                  const std::string& record) {
  const Game& game = game_by_id(variant);
  ArenaConfig c;
  c.games = games;
  c.threads = 2;
  c.progress = false;
  c.record = record;
  c.names = {"engine", "random"};
  return play_arena(game, c, [&](int role, uint64_t seed) {
    PlayerContext p;
    p.game = &game;
    p.seed = seed;
    return make_player(role == 0 ? spec : "random", p);
  });
}

// Whether any process still belongs to one of these process groups.
bool any_in_groups(const std::set<long>& groups) {
  DIR* proc = opendir("/proc");
  bool found = false;
  while (dirent* e = readdir(proc)) {
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string text;
    if (!std::getline(stat, text) || text.rfind(')') == std::string::npos) continue;
    std::istringstream rest(text.substr(text.rfind(')') + 2));
    std::string state;
    long ppid = 0, pgrp = 0;
    rest >> state >> ppid >> pgrp;
    found |= groups.count(pgrp) > 0;
  }
  closedir(proc);
  return found;
}

}  // namespace

TEST_CASE("uci: vzero's legal moves are fairy-stockfish's, for chess, grand and Los Alamos",
          "[uci]") {
  const std::vector<std::pair<std::string, std::string>> positions = {
      {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"chess", "r3k2r/pppq1ppp/2n2n2/3pp3/1bB1P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 0 8"},  // castling
      {"chess", "r3k2r/pppq1ppp/2n2n2/3pp3/1bB1P3/2NP1N2/PPPBQPPP/R3K2R b KQkq - 0 8"},
      {"chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},  // en passant
      {"chess", "2r5/1P4k1/8/8/8/8/5p2/K7 w - - 0 1"},                             // promotions
      {"chess", "2r5/1P4k1/8/8/8/8/5p2/K3R3 b - - 0 1"},
      {"grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"},
      {"grand",
       "r8r/1Pbqkcabn1/pppppppppp/10/10/10/10/P1PPPPPPPP/1NB1KCABN1/R8R w - - 0 1"},  // 10th rank
      {"grand",
       "r8r/1nbqkcab2/pppppppp1P/10/10/10/10/PPPPPPPPP1/1NB1KCABN1/R8R w - - 0 1"},  // 8th to 9th
      {"grand",
       "r8r/1nbqkcabn1/ppp1pppppp/10/3pP5/10/10/PPPP1PPPPP/1NBQKCABN1/R8R w - d7 0 3"},  // en
                                                                                         // passant
      {"losalamos", "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"},
      {"losalamos", "1k4/3P2/6/2n3/1p1K2/6 w - - 0 1"},  // promotions
  };
  for (const auto& [variant, fen] : positions) {
    INFO(variant << " " << fen);
    const std::set<std::string> ours = vzero_moves(variant, fen);
    CHECK(ours.size() > 3);
    CHECK(ours == engine_moves(variant, fen));
  }
}

// Shogi's and minishogi's texts: drops "P@e5" (no pawn drop on a file with an
// unpromoted pawn), promotions "+" where optional, compulsory on the last ranks.
// The positions have no pawn drop that mates: fairy-stockfish 11.1 lists those
// (SH-10 forbids them; tests/test_shogi.cpp).
TEST_CASE("uci: vzero's legal moves are fairy-stockfish's, for shogi and minishogi",
          "[uci][shogi]") {
  const std::vector<std::pair<std::string, std::string>> positions = {
      {"shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"},
      {"shogi", "4k4/P8/2P6/5N3/9/9/9/9/4K4[SPpg] w - - 0 1"},  // compulsory and optional "+"
      {"shogi",
       "2s5l/1+P1pp3P/l1k3pg1/p2g1N1pp/1GnPBpsn1/Lp4SRG/4P1P2/2K5L/1+p1SB3r[Pnppp] w - - 4 88"},
      {"shogi",
       "l1r3n1l/3+R1kbs1/n2B4p/P1ppp1pP1/L1PP5/1P3G2P/2G1P1n2/3KG4/2S1S3+n[GPPPPPPls] b - - 1 55"},
      {"minishogi", "rbsgk/4p/5/P4/KGSBR[] w - - 0 1"},
      {"minishogi", "2k2/P4/5/5/K3R[Pb] w - - 0 1"},  // a8a9+ compulsory, e1e5 either
      {"minishogi", "2k2/P4/5/5/K3R[Pb] b - - 0 1"},
      {"minishogi", "2sb1/+P1k1r/1gB2/4r/1K3[PSg] b - - 0 32"},
      {"minishogi", "4k/g2sp/1G3/K1+B1r/3+p1[Rsb] b - - 1 17"},
  };
  int drops = 0, promotions = 0;
  for (const auto& [variant, fen] : positions) {
    INFO(variant << " " << fen);
    const std::set<std::string> ours = vzero_moves(variant, fen);
    CHECK(ours.size() > 3);
    CHECK(ours == engine_moves(variant, fen));
    for (const std::string& m : ours) {
      drops += m.find('@') != std::string::npos;
      promotions += m.back() == '+';
    }
  }
  CHECK(drops > 100);
  CHECK(promotions > 8);
}

TEST_CASE("uci: fairy-stockfish beats a random player without a forfeit", "[uci]") {
  for (const std::string variant : {"chess", "grand", "losalamos", "minishogi"}) {
    const std::string record = (testing::temp_dir("uci-" + variant) / "games.jsonl").string();
    const ArenaResult r = match(variant, "uci:cmd=" + kFairy + ",depth=1", 4, record);
    INFO(variant << " " << r.summary());
    CHECK(r.forfeits[0] == 0);
    CHECK(r.score >= 0.75);
    for (const MatchRecord& g : read_records(record)) CHECK(g.forfeit_seat == -1);
  }
}

TEST_CASE("uci: an engine that dies, hangs or plays an illegal move loses only its game", "[uci]") {
  const std::vector<std::pair<std::string, std::string>> modes = {
      {"die", "forfeit: engine died (exited with status 3)"},
      {"hang", "forfeit: engine silent for 0.5 s"},
      {"illegal", "forfeit: engine played an illegal move 'e2e5'"},
  };
  for (const auto& [mode, reason] : modes) {
    const auto dir = testing::temp_dir("uci-" + mode);
    const std::string pids = (dir / "pids").string(), record = (dir / "games.jsonl").string();
    const std::string spec =
        "uci:cmd=/bin/bash,arg=" + kFake + ",arg=" + mode + ",arg=" + pids + ",depth=1,timeout=0.5";
    const ArenaResult r = match("chess", spec, 4, record);
    INFO(mode << " " << r.summary());
    CHECK(r.games == 4);  // the match went on
    CHECK(r.losses == 4);
    CHECK(r.forfeits[0] == 4);
    CHECK(r.forfeits[1] == 0);
    const std::vector<MatchRecord> games = read_records(record);
    REQUIRE(games.size() == 4);
    for (const MatchRecord& g : games) {
      CHECK(g.reason == reason);
      REQUIRE(g.forfeit_seat >= 0);
      CHECK(g.roles[g.forfeit_seat] == 0);
      CHECK(g.result[g.forfeit_seat] == -1.0);
      CHECK(g.result[1 - g.forfeit_seat] == 1.0);
    }
    // No child left: none running, none a zombie, nothing of the engines' process groups.
    int status = 0;
    errno = 0;
    CHECK(waitpid(-1, &status, WNOHANG) == -1);
    CHECK(errno == ECHILD);
    std::set<long> groups;
    std::ifstream in(pids);
    for (long pid; in >> pid;) groups.insert(pid);
    CHECK(groups.size() == 5);  // the check before the match, then one engine per game
    CHECK_FALSE(any_in_groups(groups));
  }
}

TEST_CASE("uci: an engine that cannot start stops the match before it begins", "[uci]") {
  const auto dir = testing::temp_dir("uci-silent");
  const std::string spec = "uci:cmd=/bin/bash,arg=" + kFake + ",arg=silent,depth=1,timeout=0.5";
  CHECK_THROWS_WITH(match("chess", spec, 2, ""),
                    Catch::Contains("player engine cannot start a game: engine silent"));
  CHECK_THROWS_WITH(
      match("chess", "uci:cmd=/bin/bash,arg=" + kFake + ",arg=die,variant=shogi,depth=1", 2, ""),
      Catch::Contains("does not play variant 'shogi'"));
  int status = 0;
  CHECK(waitpid(-1, &status, WNOHANG) == -1);
}

TEST_CASE("uci: specs are checked", "[uci]") {
  PlayerContext p;
  p.game = &game_by_id("chess");
  CHECK_NOTHROW(
      make_player("uci:cmd=" + kFairy + ",depth=2,threads=1,hash=16,opt.Skill Level=3", p));
  CHECK_NOTHROW(make_player("uci:cmd=/bin/bash,arg=x,arg=y,movetime=50,variant=chess", p));
  CHECK_THROWS_WITH(make_player("uci:depth=2", p), Catch::Contains("needs cmd=PATH"));
  CHECK_THROWS_WITH(make_player("uci:cmd=/nonexistent/engine,depth=2", p),
                    Catch::Contains("not an executable"));
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy, p), Catch::Contains("exactly one of depth"));
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy + ",depth=2,nodes=5", p),
                    Catch::Contains("exactly one of depth"));
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy + ",depth=0", p),
                    Catch::Contains("depth must be"));
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy + ",depth=2,timeout=0", p),
                    Catch::Contains("timeout"));
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy + ",depth=2,ponder=1", p),
                    Catch::Contains("unknown option 'ponder'"));
  p.game = &game_by_id("attrition");
  CHECK_THROWS_WITH(make_player("uci:cmd=" + kFairy + ",depth=2", p),
                    Catch::Contains("no UCI mapping"));
  CHECK(uci_variant_map("grand")->engine_variant == "grand");
  CHECK(uci_variant_map("attrition") == nullptr);
}
