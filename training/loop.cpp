// The closed loop.
#include "training/loop.h"

#include <algorithm>
#include <chrono>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <cmath>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "game/builtin/games.h"
#include "util/error.h"
#include "match/arena.h"
#include "search/evaluators.h"
#include "net/server.h"
#include "selfplay/selfplay.h"
#include "training/arenas.h"
#include "training/gate.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "training/trainer.h"

namespace vzero {

namespace fs = std::filesystem;

SelfplayJob generation_job(const Game& game, const RunConfig& config, int current, bool bootstrap) {
  SelfplayJob job;
  job.game = &game;
  job.selfplay = config.selfplay;
  if (bootstrap && config.loop.bootstrap_games > 0) job.selfplay.games = config.loop.bootstrap_games;
  if (bootstrap && config.loop.bootstrap_visits > 0) {
    const double scale = double(config.loop.bootstrap_visits) / job.selfplay.full_visits;
    job.selfplay.full_visits = config.loop.bootstrap_visits;
    job.selfplay.fast_visits = std::max(1, int(job.selfplay.fast_visits * scale + 0.5));
  }
  job.search = config.search;
  job.search.root_noise = true;
  job.meta = shard_meta_for(game, config.hash, current);
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

// Score and Elo of a match as two metrics cells, empty when it was not played.
std::string cells(const ArenaResult& r) {
  std::ostringstream s;
  if (r.games > 0) s << r.score << "," << r.elo;
  else s << ",";
  return s.str();
}

// One generation of the loop: its steps skip what progress records as done.
struct GenerationRun {
  const Game& game;
  const RunConfig& config;
  const std::string& run_dir;
  std::ostream& log;
  int g, current;
  GenerationProgress progress;

  // 1. Self-play of the games of generation g that its shards lack, with the
  // current model (the first generation may use the network-free bootstrap).
  // Records "selfplay": games, positions, positions/s, evaluations/s, mean batch, cache hit rate, seconds.
  void selfplay() {
    if (progress.has("selfplay")) return;
    const bool bootstrap = current == 0 && g == 1;
    SelfplayJob job = generation_job(game, config, current, bootstrap);
    job.out_dir = (fs::path(run_dir) / "shards").string();
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
      log << "gen " << g << " selfplay resumes: " << written.ids.size() << " of " << games << " games written"
          << std::endl;
    SelfplayStats sp;
    ServerStats net;
    if (!job.indices->empty()) {
      std::unique_ptr<InferenceServer> server;
      if (!bootstrap) {
        server = std::make_unique<InferenceServer>(game, config.inference, model_path(run_dir, current));
        job.evaluator = server.get();
      }
      const int before = int(written.ids.size());
      job.progress = [&](const SelfplayStats& s) {
        log << "gen " << g << " selfplay games " << before + s.games << "/" << games << " pos/s "
            << int(s.positions_per_s()) << "\n" << std::flush;
      };
      job.progress_seconds = 10.0;
      sp = run_selfplay(job);
      if (server) net = server->stats();
    }
    const int64_t positions = written.positions + sp.positions;
    progress.set("selfplay", {double(games), double(positions), sp.positions_per_s(),
                              sp.seconds > 0 ? sp.evaluations / sp.seconds : 0.0, net.mean_batch(), net.hit_rate(),
                              sp.seconds});
    log << "gen " << g << " selfplay " << games << " games " << positions << " positions "
        << int(sp.positions_per_s()) << " pos/s" << std::endl;
  }

  // 2. Training (resuming the continuous trainer), once per generation, then
  // its model kept as gen-g. Records "train": step, samples/s, policy loss,
  // value loss, held-out top-1, held-out value MSE, seconds.
  void train() {
    const bool done = progress.has("train");
    if (!done) {
      const auto start = std::chrono::steady_clock::now();
      TrainRequest request;
      request.new_positions = int64_t(progress.numbers("selfplay")[1]);
      request.generation = g;
      const TrainOutcome t = run_training(config, run_dir, log, request);
      progress.set("train", {double(t.report.step), t.report.samples_per_s, t.report.policy_loss,
                             t.report.value_loss, t.validation.policy_top1, t.validation.value_mse,
                             seconds_since(start)});
    }
    if (!done || !fs::exists(model_path(run_dir, g))) {
      Trainer t(game, config, (fs::path(run_dir) / "models" / "train.pt").string());
      t.save(model_path(run_dir, g), g);
    }
  }

  // 3. A match of the new model, recorded under its key as games, wins,
  // draws, losses, score, Elo, margin, seconds: a restart keeps a finished
  // one and resumes an unfinished one from the records.
  ArenaResult arena(const LoopMatch& m) {
    if (m.games <= 0) return {};
    if (!progress.has(m.key)) {
      const auto start = std::chrono::steady_clock::now();
      record(m.key, play_loop_match(game, config, run_dir, g, m), start);
    }
    return recorded(m.key);
  }

  // 4. The gate's match against the current model and its verdict, recorded
  // as gate = promoted, SPRT log-likelihood ratio, SPRT result (0 H0, 1 H1, 2 undecided).
  bool gate(ArenaResult& vs_prev) {
    const bool played = config.loop.arena_games > 0;
    if (!progress.has("gate") || (played && !progress.has("arena_prev"))) {
      const auto start = std::chrono::steady_clock::now();
      const GateOutcome o = gate_candidate(game, config, run_dir, g, current);
      progress.set("gate", {o.promote ? 1.0 : 0.0, o.result.llr, double(int(o.result.sprt_result))});
      if (played) record("arena_prev", o.result, start);
    }
    if (played) vs_prev = recorded("arena_prev");
    const std::vector<double> v = progress.numbers("gate");
    check(v.size() == 3, "progress of generation " + std::to_string(g) + ": 'gate' is malformed");
    vs_prev.sprt = gate_sprt(config.loop);
    vs_prev.llr = v[1];
    vs_prev.sprt_result = SprtResult(int(v[2]));
    return v[0] != 0.0;
  }

  void record(const std::string& key, const ArenaResult& r, std::chrono::steady_clock::time_point start) {
    progress.set(key, {double(r.games), double(r.wins), double(r.draws), double(r.losses), r.score, r.elo, r.margin,
                       seconds_since(start)});
  }

  ArenaResult recorded(const std::string& key) const {
    const std::vector<double> v = progress.numbers(key);
    check(v.size() == 8, "progress of generation " + std::to_string(g) + ": '" + key + "' is malformed");
    ArenaResult r;
    r.games = int(v[0]), r.wins = int(v[1]), r.draws = int(v[2]), r.losses = int(v[3]);
    r.score = v[4], r.elo = v[5], r.margin = v[6];
    return r;
  }
};

}  // namespace

void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log) {
  const Game& game = game_by_id(config.variant);
  const FolderLock lock(run_dir, "run folder");
  prepare_loop_matches(game, config, run_dir);
  prepare_run_dir(config, run_dir);
  const std::string metrics = (fs::path(run_dir) / "metrics.csv").string();
  if (!fs::exists(model_path(run_dir, 0))) {
    Trainer fresh(game, config, "");
    fresh.save(model_path(run_dir, 0), 0);
  }
  if (!fs::exists(metrics)) write_text_file(metrics, std::string(kMetricsColumns) + "\n");
  const auto rows = read_metrics(metrics);
  int generation = int(rows.size());  // completed generations
  int current = rows.empty() ? 0 : std::stoi(rows.back()[20]);
  log << "run " << run_dir << ": variant " << config.variant << ", " << generation
      << " generations done, current model gen-" << current << std::endl;
  // A kill may have come between the last row and its ratings or curve.
  if (!rows.empty()) draw_curve(run_dir, generation, refit_ratings(config, run_dir, log), log);

  const LoopConfig& loop = config.loop;
  while (loop.generations == 0 || generation < loop.generations) {
    const int g = generation + 1;
    GenerationRun run{game, config, run_dir, log, g, current, GenerationProgress(run_dir, g)};
    run.selfplay();
    run.train();
    // Matches: the gate's against the current model, then generation 0, the baseline and the anchors.
    ArenaResult vs_prev;
    const bool promote = run.gate(vs_prev);
    const std::vector<LoopMatch> matches = measuring_matches(config, run_dir);
    std::vector<ArenaResult> results;
    for (const LoopMatch& m : matches) results.push_back(run.arena(m));
    if (promote) current = g;

    // One row of metrics (the generation's commit), then the ratings and the curve.
    const std::vector<double> sp = run.progress.numbers("selfplay"), tr = run.progress.numbers("train");
    double seconds = sp.back() + tr.back();
    if (run.progress.has("arena_prev")) seconds += run.progress.numbers("arena_prev").back();
    for (const LoopMatch& m : matches)
      if (run.progress.has(m.key)) seconds += run.progress.numbers(m.key).back();
    std::ostringstream row;
    row << g << "," << int64_t(sp[0]) << "," << int64_t(sp[1]) << "," << sp[2] << "," << sp[3] << "," << sp[4] << ","
        << sp[5] << "," << int64_t(tr[0]) << "," << tr[1] << "," << tr[2] << "," << tr[3] << "," << tr[4] << "," << tr[5] << ","
        << cells(vs_prev) << "," << cells(results[0]) << "," << cells(results[1]) << "," << (promote ? 1 : 0) << ","
        << current << "," << seconds;
    append_metrics_row(metrics, row.str());
    const RatingsTable ratings = refit_ratings(config, run_dir, log);
    draw_curve(run_dir, g, ratings, log);
    release_free_memory();

    const auto summary = [](const ArenaResult& r) { return r.games > 0 ? r.summary() : std::string("not played"); };
    log << "gen " << g << " vs previous " << summary(vs_prev);
    if (vs_prev.sprt && vs_prev.games > 0)
      log << " " << sprt_line(*vs_prev.sprt, vs_prev.llr, vs_prev.sprt_result);
    log << " | vs gen0 " << summary(results[0]) << " | vs baseline " << summary(results[1]);
    for (size_t k = 2; k < matches.size(); ++k) log << " | vs " << matches[k].opponent_name << " " << summary(results[k]);
    log << " | " << (promote ? "promoted" : "kept gen " + std::to_string(current)) << " | " << int(seconds) << " s"
        << std::endl;
    const auto anchor = std::find_if(ratings.rows.begin(), ratings.rows.end(),
                                     [&](const Rating& r) { return r.player == loop.ratings_anchor; });
    for (const Rating& r : ratings.rows)
      if (r.player == generation_name(g))
        log << "gen " << g << " rating elo " << std::lround(r.elo) << " +- " << std::lround(r.margin) << " ("
            << (anchor != ratings.rows.end() ? loop.ratings_anchor : "the mean") << " = 0, " << ratings.rows.size()
            << " players in ratings.csv)" << std::endl;
    generation = g;
  }
}

}  // namespace vzero
