// The closed loop.
#include "training/loop.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "game/error.h"
#include "mcts/arena.h"
#include "mcts/evaluators.h"
#include "net/server.h"
#include "selfplay/selfplay.h"
#include "training/run_dir.h"
#include "training/train_run.h"
#include "training/trainer.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// Draws curve.png from metrics.csv with gnuplot (a note in log when it cannot).
void plot(const fs::path& dir, std::ostream& log) {
  const fs::path script = dir / "curve.gp";
  write_text_file(script.string(),
                  "set datafile separator ','\n"
                  "set terminal pngcairo size 1000,800 noenhanced\n"
                  "set output '" + (dir / "curve.png").string() + "'\n"
                  "set multiplot layout 2,1 title 'vzero learning curve'\n"
                  "set key left top\nset grid\nset xlabel 'generation'\nset ylabel 'Elo'\n"
                  "plot '" + (dir / "metrics.csv").string() + "' using 1:17 with linespoints title 'vs generation 0', "
                  "'' using 1:19 with linespoints title 'vs baseline', '' using 1:15 with linespoints title 'vs previous'\n"
                  "set ylabel 'validation'\n"
                  "plot '' using 1:12 with linespoints title 'policy top-1', '' using 1:13 with linespoints title 'value MSE'\n"
                  "unset multiplot\n");
  const std::string cmd = "gnuplot '" + script.string() + "' > /dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) log << "note: gnuplot failed or is missing; curve.png not refreshed\n";
}

}  // namespace

ArenaResult loop_match(const Game& game, const RunConfig& config, const std::string& a, const std::string& b,
                       int games, uint64_t seed, MatchGroup* group) {
  ArenaConfig ac;
  ac.games = games;
  ac.threads = std::min(16, std::max(1, config.selfplay.parallel_games));
  ac.seed = seed;
  ac.progress = false;
  SearchConfig search = config.search;
  search.root_noise = true;  // light noise for variety; moves by most visits, as in the final evaluation
  search.noise_fraction = 0.1;
  search.temperature_plies = 0;
  return play_arena_shared(game, ac, [&](int role, uint64_t s) {
    PlayerContext ctx;
    ctx.game = &game;
    ctx.seed = s;
    ctx.search = search;
    return make_player(role == 0 ? a : b, ctx);
  }, group);
}

std::string net_spec(const std::string& path, int visits) {
  return "net:model=" + path + ",sims=" + std::to_string(visits);
}

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

// Game ids of generation g: g * kIdsPerGeneration + index.
constexpr int64_t kIdsPerGeneration = 100000000;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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

  // 3. One match of the new model against opponent, recorded under key as
  // games, wins, draws, losses, score, Elo, margin, seconds (a restart keeps a finished one).
  ArenaResult arena(const std::string& key, const std::string& opponent, int games, uint64_t salt) {
    ArenaResult r;
    if (games <= 0) return r;
    if (!progress.has(key)) {
      const auto start = std::chrono::steady_clock::now();
      const std::string candidate = net_spec(model_path(run_dir, g), config.loop.arena_visits);
      r = loop_match(game, config, candidate, opponent, games, config.seed * 1000003 + uint64_t(g) * 17 + salt);
      progress.set(key, {double(r.games), double(r.wins), double(r.draws), double(r.losses), r.score, r.elo,
                         r.margin, seconds_since(start)});
    }
    const std::vector<double> v = progress.numbers(key);
    check(v.size() == 8, "progress of generation " + std::to_string(g) + ": '" + key + "' is malformed");
    r.games = int(v[0]), r.wins = int(v[1]), r.draws = int(v[2]), r.losses = int(v[3]);
    r.score = v[4], r.elo = v[5], r.margin = v[6];
    return r;
  }

  // Seconds the steps took (their last attempts).
  double seconds() const {
    double total = progress.numbers("selfplay").back() + progress.numbers("train").back();
    for (const char* key : {"arena_prev", "arena_gen0", "arena_base"})
      if (progress.has(key)) total += progress.numbers(key).back();
    return total;
  }
};

}  // namespace

void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log) {
  const Game& game = game_by_id(config.variant);
  const FolderLock lock(run_dir, "run folder");
  prepare_run_dir(config, run_dir);
  register_net_players(config.inference);
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
  if (!rows.empty()) plot(run_dir, log);  // a kill may have come between the last row and its curve

  while (config.loop.generations == 0 || generation < config.loop.generations) {
    const int g = generation + 1;
    GenerationRun run{game, config, run_dir, log, g, current, GenerationProgress(run_dir, g)};
    run.selfplay();
    run.train();
    // Arenas: against the current model, generation 0 and the fixed baseline.
    const int visits = config.loop.arena_visits;
    const ArenaResult vs_prev = run.arena("arena_prev", net_spec(model_path(run_dir, current), visits),
                                          config.loop.arena_games, 1);
    const ArenaResult vs_gen0 =
        run.arena("arena_gen0", net_spec(model_path(run_dir, 0), visits), config.loop.arena_games, 2);
    const ArenaResult vs_base = run.arena("arena_base", config.loop.baseline, config.loop.baseline_games, 3);
    const bool promote = !config.loop.gate || vs_prev.score >= config.loop.gate_threshold;
    if (promote) current = g;

    // One row of metrics (the generation's commit), the curve.
    const std::vector<double> sp = run.progress.numbers("selfplay"), tr = run.progress.numbers("train");
    const double seconds = run.seconds();
    std::ostringstream row;
    row << g << "," << int64_t(sp[0]) << "," << int64_t(sp[1]) << "," << sp[2] << "," << sp[3] << "," << sp[4] << ","
        << sp[5] << "," << int64_t(tr[0]) << "," << tr[1] << "," << tr[2] << "," << tr[3] << "," << tr[4] << "," << tr[5] << ","
        << vs_prev.score << "," << vs_prev.elo << "," << vs_gen0.score << "," << vs_gen0.elo << "," << vs_base.score
        << "," << vs_base.elo << "," << (promote ? 1 : 0) << "," << current << "," << seconds;
    append_metrics_row(metrics, row.str());
    plot(run_dir, log);
    log << "gen " << g << " vs previous " << vs_prev.summary() << " | vs gen0 " << vs_gen0.summary()
        << " | vs baseline " << vs_base.summary() << " | "
        << (promote ? "promoted" : "kept gen " + std::to_string(current)) << " | " << int(seconds) << " s"
        << std::endl;
    generation = g;
  }
}

}  // namespace vzero
