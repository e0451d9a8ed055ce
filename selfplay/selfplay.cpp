// The self-play generator.
#include "selfplay/selfplay.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "game/error.h"
#include "game/toml_reader.h"
#include "game/zobrist.h"
#include "mcts/search.h"
#include "mcts/tbb_handover.h"
#include "selfplay/shard.h"

namespace vzero {

SelfplayConfig read_selfplay_config(TomlReader& in, SelfplayConfig c) {
  c.games = in.get_range("games", c.games, 1, 100000000);
  c.parallel_games = in.get_range("parallel_games", c.parallel_games, 1, 1024);
  c.games_per_shard = in.get_range("games_per_shard", c.games_per_shard, 1, 1000000);
  c.full_visits = in.get_range("full_visits", c.full_visits, 1, 10000000);
  c.fast_visits = in.get_range("fast_visits", c.fast_visits, 1, 10000000);
  c.full_fraction = in.get_real("full_fraction", c.full_fraction, 0.0, 1.0);
  c.resign_threshold = in.get_real("resign_threshold", c.resign_threshold, -1.0, 1.0);
  c.resign_playout_fraction = in.get_real("resign_playout_fraction", c.resign_playout_fraction, 0.0, 1.0);
  c.max_plies = in.get_range("max_plies", c.max_plies, 0, 100000);
  c.evaluator = in.get<std::string>("evaluator", c.evaluator);
  if (c.evaluator != "rollout" && c.evaluator != "heuristic" && c.evaluator != "constant")
    in.fail("evaluator", "must be rollout, heuristic or constant");
  in.finish();
  return c;
}

ShardMeta shard_meta_for(const Game& game, uint64_t config_hash, int generation) {
  const EncodingSpec& e = game.encoding();
  ShardMeta m;
  m.variant = game.id();
  m.rules_hash = game.variant().hash;
  m.encoding_hash = encoding_hash(game);
  m.config_hash = config_hash;
  m.planes = e.planes;
  m.scalars = e.scalars;
  m.height = e.height;
  m.width = e.width;
  m.num_actions = game.num_actions();
  m.players = game.num_players();
  m.generation = generation;
  return m;
}

namespace {

double uniform(uint64_t& rng) { return double(splitmix64(rng) >> 11) * 0x1.0p-53; }

// What one game produced.
struct PlayedGame {
  GameRecord record;
  std::vector<Sample> samples;
  int64_t evaluations = 0;
  bool would_resign = false, false_resignation = false;
};

PlayedGame play_game(const SelfplayJob& job, int64_t index) {
  const Game& game = *job.game;
  const SelfplayConfig& sp = job.selfplay;
  const EncodingSpec& enc = game.encoding();
  uint64_t rng = job.seed ^ (0x9E3779B97F4A7C15ull * uint64_t(index + 1));
  PlayedGame out;
  out.record.game_id = job.first_game_id + index;
  out.record.seed = splitmix64(rng);
  std::unique_ptr<GameState> state = game.new_state();
  if (sp.max_plies > 0) state->set_max_plies(sp.max_plies);
  out.record.start_fen = state->fen();
  const int players = game.num_players();
  const bool may_resign = players == 2 && uniform(rng) >= sp.resign_playout_fraction;
  int would_resign_seat = -1, resigned_seat = -1;

  Search search(*job.evaluator, job.search, out.record.seed);
  search.set_root(*state);
  while (!state->is_terminal()) {
    const bool full = uniform(rng) < sp.full_fraction;
    search.mutable_config().root_noise = full && job.search.root_noise;
    const int target = full ? sp.full_visits : sp.fast_visits;
    const SearchResult r = search.run(std::max(1, target - search.root().visits));
    out.evaluations += r.evaluations;

    Sample s;
    s.planes.resize(size_t(enc.planes) * enc.plane_size());
    s.scalars.resize(enc.scalars);
    state->encode(s.planes.data(), s.scalars.data());
    for (size_t i = 0; i < r.actions.size(); ++i)
      if (r.visits[i] > 0) {
        s.policy_index.push_back(r.actions[i]);
        s.policy_weight.push_back(r.policy[i]);
      }
    s.root_value = r.value;
    s.player = r.player;
    s.ply = state->plies();
    s.game_id = out.record.game_id;
    s.generation = job.meta.generation;
    s.full_search = full;
    out.samples.push_back(std::move(s));

    if (full && players == 2 && !r.proven && r.value[r.player] < sp.resign_threshold) {
      if (may_resign) {
        resigned_seat = r.player;
        break;
      }
      if (would_resign_seat < 0) would_resign_seat = r.player;
    }
    const int action = search.choose_action(r);
    state->apply(action);
    search.advance(action);
    out.record.actions.push_back(action);
  }

  std::vector<double> result(players, 0.0);
  if (resigned_seat >= 0) {
    result[resigned_seat] = -1.0;
    result[1 - resigned_seat] = 1.0;
    out.record.resigned = true;
    out.record.end_reason = "resign";
  } else {
    result = state->returns();
    out.record.end_reason = state->end_reason();
  }
  out.record.result.assign(result.begin(), result.end());
  for (Sample& s : out.samples) s.result = out.record.result;
  if (would_resign_seat >= 0) {
    out.would_resign = true;
    out.false_resignation = result[would_resign_seat] >= 0.0;
  }
  return out;
}

}  // namespace

SelfplayStats run_selfplay(const SelfplayJob& job) {
  check(job.game && job.evaluator, "self-play: no game or evaluator");
  const SelfplayConfig& sp = job.selfplay;
  AsyncShardWriter writer(job.out_dir, job.file_prefix, job.meta, sp.games_per_shard);
  SelfplayStats stats;
  std::mutex m;
  std::atomic<bool> done{false};
  std::exception_ptr failure;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  std::thread driver([&] {
    try {
      // The games block while the evaluator works: run more of them than cores.
      tbb::global_control allow(tbb::global_control::max_allowed_parallelism, size_t(sp.parallel_games) + 1);
      tbb::task_arena arena(sp.parallel_games);
      TbbHandover handover;
      arena.execute([&] {
        tbb::parallel_for(
            tbb::blocked_range<int>(0, sp.games, 1),
            handover.wrap([&](const tbb::blocked_range<int>& range) {
              for (int i = range.begin(); i < range.end(); ++i) {
                PlayedGame g = play_game(job, i);
                std::lock_guard<std::mutex> lock(m);
                ++stats.games;
                stats.positions += int64_t(g.samples.size());
                for (const Sample& s : g.samples) stats.full_positions += s.full_search;
                stats.evaluations += g.evaluations;
                stats.resigned += g.record.resigned;
                stats.would_resign += g.would_resign;
                stats.false_resignations += g.false_resignation;
                const bool draw = std::all_of(g.record.result.begin(), g.record.result.end(),
                                              [](float x) { return x == 0.0f; });
                stats.draws += draw;
                stats.decisive += !draw;
                stats.capped += g.record.end_reason == "cap";
                writer.add_game(std::move(g.record), std::move(g.samples));
              }
            }),
            tbb::simple_partitioner());
      });
      handover.collect();
    } catch (...) {
      failure = std::current_exception();
    }
    done = true;
  });
  double last = 0.0;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const double now = elapsed();
    if (job.progress && now - last >= job.progress_seconds) {
      last = now;
      SelfplayStats copy;
      {
        std::lock_guard<std::mutex> lock(m);
        copy = stats;
      }
      copy.seconds = now;
      job.progress(copy);
    }
  }
  driver.join();
  writer.close();
  if (failure) std::rethrow_exception(failure);
  stats.seconds = elapsed();
  return stats;
}

}  // namespace vzero
