// The match runner: games in index order on a few threads, records, resume, SPRT.
#include "match/arena.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "game/zobrist.h"
#include "match/game_record.h"
#include "match/pgn.h"
#include "util/error.h"

namespace vzero {

namespace {

// What the statistics need of one game, for A.
struct Outcome {
  int seat = 0;        // A's seat
  double score = 0.0;  // 1 win, 0.5 shared best, 0 loss
  double rank = 1.0;   // 1 + seats ahead + half the seats level
  int plies = 0;
  int forfeit_role = -1;  // the role that forfeited, -1 none
};

Outcome outcome_of(const MatchRecord& r) {
  Outcome o;
  const int n = int(r.result.size());
  o.seat = int(std::find(r.roles.begin(), r.roles.end(), 0) - r.roles.begin());
  const double mine = r.result[o.seat];
  int above = 0, level = 0;
  for (int s = 0; s < n; ++s) {
    above += r.result[s] > mine;
    level += s != o.seat && r.result[s] == mine;
  }
  o.score = above > 0 ? 0.0 : level == 0 ? 1.0 : 0.5;
  o.rank = 1.0 + above + 0.5 * level;
  o.plies = r.plies;
  o.forfeit_role = r.forfeit_seat >= 0 ? r.roles[r.forfeit_seat] : -1;
  return o;
}

// The match's name in the games file.
std::string match_name(const ArenaConfig& config) {
  return config.match.empty() ? config.names[0] + " vs " + config.names[1] : config.match;
}

// The fixed parts of game i: opening, seats and names.
struct GamePlan {
  const Game& game;
  const ArenaConfig& config;
  std::string match;

  int seats() const { return game.num_players(); }
  Opening opening(int index) const {
    const int group = index / seats();
    if (!config.openings.empty()) return config.openings[group % config.openings.size()];
    if (config.opening_plies == 0) return {};
    return random_opening(game, config.opening_plies,
                          config.seed ^ (uint64_t(group) * 0xD1B54A32D192ED03ull));
  }
  std::vector<int> roles(int index) const {
    std::vector<int> r(seats(), 1);
    r[index % seats()] = 0;
    return r;
  }
  std::vector<std::string> players(int index) const {
    std::vector<std::string> p;
    for (int role : roles(index)) p.push_back(config.names[role]);
    return p;
  }
  // Whether game i is in the share this process plays: its opening group's turn, round robin.
  bool mine(int index) const { return (index / seats()) % config.parts == config.part; }
  // Throws Error unless record r fits this match: variant, seats, names, seed, and the opening when
  // asked.
  void check_record(const MatchRecord& r, bool with_opening, const std::string& where) const {
    const bool same = r.variant == game.id() && r.roles == roles(r.index) &&
                      r.players == players(r.index) && r.seed == config.seed &&
                      (!with_opening || r.opening == opening(r.index));
    check(same, where + ": game " + std::to_string(r.index) + " of match '" + match +
                    "' was played with other settings (variant, players, opening or seed); "
                    "use another games file or match name");
  }
};

// The SPRT of a 2-player match over complete pairs in index order, judged as far as the outcomes
// go.
class OrderedSprt {
 public:
  OrderedSprt(const std::optional<SprtConfig>& sprt, int games) : sprt_(sprt), games_(games) {}
  // Judges the complete pairs after those judged so far, until the test decides; true once it has.
  bool advance(const std::vector<std::optional<Outcome>>& outcomes) {
    while (sprt_ && decision == SprtResult::kInconclusive && (judged_ + 1) * 2 <= games_) {
      const int first = judged_ * 2;
      if (!outcomes[first] || !outcomes[first + 1]) break;
      pairs_.add(outcomes[first]->score, outcomes[first + 1]->score);
      ++judged_;
      llr = sprt_llr(*sprt_, pairs_);
      decision = sprt_decide(*sprt_, llr);
    }
    return decision != SprtResult::kInconclusive;
  }
  // The games the result covers: those up to the decision, else all.
  int counted() const { return decision != SprtResult::kInconclusive ? judged_ * 2 : games_; }
  double llr = 0.0;
  SprtResult decision = SprtResult::kInconclusive;

