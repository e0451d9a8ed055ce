// The self-play generator.
#include "selfplay/selfplay.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "game/zobrist.h"
#include "search/search.h"
#include "selfplay/fibers.h"
#include "selfplay/shard.h"
#include "selfplay/tbb_handover.h"
#include "util/error.h"
#include "util/files.h"
#include "util/toml_reader.h"

namespace vzero {

SelfplayConfig read_selfplay_config(TomlReader& in, SelfplayConfig c) {
  c.games = in.get_range("games", c.games, 1, 100000000);
  c.parallel_games = in.get_range("parallel_games", c.parallel_games, 1, 1024);
  c.fiber_threads = in.get_range("fiber_threads", c.fiber_threads, -1, 1024);
  c.games_per_shard = in.get_range("games_per_shard", c.games_per_shard, 1, 1000000);
  c.full_visits = in.get_range("full_visits", c.full_visits, 1, 10000000);
  c.fast_visits = in.get_range("fast_visits", c.fast_visits, 1, 10000000);
  c.full_fraction = in.get_real("full_fraction", c.full_fraction, 0.0, 1.0);
  c.resign_threshold = in.get_real("resign_threshold", c.resign_threshold, -1.0, 1.0);
  c.resign_playout_fraction =
      in.get_real("resign_playout_fraction", c.resign_playout_fraction, 0.0, 1.0);
  c.max_plies = in.get_range("max_plies", c.max_plies, 0, 100000);
  c.adjudicate_plies = in.get_range("adjudicate_plies", c.adjudicate_plies, 0, 100000);
  c.adjudicate_value = in.get_real("adjudicate_value", c.adjudicate_value, 0.0, 1.0);
  c.end_dead_positions = in.get<bool>("end_dead_positions", c.end_dead_positions);
  c.evaluator = in.get<std::string>("evaluator", c.evaluator);
  c.opening_plies = in.get_range("opening_plies", c.opening_plies, 0, 1000);
  c.opening_temperature = in.get_real("opening_temperature", c.opening_temperature, 0.01, 100.0);
  c.opening_balance = in.get_real("opening_balance", c.opening_balance, 0.0, 1.0);
  c.fast_batch = in.get_range("fast_batch", c.fast_batch, 0, 1024);
  c.full_root = in.get<std::string>("full_root", c.full_root);
  if (c.full_root != "reuse" && c.full_root != "fresh")
    in.fail("full_root", "must be reuse or fresh");
  if (c.evaluator != "rollout" && c.evaluator != "heuristic" && c.evaluator != "constant")
    in.fail("evaluator", "must be rollout, heuristic or constant");
  in.finish();
  return c;
}

ShardMeta shard_meta_for(const Game& game, int encoding, uint64_t config_hash, int generation) {
  encoding = resolved_encoding(game, encoding);
  const EncodingSpec& e = game.encoding(encoding);
  ShardMeta m;
  m.variant = game.id();
  m.rules_hash = game.variant().hash;
  m.encoding_hash = encoding_hash(game, encoding);
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

// Plays the random opening of a game on state: up to opening_plies plies drawn
// from the evaluator's priors, redrawn while the result looks lopsided. In a
// fiber its evaluations let the thread's other games run (fiber_wait).
void play_opening(const SelfplayJob& job, GameState& state, uint64_t& rng) {
  const SelfplayConfig& sp = job.selfplay;
  if (sp.opening_plies <= 0) return;
  check(job.evaluator != nullptr, "self-play: random openings need the shared evaluator");
  const int plies = int(splitmix64(rng) % uint64_t(sp.opening_plies + 1));
  std::vector<const GameState*> batch(1);
  std::vector<Evaluation> evals;
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (int ply = 0; ply < plies && !state.is_terminal(); ++ply) {
      batch[0] = &state;
      fiber_wait(*job.evaluator->submit(batch, evals));
      const std::vector<int>& legal = state.legal_actions();
      std::vector<double> weight(legal.size());
      double sum = 0.0;
      for (size_t i = 0; i < legal.size(); ++i)
        sum += weight[i] =
            std::pow(std::max(double(evals[0].priors[i]), 1e-9), 1.0 / sp.opening_temperature);
      double x = uniform(rng) * sum;
      size_t pick = 0;
      while (pick + 1 < legal.size() && (x -= weight[pick]) > 0.0) ++pick;
      state.apply(legal[pick]);
    }
    if (state.is_terminal()) {
      while (state.plies() > 0) state.undo();
      continue;
    }
    if (sp.opening_balance >= 1.0) return;
    batch[0] = &state;
    fiber_wait(*job.evaluator->submit(batch, evals));
    if (std::fabs(evals[0].values[size_t(state.current_player())]) <= sp.opening_balance) return;
    while (state.plies() > 0) state.undo();
  }
}

// Plays one game, its samples in encoding `version`; in a fiber (fibers) its evaluations let the
// thread's other games run.
PlayedGame play_game(const SelfplayJob& job, int64_t index, bool fibers, int version) {
  const Game& game = *job.game;
  const SelfplayConfig& sp = job.selfplay;
  const EncodingSpec& enc = game.encoding(version);
  PlayedGame out;
  out.record.game_id = job.first_game_id + index;
  uint64_t rng = job.seed ^ (0x9E3779B97F4A7C15ull * uint64_t(out.record.game_id + 1));
  out.record.seed = splitmix64(rng);
  std::unique_ptr<GameState> state = game.new_state();
  play_opening(job, *state, rng);
  if (state->plies() > 0)
    state = game.new_state(state->fen());  // the opening is not part of the record
  if (sp.max_plies > 0) state->set_max_plies(sp.max_plies);
  out.record.start_fen = state->fen();
  const int players = game.num_players();
  const bool may_resign = players == 2 && uniform(rng) >= sp.resign_playout_fraction;
  int would_resign_seat = -1, losing_seat = -1;
  bool adjudicated = false;

  std::unique_ptr<Evaluator> own;
  if (job.evaluator_per_game) own = job.evaluator_per_game(out.record.seed ^ 0xD6E8FEB86659FD93ull);
  Evaluator& base = own ? *own : *job.evaluator;
  FiberEvaluator fibered(base);
  Search search(fibers ? fibered : base, job.search, out.record.seed);
  search.set_root(*state);
  while (!state->is_terminal()) {
    if (sp.end_dead_positions && state->dead_draw()) break;
    const bool full = uniform(rng) < sp.full_fraction;
    search.mutable_config().root_noise = full && job.search.root_noise;
    search.mutable_config().batch = !full && sp.fast_batch > 0 ? sp.fast_batch : job.search.batch;
    if (full && sp.full_root == "fresh") search.set_root(*state);
    const int target = full ? sp.full_visits : sp.fast_visits;
    const SearchResult r = search.run(std::max(1, target - search.root().visits));
    out.evaluations += r.evaluations;

    Sample s;
    s.planes.resize(size_t(enc.planes) * enc.plane_size());
    s.scalars.resize(enc.scalars);
    state->encode(s.planes.data(), s.scalars.data(), 0, version);
    assert(r.policy.size() == r.actions.size() && "one policy share per root action");
    for (size_t i = 0; i < r.actions.size(); ++i)
      if (r.policy[i] > 0.0f) {
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
        losing_seat = r.player;
        break;
      }
      if (would_resign_seat < 0) would_resign_seat = r.player;
    }
    // No progress for adjudicate_plies plies: this search's value decides (the games that never
    // resign play on, so the value head still sees how such endings finish).
    if (sp.adjudicate_plies > 0 && players == 2 && may_resign &&
        state->no_progress_plies() >= sp.adjudicate_plies) {
      const double v = r.value[r.player];
      if (std::fabs(v) > sp.adjudicate_value) losing_seat = v > 0.0 ? 1 - r.player : r.player;
      adjudicated = true;
      break;
    }
    const int action = search.choose_action(r);
    state->apply(action);
    search.advance(action);
    out.record.actions.push_back(action);
  }

