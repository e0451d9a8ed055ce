// Matches played in shares: parts joined from their records, and a match
// split across the ranks of a job (here threads standing in for MPI ranks)
// give the result of one process.
#include <catch.hpp>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "game/builtin/games.h"
#include "match/arena.h"
#include "match/game_record.h"
#include "match/match_group.h"
#include "test_util.h"

using namespace vzero;

namespace {

const std::string kA = "mcts:sims=30,evaluator=heuristic", kB = "random";

// The factory of A and B on game.
PlayerFactory players(const Game& game) {
  return [&game](int role, uint64_t seed) {
    PlayerContext p;
    p.game = &game;
    p.seed = seed;
    return make_player(role == 0 ? kA : kB, p);
  };
}

ArenaConfig base(int games) {
  ArenaConfig c;
  c.games = games;
  c.seed = 9;
  c.opening_plies = 2;
  c.threads = 2;
  c.progress = false;
  c.names = {kA, kB};
  c.keep_records = true;
  return c;
}

// Plays every part of parts and returns all their records.
std::vector<MatchRecord> play_parts(const Game& game, ArenaConfig c, int parts) {
  std::vector<MatchRecord> all;
  std::set<int> seen;
  c.parts = parts;
  for (c.part = 0; c.part < parts; ++c.part) {
    const ArenaResult r = play_arena(game, c, players(game));
    CHECK(r.games == int(r.records.size()));
    for (const MatchRecord& m : r.records) {
      CHECK((m.index / game.num_players()) % parts == c.part);  // the part's opening groups only
      CHECK(seen.insert(m.index).second);                       // and no game in two parts
      all.push_back(m);
    }
  }
  return all;
}

// The ranks of a job as threads of this process: all_gather meets them at a barrier.
class ThreadJob {
 public:
  explicit ThreadJob(int size) : size_(size), slots_(size_t(size)) {}
  int size() const { return size_; }
  std::vector<std::string> all_gather(int rank, const std::string& text) {
    std::unique_lock<std::mutex> lock(mutex_);
    const int round = round_;
    slots_[size_t(rank)] = text;
    if (++arrived_ == size_) {
      gathered_ = slots_;
      arrived_ = 0;
      ++round_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return round_ != round; });
    }
    return gathered_;
  }

 private:
  int size_;
  std::vector<std::string> slots_, gathered_;
  int arrived_ = 0, round_ = 0;
  std::mutex mutex_;
  std::condition_variable done_;
};

class ThreadRank : public MatchGroup {
 public:
  ThreadRank(ThreadJob& job, int rank) : job_(job), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return job_.size(); }
  std::vector<std::string> all_gather(const std::string& text) override {
    return job_.all_gather(rank_, text);
  }

 private:
  ThreadJob& job_;
  int rank_;
};

// Plays the match with `ranks` threads as the ranks of a job; every rank's result.
std::vector<ArenaResult> play_ranks(const Game& game, const ArenaConfig& c, int ranks) {
  ThreadJob job(ranks);
  std::vector<ArenaResult> results(static_cast<size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      ThreadRank group(job, r);
      results[size_t(r)] = play_arena_shared(game, c, players(game), &group);
    });
  for (std::thread& t : threads) t.join();
  return results;
}

}  // namespace

TEST_CASE("arena shares: the parts of a match, joined, give the one-process result",
          "[arena][shares]") {
  for (const auto& [variant, games] :
       {std::pair<std::string, int>{"attrition", 14}, {"attrition-3p", 9}}) {
    const Game& game = game_by_id(variant);
    const ArenaResult whole = play_arena(game, base(games), players(game));
    REQUIRE(int(whole.records.size()) == games);
    for (int parts : {2, 3, 5}) {
      INFO(variant << " in " << parts << " parts");
      const std::vector<MatchRecord> records = play_parts(game, base(games), parts);
      CHECK(int(records.size()) == games);
      const ArenaResult joined = join_arena(game, base(games), records);
      CHECK(joined.summary() == whole.summary());
      CHECK(joined.report() == whole.report());
      CHECK(joined.resumed == 0);
    }
  }
}

TEST_CASE(
    "arena shares: an SPRT judges the joined games as one process would; bad joins are refused",
    "[arena][shares]") {
  const Game& game = game_by_id("attrition");
  ArenaConfig c = base(60);
  c.sprt = parse_sprt("elo0=0,elo1=200");
  const ArenaResult whole = play_arena(game, c, players(game));
  REQUIRE(whole.sprt_result == SprtResult::kH1);
  REQUIRE(whole.games < 60);
  const std::vector<MatchRecord> records = play_parts(game, c, 3);
  CHECK(records.size() == 60);  // parts play their whole share: no part can judge alone
  const ArenaResult joined = join_arena(game, c, records);
  CHECK(joined.games == whole.games);
  CHECK(joined.llr == whole.llr);
  CHECK(joined.report() == whole.report());
  CHECK(joined.summary() == whole.summary());

  std::vector<MatchRecord> missing;  // a game before the decision left out
  for (const MatchRecord& r : records)
    if (r.index != 3) missing.push_back(r);
  CHECK_THROWS_WITH(join_arena(game, c, missing),
                    Catch::Contains("game 3 of match") && Catch::Contains("missing"));
  std::vector<MatchRecord> twice = records;  // one index, two different games
  twice.push_back(records.front());
  twice.back().moves.pop_back();
  CHECK_THROWS_WITH(join_arena(game, c, twice), Catch::Contains("two different games"));
  std::vector<MatchRecord> same = records;  // one index, the same game twice: joined once
  same.push_back(records.front());
  CHECK(join_arena(game, c, same).summary() == whole.summary());
  ArenaConfig other = c;
  other.seed = 10;
  CHECK_THROWS_WITH(join_arena(game, other, records),
                    Catch::Contains("played with other settings"));
}

TEST_CASE(
    "arena shares: a match across the ranks of a job gives every rank the whole result; rank 0 "
    "writes each game once, and a rerun resumes them all",
    "[arena][shares]") {
  const Game& game = game_by_id("attrition");
  const auto dir = testing::temp_dir("arena-ranks");
  ArenaConfig c = base(16);
  const ArenaResult whole = play_arena(game, c, players(game));
  c.record = (dir / "games.jsonl").string();
  c.pgn = (dir / "games.pgn").string();
  for (const ArenaResult& r : play_ranks(game, c, 3)) {
    CHECK(r.summary() == whole.summary());
    CHECK(r.report() == whole.report());
  }
  std::vector<MatchRecord> written = read_records(c.record);
  REQUIRE(written.size() == 16);
  std::set<int> indices;
  for (const MatchRecord& r : written) indices.insert(r.index);
  CHECK(indices.size() == 16);
  CHECK(*indices.rbegin() == 15);
  // The records are the one-process games.
  for (const MatchRecord& r : written) {
    const MatchRecord& w = whole.records[size_t(r.index)];
    CHECK(r.moves == w.moves);
    CHECK(r.result == w.result);
  }
  for (const ArenaResult& r : play_ranks(game, c, 2)) {
    CHECK(r.resumed == 16);
    CHECK(r.summary() == whole.summary());
  }
  CHECK(read_records(c.record).size() == 16);
}
