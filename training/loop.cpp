// The closed loop.
#include "training/loop.h"

#include <algorithm>
#include <chrono>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <cmath>
#include <filesystem>
#include <optional>
#include <ostream>

#include "match/arena.h"
#include "net/server.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "training/arenas.h"
#include "training/bootstrap_player.h"
#include "training/diagnostics.h"
#include "training/gate.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "training/trainer.h"
#include "util/cpu_time.h"
#include "util/error.h"

namespace vzero {

namespace fs = std::filesystem;

int shard_generation(bool network, int model_generation) {
  return network ? std::max(1, model_generation) : 0;
}

SelfplayJob generation_job(const Game& game, const RunConfig& config, int current, bool bootstrap) {
  SelfplayJob job;
  job.game = &game;
  job.selfplay = config.selfplay;
  if (bootstrap && config.loop.bootstrap_games > 0)
    job.selfplay.games = config.loop.bootstrap_games;
  if (bootstrap && config.loop.bootstrap_visits > 0) {
    const double scale = double(config.loop.bootstrap_visits) / job.selfplay.full_visits;
    job.selfplay.full_visits = config.loop.bootstrap_visits;
    job.selfplay.fast_visits = std::max(1, int(job.selfplay.fast_visits * scale + 0.5));
  }
  job.search = config.search;
  job.search.root_noise = true;
  // With loop.init_model, generation 0 is a network: its games are not the bootstrap's.
  job.meta = shard_meta_for(game, config.model.encoding, config.hash,
                            shard_generation(!bootstrap, current));
  job.seed = config.seed;
  if (bootstrap) {
    const std::string name = config.selfplay.evaluator;
    job.evaluator_per_game = [name](uint64_t seed) { return make_basic_evaluator(name, seed); };
  }
  return job;
}

namespace {

// Hands the free pages of every malloc arena back to the system. A generation
// frees most of what it allocated (trees, batches, shards), but glibc keeps
// freed pages of its per-thread arenas, so that without this the resident
// memory of a long run creeps up (scripts/soak.sh).
void release_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

// Game ids of generation g: g * kIdsPerGeneration + index.
constexpr int64_t kIdsPerGeneration = 100000000;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Score and Elo of a match into two metrics fields, absent when it was not played.
void put_match(const ArenaResult& r, std::optional<double>& score, std::optional<double>& elo) {
  if (r.games > 0) score = r.score, elo = r.elo;
}

// One generation of the loop: its steps skip what progress records as done.
struct GenerationRun {
  const RunContext& run;
  int g, current;
  GenerationProgress progress;

