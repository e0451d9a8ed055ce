// The arena: many games in parallel, seats rotated, results counted for A.
#include "mcts/arena.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <unistd.h>
#include <vector>

#include "game/error.h"
#include "game/zobrist.h"
#include "mcts/tbb_handover.h"

namespace vzero {

double elo_of_score(double score) {
  const double s = std::clamp(score, 1e-9, 1.0 - 1e-9);
  return std::clamp(-400.0 * std::log10(1.0 / s - 1.0), -1200.0, 1200.0);
}

std::string ArenaResult::summary() const {
  char buf[200];
  std::snprintf(buf, sizeof buf, "score %.3f wins %d draws %d losses %d elo %.0f +- %.0f", score, wins,
                draws, losses, elo, margin);
  return buf;
}

namespace {

// One game's outcome for A: 1 win, 0.5 draw, 0 loss; and its length.
struct GameOutcome {
  double score = 0.0;
  int plies = 0;
  int seat = 0;  // A's seat
};

GameOutcome play_one(const Game& game, const ArenaConfig& config, const PlayerFactory& make, int index) {
  const int players = game.num_players();
  const int group = index / players, a_seat = index % players;
  uint64_t seed_state = config.seed * 0x9E3779B97F4A7C15ull + uint64_t(index);
  std::vector<std::unique_ptr<Player>> seats(players);
  for (int s = 0; s < players; ++s) seats[s] = make(s == a_seat ? 0 : 1, splitmix64(seed_state));

  std::unique_ptr<GameState> state = game.new_state();
  uint64_t opening_rng = config.seed ^ (uint64_t(group) * 0xD1B54A32D192ED03ull);
  for (int ply = 0; ply < config.opening_plies && !state->is_terminal(); ++ply) {
    const std::vector<int>& legal = state->legal_actions();
    state->apply(legal[(splitmix64(opening_rng) >> 11) % legal.size()]);
  }
  for (auto& p : seats) p->new_game(*state);
  while (!state->is_terminal()) {
    const int action = seats[state->current_player()]->choose(*state);
    state->apply(action);
    for (auto& p : seats) p->observe(action);
  }
  const std::vector<double> r = state->returns();
  const double best = *std::max_element(r.begin(), r.end());
  const int at_best = int(std::count(r.begin(), r.end(), best));
  GameOutcome out;
  out.seat = a_seat;
  out.plies = state->plies();
  out.score = r[a_seat] < best ? 0.0 : at_best == 1 ? 1.0 : 0.5;
  return out;
}

}  // namespace

ArenaResult play_arena(const Game& game, const ArenaConfig& config, const PlayerFactory& make) {
  check(config.games >= 1, "arena: games must be at least 1");
  check(config.threads >= 1 && config.threads <= 256, "arena: threads must be in [1, 256]");
  std::vector<GameOutcome> outcomes(config.games);
  std::atomic<int> done{0};
  std::atomic<double> running{0.0};
  std::mutex print;
  const bool tty = isatty(2);
  auto run_game = [&](int i) {
    outcomes[i] = play_one(game, config, make, i);
    double cur = running.load();
    while (!running.compare_exchange_weak(cur, cur + outcomes[i].score)) {
    }
    const int n = ++done;
    if (config.progress && (tty || n == config.games || n % std::max(1, config.games / 10) == 0)) {
      std::lock_guard<std::mutex> lock(print);
      std::fprintf(stderr, "%sgames %d/%d score %.3f", tty ? "\r" : "", n, config.games, running.load() / n);
      if (!tty || n == config.games) std::fprintf(stderr, "\n");
      std::fflush(stderr);
    }
  };
  if (config.threads == 1) {
    for (int i = 0; i < config.games; ++i) run_game(i);
  } else {
    // Games may block on a shared evaluator: allow more threads than cores.
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, size_t(config.threads) + 1);
    tbb::task_arena arena(config.threads);
    TbbHandover handover;
    arena.execute(
        [&] { tbb::parallel_for(0, config.games, 1, handover.wrap([&](int i) { run_game(i); })); });
    handover.collect();
  }

  ArenaResult r;
  r.games = config.games;
  double sum = 0.0, sum_sq = 0.0, plies = 0.0;
  r.score_by_seat.assign(game.num_players(), 0.0);
  std::vector<int> games_by_seat(game.num_players(), 0);
  for (const GameOutcome& o : outcomes) {
    r.score_by_seat[o.seat] += o.score;
    ++games_by_seat[o.seat];
    r.wins += o.score == 1.0;
    r.draws += o.score == 0.5;
    r.losses += o.score == 0.0;
    sum += o.score;
    sum_sq += o.score * o.score;
    plies += o.plies;
  }
  for (size_t seat = 0; seat < games_by_seat.size(); ++seat)
    if (games_by_seat[seat]) r.score_by_seat[seat] /= games_by_seat[seat];
  const double n = r.games;
  r.score = sum / n;
  r.mean_plies = plies / n;
  // A Wilson-style 95% interval on the score with the observed per-game
  // variance (draws narrow it); finite at a clean sweep.
  const double variance = std::max(0.0, sum_sq / n - r.score * r.score);
  const double z = 1.96, z2n = z * z / n;
  const double centre = (r.score + z2n / 2.0) / (1.0 + z2n);
  const double half = z * std::sqrt(variance / n + z2n / (4.0 * n)) / (1.0 + z2n);
  const double lo_s = 0.5 / n, hi_s = 1.0 - 0.5 / n;  // half a game from the ends
  r.elo = elo_of_score(std::clamp(r.score, lo_s, hi_s));
  const double lo = elo_of_score(std::clamp(centre - half, lo_s, hi_s));
  const double hi = elo_of_score(std::clamp(centre + half, lo_s, hi_s));
  r.margin = (hi - lo) / 2.0;
  r.score_lo = std::max(0.0, centre - half);
  r.score_hi = std::min(1.0, centre + half);
  return r;
}

}  // namespace vzero