  std::vector<double> result(players, 0.0);
  if (losing_seat >= 0) {
    result[losing_seat] = -1.0;
    result[1 - losing_seat] = 1.0;
  }
  if (adjudicated) {
    out.record.end_reason = "adjudicated";
  } else if (losing_seat >= 0) {
    out.record.resigned = true;
    out.record.end_reason = "resign";
  } else {
    GameEnd end = game_end(*state);  // the rules' end, or a dead position (end_dead_positions)
    result = std::move(end.returns);
    out.record.end_reason = std::move(end.reason);
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
  check(job.game && (job.evaluator || job.evaluator_per_game), "self-play: no game or evaluator");
  const SelfplayConfig& sp = job.selfplay;
  std::vector<int64_t> indices;
  if (job.indices)
    indices = *job.indices;
  else
    for (int i = 0; i < sp.games; ++i) indices.push_back(i);
  AsyncShardWriter writer(job.out_dir, job.file_prefix, job.meta, sp.games_per_shard);
  // The samples' encoding version: the one the shards declare.
  const int version = encoding_version_of(*job.game, job.meta.encoding_hash);
  SelfplayStats stats;
  std::mutex m;
  std::atomic<bool> done{false};
  std::exception_ptr failure;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  // One game, its figures counted and its record handed to the writer.
  const auto play = [&](size_t i, bool fibers) {
    if (job.stop && job.stop->load()) return;
    PlayedGame g = play_game(job, indices[i], fibers, version);
    std::lock_guard<std::mutex> lock(m);
    stats.add_game(g.record);
    stats.positions += int64_t(g.samples.size());
    for (const Sample& s : g.samples) stats.full_positions += s.full_search;
    stats.evaluations += g.evaluations;
    stats.resigned += g.record.resigned;
    stats.would_resign += g.would_resign;
    stats.false_resignations += g.false_resignation;
    writer.add_game(std::move(g.record), std::move(g.samples));
  };
  std::thread driver([&] {
    try {
      const int fiber_threads = sp.fiber_threads >= 0 ? sp.fiber_threads : usable_cpus();
      if (fiber_threads > 0 && fibers_supported()) {
        run_fibers(int64_t(indices.size()), fiber_threads, sp.parallel_games,
                   [&](int64_t i) { play(size_t(i), true); });
      } else {
        // The games block while the evaluator works: run more of them than cores.
        tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                                  size_t(sp.parallel_games) + 1);
        tbb::task_arena arena(sp.parallel_games);
        TbbHandover handover;
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<size_t>(0, indices.size(), 1),
                            handover.wrap([&](const tbb::blocked_range<size_t>& range) {
                              for (size_t i = range.begin(); i < range.end(); ++i) play(i, false);
                            }),
                            tbb::simple_partitioner());
        });
        handover.collect();
      }
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

WrittenGames written_games(const std::string& dir, const std::string& prefix) {
  WrittenGames w;
  std::map<int64_t, int64_t> positions;  // by game id
  for (const std::string& path : list_shards(dir)) {
    if (!prefix.empty() &&
        std::filesystem::path(path).filename().string().rfind(prefix + "-", 0) != 0)
      continue;
    const ShardData d = read_shard(path);
    ++w.shards;
    std::map<int64_t, int64_t> here;
    for (const Sample& s : d.samples) ++here[s.game_id];
    for (const GameRecord& g : d.games) positions.emplace(g.game_id, here[g.game_id]);
  }
  for (const auto& [id, n] : positions) {
    w.ids.push_back(id);
    w.positions += n;
  }
  return w;
}

std::vector<int64_t> missing_indices(const WrittenGames& written, int64_t first_game_id,
                                     int games) {
  std::vector<int64_t> missing;
  for (int64_t i = 0; i < games; ++i)
    if (!std::binary_search(written.ids.begin(), written.ids.end(), first_game_id + i))
      missing.push_back(i);
  return missing;
}

int64_t reserve_game_ids(const std::string& dir, int games) {
  const FolderLock lock(dir, "shard folder");
  const std::string next = (std::filesystem::path(dir) / "game-ids.next").string();
  int64_t first = 0;
  if (std::filesystem::exists(next)) {
    std::istringstream in(read_text_file(next));
    if (!(in >> first) || first < 0)
      throw Error("'" + next + "' is malformed (expected the next free game id)");
  } else {
    const WrittenGames written = written_games(dir, "");
    if (!written.ids.empty()) first = written.ids.back() + 1;
  }
  write_text_file(next, std::to_string(first + games) + "\n");
  return first;
}

}  // namespace vzero