  // 1. Self-play of the games of generation g that its shards lack, with the
  // current model (the first generation may use the network-free bootstrap).
  // Records "selfplay": games, positions, positions/s, evaluations/s, mean batch, cache hit rate,
  // seconds.
  void selfplay() {
    if (progress.has("selfplay")) return;
    const double cpu_start = process_cpu_seconds();
    const bool bootstrap = network_free_generation(run.config.loop, g, current);
    SelfplayJob job = generation_job(run.game, run.config, current, bootstrap);
    job.out_dir = run.folder.shards_dir();
    job.file_prefix = "gen" + std::to_string(g);
    job.first_game_id = int64_t(g) * kIdsPerGeneration;
    const int games = job.selfplay.games;
    const WrittenGames written = written_games(job.out_dir, job.file_prefix);
    for (int64_t id : written.ids)
      check(id >= job.first_game_id && id < job.first_game_id + games,
            "shards of generation " + std::to_string(g) + " hold game id " + std::to_string(id) +
                ", outside the generation's ids");
    job.indices = missing_indices(written, job.first_game_id, games);
    if (!written.ids.empty())
      run.log << "gen " << g << " selfplay resumes: " << written.ids.size() << " of " << games
              << " games written" << std::endl;
    SelfplayStats sp;
    ServerStats net;
    if (!job.indices->empty()) {
      std::unique_ptr<InferenceServer> server;
      if (!bootstrap) {
        server = std::make_unique<InferenceServer>(run.game, run.config.inference,
                                                   run.folder.model_path(current));
        job.evaluator = server.get();
      }
      const int before = int(written.ids.size());
      job.progress = [&](const SelfplayStats& s) {
        run.log << "gen " << g << " selfplay games " << before + s.games << "/" << games
                << " pos/s " << int(s.positions_per_s()) << "\n"
                << std::flush;
      };
      job.progress_seconds = 10.0;
      const LoopConfig& loop = run.config.loop;
      if (bootstrap && !loop.bootstrap_player.empty()) {
        run.log << "gen " << g << " bootstrap games played by " << loop.bootstrap_player
                << std::endl;
        sp = play_bootstrap_games(job, loop.bootstrap_player, loop.bootstrap_random_plies,
                                  run.config.search);
      } else {
        sp = run_selfplay(job);
      }
      if (server) net = server->stats();
    }
    const int64_t positions = written.positions + sp.positions;
    progress.set("selfplay", {double(games), double(positions), sp.positions_per_s(),
                              sp.seconds > 0 ? sp.evaluations / sp.seconds : 0.0, net.mean_batch(),
                              net.hit_rate(), sp.seconds});
    record_cpu("selfplay", cpu_start);
    run.log << "gen " << g << " selfplay " << games << " games " << positions << " positions "
            << int(sp.positions_per_s()) << " pos/s" << std::endl;
  }

  // 2. Training (resuming the continuous trainer), once per generation, then
  // its model kept as gen-g. Records "train": step, samples/s, policy loss,
  // value loss, held-out top-1, held-out value MSE, seconds.
  void train() {
    const bool done = progress.has("train");
    if (!done) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_seconds();
      TrainRequest request;
      request.new_positions = int64_t(progress.numbers("selfplay")[1]);
      request.generation = g;
      const TrainOutcome t = run_training(run, request);
      progress.set("train", {double(t.report.step), t.report.samples_per_s, t.report.policy_loss,
                             t.report.value_loss, t.validation.policy_top1, t.validation.value_mse,
                             seconds_since(start)});
      record_cpu("train", cpu_start);
    }
    if (!done || !fs::exists(run.folder.model_path(g))) save_candidate(run, g);
  }

  // 3. A match of the new model, recorded under its key as games, wins,
  // draws, losses, score, Elo, margin, seconds: a restart keeps a finished
  // one and resumes an unfinished one from the records.
  ArenaResult arena(const LoopMatch& m) {
    if (m.games <= 0) return {};
    if (!progress.has(m.key)) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_seconds();
      record(m.key, play_loop_match(run, g, m), start);
      record_cpu(m.key, cpu_start);
    }
    return recorded(m.key);
  }