 private:
  std::optional<SprtConfig> sprt_;
  int games_;
  int judged_ = 0;
  Pentanomial pairs_;
};

// Plays game i; a forfeit ends it with the forfeiting seat last.
MatchRecord play_one(const GamePlan& plan, const PlayerFactory& make, int index) {
  const auto start = std::chrono::steady_clock::now();
  MatchRecord r;
  r.match = plan.match;
  r.index = index;
  r.variant = plan.game.id();
  r.roles = plan.roles(index);
  r.players = plan.players(index);
  r.opening = plan.opening(index);
  r.seed = plan.config.seed;
  const int n = plan.seats();
  uint64_t seed_state = plan.config.seed * 0x9E3779B97F4A7C15ull + uint64_t(index);
  std::vector<std::unique_ptr<Player>> seats(n);
  for (int s = 0; s < n; ++s) seats[s] = make(r.roles[s], splitmix64(seed_state));

  std::unique_ptr<GameState> state = play_opening(plan.game, r.opening);
  int acting = 0;
  try {
    for (acting = 0; acting < n; ++acting) seats[acting]->new_game(*state);
    // A dead position (nobody can win any more) is scored at once as the draw it will be.
    while (!state->is_terminal() && !state->dead_draw()) {
      acting = state->current_player();
      const int action = seats[acting]->choose(*state);
      r.moves.push_back(state->action_to_text(action));
      state->apply(action);
      for (auto& p : seats) p->observe(action);
    }
    GameEnd end = game_end(*state);
    r.result = std::move(end.returns);
    r.reason = std::move(end.reason);
  } catch (const PlayerForfeit& e) {
    r.forfeit_seat = acting;
    r.result.assign(n, 1.0 / (n - 1));
    r.result[acting] = -1.0;
    r.reason = std::string("forfeit: ") + e.what();
  }
  seats.clear();  // engines stop here, inside the game's time
  r.plies = int(r.moves.size());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.time = utc_now();
  return r;
}

// The games of this match already in the games file, by index (checked against the plan).
std::map<int, MatchRecord> recorded_games(const GamePlan& plan) {
  std::map<int, MatchRecord> out;
  if (plan.config.record.empty()) return out;
  for (MatchRecord& r : read_records(plan.config.record)) {
    if (r.match != plan.match || r.index >= plan.config.games) continue;
    plan.check_record(r, true, plan.config.record);
    if (plan.mine(r.index)) out[r.index] = std::move(r);
  }
  return out;
}

// The statistics of the outcomes (all present) of 2-player pairs or single games.
ArenaResult summarize(const std::vector<Outcome>& games, int seats) {
  ArenaResult r;
  r.games = int(games.size());
  r.score_by_seat.assign(seats, 0.0);
  r.by_seat.assign(seats, Trinomial{});
  Trinomial all;
  double plies = 0.0, rank = 0.0;
  for (const Outcome& o : games) {
    all.add(o.score);
    r.by_seat[o.seat].add(o.score);
    r.score_by_seat[o.seat] += o.score;
    plies += o.plies;
    rank += o.rank;
    if (o.forfeit_role >= 0) ++r.forfeits[o.forfeit_role];
  }
  for (int s = 0; s < seats; ++s)
    if (r.by_seat[s].games() > 0) r.score_by_seat[s] /= r.by_seat[s].games();
  const bool paired = seats == 2 && r.games >= 2 && r.games % 2 == 0;
  if (paired)
    for (size_t i = 0; i + 1 < games.size(); i += 2)
      r.pentanomial.add(games[i].score, games[i + 1].score);
  r.estimate = paired ? estimate_pentanomial(r.pentanomial) : estimate_trinomial(all);
  r.wins = all.wins;
  r.draws = all.draws;
  r.losses = all.losses;
  r.score = r.estimate.score;
  r.elo = r.estimate.elo;
  r.margin = r.estimate.margin;
  r.score_lo = r.estimate.score_lo;
  r.score_hi = r.estimate.score_hi;
  r.mean_plies = r.games ? plies / r.games : 0.0;
  r.average_rank = r.games ? rank / r.games : 0.0;
  return r;
}

// The result over the games among the first `counted` that are present (all, or a share's),
// with the SPRT's state and the records; read_back: the indices resumed from a games file.
ArenaResult result_of(const GamePlan& plan, const std::vector<std::optional<Outcome>>& outcomes,
                      std::vector<std::optional<MatchRecord>>& records,
                      const std::set<int>& read_back, const std::optional<SprtConfig>& sprt,
                      const OrderedSprt& judge) {
  const int counted = judge.counted();
  std::vector<Outcome> games;
  for (int i = 0; i < counted; ++i)
    if (outcomes[i]) games.push_back(*outcomes[i]);
  ArenaResult result = summarize(games, plan.seats());
  for (int i = 0; i < counted; ++i)
    if (records[i]) result.records.push_back(std::move(*records[i]));
  for (int i : read_back)
    if (i < counted) result.read_back.insert(i);
  result.resumed = int(result.read_back.size());
  result.sprt = sprt;
  result.llr = judge.llr;
  result.sprt_result = judge.decision;
  return result;
}

}  // namespace

std::string ArenaResult::summary() const {
  char buf[200];
  std::snprintf(buf, sizeof buf, "score %.3f wins %d draws %d losses %d elo %.0f +- %.0f", score,
                wins, draws, losses, elo, margin);
  return buf;
}

std::vector<std::string> ArenaResult::report() const {
  std::vector<std::string> lines;
  char buf[300];
  std::snprintf(buf, sizeof buf, "games %d resumed %d mean_plies %.1f forfeits_a %d forfeits_b %d",
                games, resumed, mean_plies, forfeits[0], forfeits[1]);
  lines.push_back(buf);
  for (size_t s = 0; s < by_seat.size(); ++s) {
    std::snprintf(buf, sizeof buf, "seat %zu: a_wins %d draws %d losses %d score %.3f", s,
                  by_seat[s].wins, by_seat[s].draws, by_seat[s].losses, score_by_seat[s]);
    lines.push_back(buf);
  }
  if (estimate.paired) {
    const auto& p = pentanomial.pairs;
    std::snprintf(buf, sizeof buf, "pentanomial %d %d %d %d %d (pairs scoring 0, 0.5, 1, 1.5, 2)",
                  p[0], p[1], p[2], p[3], p[4]);
    lines.push_back(buf);
  }
  const std::string nelo =
      estimate.sd > 0 ? std::to_string(int(std::lround(estimate.nelo))) : "n/a";
  std::snprintf(buf, sizeof buf,
                "elo %.1f +- %.1f (95%%, %s) los %.4f nelo %s score %.4f [%.4f, %.4f]",
                estimate.elo, estimate.margin, estimate.paired ? "pentanomial" : "trinomial",
                estimate.los, nelo.c_str(), estimate.score, estimate.score_lo, estimate.score_hi);
  lines.push_back(buf);
  if (by_seat.size() > 2) {
    std::snprintf(buf, sizeof buf, "average_rank %.3f", average_rank);
    lines.push_back(buf);
  }
  if (sprt) lines.push_back(sprt_line(*sprt, llr, sprt_result));
  return lines;
}

ArenaResult play_arena(const Game& game, const ArenaConfig& config, const PlayerFactory& make) {
  check(config.games >= 1, "arena: games must be at least 1");
  check(config.threads >= 1 && config.threads <= 256, "arena: threads must be in [1, 256]");
  check(config.parts >= 1 && config.part >= 0 && config.part < config.parts,
        "arena: part must be in [0, parts)");
  const int n = game.num_players();
  check(!config.sprt || n == 2, "arena: an SPRT needs a 2-player variant");
  check(config.pgn.empty() || n == 2, "arena: PGN needs a 2-player variant");
  const GamePlan plan{game, config, match_name(config)};

  // A player that cannot even start a game stops the match before it begins.
  for (int role = 0; role < 2; ++role) {
    try {
      make(role, 0)->new_game(*play_opening(game, plan.opening(0)));
    } catch (const PlayerForfeit& e) {
      throw Error("player " + config.names[role] + " cannot start a game: " + e.what());
    }
  }
  std::map<int, MatchRecord> done = recorded_games(plan);
  std::unique_ptr<AppendFile> record, pgn;
  if (!config.record.empty() && config.write_files)
    record = std::make_unique<AppendFile>(config.record);
  if (!config.pgn.empty() && config.write_files) pgn = std::make_unique<AppendFile>(config.pgn);

  // A share is judged only when joined with the others.
  const std::optional<SprtConfig> sprt = config.parts == 1 ? config.sprt : std::nullopt;
  int share_games = 0;
  for (int i = 0; i < config.games; ++i) share_games += plan.mine(i);
  std::vector<std::optional<Outcome>> outcomes(config.games);
  std::vector<std::optional<MatchRecord>> records(config.games);
  std::mutex mutex;  // guards outcomes, records, the judge and the progress line
  int finished = 0;  // games finished
  OrderedSprt judge(sprt, config.games);
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  const bool tty = isatty(2);
  const auto finish = [&](int i, const MatchRecord& r, bool fresh) {
    if (fresh && record) record->append(to_json_line(r) + "\n");
    if (fresh && pgn) pgn->append(to_pgn(game, r));
    std::lock_guard<std::mutex> lock(mutex);
    outcomes[i] = outcome_of(r);
    if (config.keep_records) records[i] = r;
    ++finished;
    if (judge.advance(outcomes)) stop = true;
    if (fresh && config.progress &&
        (tty || finished == share_games || finished % std::max(1, share_games / 10) == 0)) {
      double sum = 0.0;
      int k = 0;
      for (const auto& o : outcomes)
        if (o) sum += o->score, ++k;
      std::fprintf(stderr, "%sgames %d/%d score %.3f", tty ? "\r" : "", finished, share_games,
                   sum / k);
      if (sprt) std::fprintf(stderr, " llr %.2f", judge.llr);
      if (!tty || finished == share_games) std::fprintf(stderr, "\n");
      std::fflush(stderr);
    }
  };
  for (const auto& [index, r] : done) finish(index, r, false);

  std::atomic<int> next{0};
  const auto worker = [&] {
    for (int i; !stop && (i = next++) < config.games;) {
      if (done.count(i) || !plan.mine(i)) continue;
      try {
        finish(i, play_one(plan, make, i), true);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < config.threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  if (tty && config.progress && stop) std::fprintf(stderr, "\n");

  std::set<int> read_back;
  for (const auto& d : done) read_back.insert(d.first);
  return result_of(plan, outcomes, records, read_back, sprt, judge);
}

ArenaResult join_arena(const Game& game, const ArenaConfig& config,
                       const std::vector<MatchRecord>& all, const std::set<int>& read_back) {
  check(config.games >= 1, "arena: games must be at least 1");
  check(!config.sprt || game.num_players() == 2, "arena: an SPRT needs a 2-player variant");
  ArenaConfig whole = config;
  whole.part = 0, whole.parts = 1;
  const GamePlan plan{game, whole, match_name(config)};
  std::vector<std::optional<Outcome>> outcomes(config.games);
  std::vector<std::optional<MatchRecord>> records(config.games);
  for (const MatchRecord& r : all) {
    if (r.match != plan.match || r.index < 0 || r.index >= config.games) continue;
    plan.check_record(r, false, "joining the records");
    std::optional<MatchRecord>& slot = records[r.index];
    check(
        !slot || (slot->opening == r.opening && slot->moves == r.moves && slot->result == r.result),
        "joining the records: two different games " + std::to_string(r.index) + " of match '" +
            plan.match + "'");
    if (!slot) slot = r, outcomes[r.index] = outcome_of(r);
  }
  OrderedSprt judge(config.sprt, config.games);
  judge.advance(outcomes);
  for (int i = 0; i < judge.counted(); ++i)
    check(records[i].has_value(), "joining the records: game " + std::to_string(i) + " of match '" +
                                      plan.match +
                                      "' is missing (is a share's games file left out?)");
  return result_of(plan, outcomes, records, read_back, config.sprt, judge);
}

}  // namespace vzero