  // 4. The gate's match against the current model and its verdict, recorded
  // as gate = promoted, SPRT log-likelihood ratio, SPRT result (0 H0, 1 H1, 2 undecided).
  bool gate(ArenaResult& vs_prev) {
    const LoopConfig& loop = run.config.loop;
    const bool measure = measures_generation(loop, g);
    const bool played = loop.arena_games > 0 && (measure || loop.gate != "always");
    if (!progress.has("gate") || (played && !progress.has("arena_prev"))) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_seconds();
      const GateOutcome o = gate_candidate(run, g, current, nullptr, measure);
      progress.set("gate",
                   {o.promote ? 1.0 : 0.0, o.result.llr, double(int(o.result.sprt_result))});
      if (played) record("arena_prev", o.result, start);
      record_cpu("gate", cpu_start);
    }
    if (played) vs_prev = recorded("arena_prev");
    const std::vector<double> v = progress.numbers("gate");
    check(v.size() == 3, "progress of generation " + std::to_string(g) + ": 'gate' is malformed");
    vs_prev.sprt = gate_sprt(run.config.loop);
    vs_prev.llr = v[1];
    vs_prev.sprt_result = SprtResult(int(v[2]));
    return v[0] != 0.0;
  }

  void record(const std::string& key, const ArenaResult& r,
              std::chrono::steady_clock::time_point start) {
    progress.set(key, {double(r.games), double(r.wins), double(r.draws), double(r.losses), r.score,
                       r.elo, r.margin, seconds_since(start)});
  }

  // Records the CPU seconds of step key (this process and its engines) since cpu_start, as
  // "cpu_<key>".
  void record_cpu(const std::string& key, double cpu_start) {
    progress.set("cpu_" + key, process_cpu_seconds() - cpu_start);
  }

  // The CPU seconds recorded for the steps of the generation; nullopt when a
  // step done by an older version has none.
  std::optional<double> cpu_seconds(const std::vector<LoopMatch>& matches) const {
    std::vector<std::string> keys = {"selfplay", "train", "gate"};
    for (const LoopMatch& m : matches)
      if (progress.has(m.key)) keys.push_back(m.key);
    double total = 0;
    for (const std::string& key : keys) {
      if (!progress.has("cpu_" + key)) return std::nullopt;
      total += progress.number("cpu_" + key);
    }
    return total;
  }

  ArenaResult recorded(const std::string& key) const {
    const std::vector<double> v = progress.numbers(key);
    check(v.size() == 8,
          "progress of generation " + std::to_string(g) + ": '" + key + "' is malformed");
    ArenaResult r;
    r.games = int(v[0]), r.wins = int(v[1]), r.draws = int(v[2]), r.losses = int(v[3]);
    r.score = v[4], r.elo = v[5], r.margin = v[6];
    return r;
  }
};

}  // namespace

void run_loop(const RunContext& run) {
  const RunConfig& config = run.config;
  const RunFolder& folder = run.folder;
  std::ostream& log = run.log;
  const FolderLock lock = folder.lock();
  prepare_loop_matches(run);
  check_init_model(run);
  folder.prepare(config);
  save_fresh_model(run);
  folder.start_metrics();
  const std::vector<MetricsRow> rows = folder.read_metrics();
  int generation = int(rows.size());  // completed generations
  int current = rows.empty() ? 0 : rows.back().current_model;
  // The last measured scores against generation 0 and the baseline (loop.saturated_score).
  std::optional<double> last_gen0, last_base;
  for (const MetricsRow& r : rows) {
    if (r.score_vs_gen0) last_gen0 = r.score_vs_gen0;
    if (r.score_vs_baseline) last_base = r.score_vs_baseline;
  }
  log << "run " << folder.dir() << ": variant " << config.variant << ", " << generation
      << " generations done, current model gen-" << current << std::endl;
  // A kill may have come between the last row and its ratings or curve.
  if (!rows.empty()) draw_curve(run, generation, refit_ratings(run));

  const LoopConfig& loop = config.loop;
  while (loop.generations == 0 || generation < loop.generations) {
    const int g = generation + 1;
    GenerationRun step{run, g, current, GenerationProgress(folder, g)};
    step.selfplay();
    step.train();
    // Matches: the gate's against the current model, then generation 0, the baseline and the
    // anchors.
    ArenaResult vs_prev;
    const bool promote = step.gate(vs_prev);
    std::vector<LoopMatch> matches = measuring_matches(run);
    matches[0].games = measuring_games(loop, last_gen0, matches[0].games);
    matches[1].games = measuring_games(loop, last_base, matches[1].games);
    const bool measure = measures_generation(loop, g);
    std::vector<ArenaResult> results;
    for (const LoopMatch& m : matches) results.push_back(measure ? step.arena(m) : ArenaResult{});
    if (promote) current = g;

    // One row of metrics (the generation's commit), then the ratings and the curve.
    const GenerationProgress& progress = step.progress;
    const std::vector<double> sp = progress.numbers("selfplay"), tr = progress.numbers("train");
    MetricsRow row;
    row.generation = g;
    row.games = int64_t(sp[0]), row.positions = int64_t(sp[1]);
    row.selfplay_pos_per_s = sp[2], row.selfplay_evals_per_s = sp[3], row.mean_batch = sp[4],
    row.cache_hit_rate = sp[5];
    row.train_steps = int64_t(tr[0]);
    row.train_samples_per_s = tr[1], row.policy_loss = tr[2], row.value_loss = tr[3];
    row.val_policy_top1 = tr[4], row.val_value_mse = tr[5];
    put_match(vs_prev, row.score_vs_prev, row.elo_vs_prev);
    put_match(results[0], row.score_vs_gen0, row.elo_vs_gen0);
    put_match(results[1], row.score_vs_baseline, row.elo_vs_baseline);
    row.promoted = promote;
    row.current_model = current;
    row.seconds = sp.back() + tr.back();
    if (progress.has("arena_prev")) row.seconds += progress.numbers("arena_prev").back();
    for (const LoopMatch& m : matches)
      if (progress.has(m.key)) row.seconds += progress.numbers(m.key).back();
    const double seconds = row.seconds;
    if (row.score_vs_gen0) last_gen0 = row.score_vs_gen0;
    if (row.score_vs_baseline) last_base = row.score_vs_baseline;
    const GenerationDiagnostics d =
        generation_diagnostics(folder.shards_dir(), "gen" + std::to_string(g), config);
    row.end_mate = d.end_mate, row.end_repetition = d.end_repetition, row.end_cap = d.end_cap;
    row.end_resign = d.end_resign, row.end_other = d.end_other, row.draw_share = d.draws;
    row.mean_abs_root_value = d.mean_abs_root_value,
    row.mean_abs_value_target = d.mean_abs_value_target;
    row.selfplay_time_share = row.seconds > 0 ? sp.back() / row.seconds : 0.0;
    row.cpu_seconds = step.cpu_seconds(matches);
    folder.append_metrics(row);
    const RatingsTable ratings = refit_ratings(run);
    draw_curve(run, g, ratings);
    release_free_memory();

    const auto summary = [](const ArenaResult& r) {
      return r.games > 0 ? r.summary() : std::string("not played");
    };
    log << "gen " << g << " vs previous " << summary(vs_prev);
    if (vs_prev.sprt && vs_prev.games > 0)
      log << " " << sprt_line(*vs_prev.sprt, vs_prev.llr, vs_prev.sprt_result);
    log << " | vs gen0 " << summary(results[0]) << " | vs baseline " << summary(results[1]);
    for (size_t k = 2; k < matches.size(); ++k)
      log << " | vs " << matches[k].opponent_name << " " << summary(results[k]);
    log << " | " << (promote ? "promoted" : "kept gen " + std::to_string(current)) << " | "
        << int(seconds) << " s";
    if (row.cpu_seconds)
      log << " | cpu s: selfplay " << int(progress.number("cpu_selfplay")) << ", train "
          << int(progress.number("cpu_train")) << ", matches "
          << int(*row.cpu_seconds - progress.number("cpu_selfplay") - progress.number("cpu_train"));
    log << std::endl;
    const auto anchor =
        std::find_if(ratings.rows.begin(), ratings.rows.end(),
                     [&](const Rating& r) { return r.player == loop.ratings_anchor; });
    for (const Rating& r : ratings.rows)
      if (r.player == generation_name(g))
        log << "gen " << g << " rating elo " << std::lround(r.elo) << " +- "
            << std::lround(r.margin) << " ("
            << (anchor != ratings.rows.end() ? loop.ratings_anchor : "the mean") << " = 0, "
            << ratings.rows.size() << " players in ratings.csv)" << std::endl;
    generation = g;
  }
}

}  // namespace vzero
