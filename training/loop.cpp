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

// Scores a against b with the loop's arena settings.
ArenaResult match(const Game& game, const RunConfig& config, const std::string& a, const std::string& b, int games,
                  uint64_t seed) {
  ArenaConfig ac;
  ac.games = games;
  ac.threads = std::min(16, std::max(1, config.selfplay.parallel_games));
  ac.seed = seed;
  ac.progress = false;
  SearchConfig search = config.search;
  search.root_noise = true;  // light noise for variety; moves by most visits, as in the final evaluation
  search.noise_fraction = 0.1;
  search.temperature_plies = 0;
  return play_arena(game, ac, [&](int role, uint64_t s) {
    PlayerContext ctx;
    ctx.game = &game;
    ctx.seed = s;
    ctx.search = search;
    return make_player(role == 0 ? a : b, ctx);
  });
}

std::string net_spec(const std::string& path, int visits) {
  return "net:model=" + path + ",sims=" + std::to_string(visits);
}

}  // namespace

void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log) {
  const Game& game = game_by_id(config.variant);
  const fs::path dir(run_dir);
  prepare_run_dir(config, run_dir);
  register_net_players(config.inference);
  const fs::path metrics = dir / "metrics.csv", train = dir / "models" / "train.pt";
  if (!fs::exists(model_path(run_dir, 0))) {
    Trainer fresh(game, config, "");
    fresh.save(model_path(run_dir, 0), 0);
  }
  if (!fs::exists(metrics)) write_text_file(metrics.string(), std::string(kMetricsColumns) + "\n");
  const auto rows = read_metrics(metrics.string());
  int generation = int(rows.size());  // completed generations
  int current = rows.empty() ? 0 : std::stoi(rows.back()[20]);
  log << "run " << run_dir << ": variant " << config.variant << ", " << generation
      << " generations done, current model gen-" << current << std::endl;

  while (config.loop.generations == 0 || generation < config.loop.generations) {
    const int g = generation + 1;
    const auto start = std::chrono::steady_clock::now();
    // 1. Self-play with the current model (the first generation may use the network-free bootstrap).
    std::unique_ptr<InferenceServer> server;
    std::unique_ptr<Evaluator> basic;
    Evaluator* evaluator;
    const bool bootstrap = current == 0 && g == 1;
    if (bootstrap) {
      basic = make_basic_evaluator(config.selfplay.evaluator, config.seed);
      evaluator = basic.get();
    } else {
      server = std::make_unique<InferenceServer>(game, config.inference, model_path(run_dir, current));
      evaluator = server.get();
    }
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
    job.evaluator = evaluator;
    job.meta = shard_meta_for(game, config.hash, current);
    job.out_dir = (dir / "shards").string();
    job.file_prefix = "gen" + std::to_string(g);
    job.seed = config.seed * 1000003 + uint64_t(g);
    job.first_game_id = int64_t(g) * 100000000;
    job.progress = [&](const SelfplayStats& s) {
      log << "gen " << g << " selfplay games " << s.games << "/" << job.selfplay.games << " pos/s "
          << int(s.positions_per_s()) << "\n" << std::flush;
    };
    job.progress_seconds = 10.0;
    const SelfplayStats sp = run_selfplay(job);
    const ServerStats net = server ? server->stats() : ServerStats{};
    server.reset();
    log << "gen " << g << " selfplay " << sp.games << " games " << sp.positions << " positions "
        << int(sp.positions_per_s()) << " pos/s" << std::endl;

    // 2. Train (resuming the continuous trainer), then keep the result as generation g.
    const TrainOutcome trained = run_training(config, run_dir, log, sp.positions);
    const Validation& v = trained.validation;
    {
      Trainer t(game, config, train.string());
      t.save(model_path(run_dir, g), g);
    }

    // 3. Arenas: against the current model, generation 0 and the fixed baseline.
    const int visits = config.loop.arena_visits;
    const std::string candidate = net_spec(model_path(run_dir, g), visits);
    ArenaResult vs_prev, vs_gen0, vs_base;
    if (config.loop.arena_games > 0) {
      vs_prev = match(game, config, candidate, net_spec(model_path(run_dir, current), visits), config.loop.arena_games, g);
      vs_gen0 = match(game, config, candidate, net_spec(model_path(run_dir, 0), visits), config.loop.arena_games, g + 7);
    }
    if (config.loop.baseline_games > 0)
      vs_base = match(game, config, candidate, config.loop.baseline, config.loop.baseline_games, g + 13);
    const bool promote = !config.loop.gate || vs_prev.score >= config.loop.gate_threshold;
    if (promote) current = g;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // 4. One row of metrics, the curve.
    std::ostringstream row;
    row << g << "," << sp.games << "," << sp.positions << "," << sp.positions_per_s() << ","
        << (sp.seconds > 0 ? sp.evaluations / sp.seconds : 0) << "," << net.mean_batch() << "," << net.hit_rate()
        << "," << trained.report.step << "," << trained.report.samples_per_s << "," << trained.report.policy_loss << ","
        << trained.report.value_loss << "," << v.policy_top1 << "," << v.value_mse
        << "," << vs_prev.score << "," << vs_prev.elo << "," << vs_gen0.score << "," << vs_gen0.elo << ","
        << vs_base.score << "," << vs_base.elo << "," << (promote ? 1 : 0) << "," << current << "," << seconds;
    append_metrics_row(metrics.string(), row.str());
    plot(dir, log);
    log << "gen " << g << " vs previous " << vs_prev.summary() << " | vs gen0 " << vs_gen0.summary()
        << " | vs baseline " << vs_base.summary() << " | " << (promote ? "promoted" : "kept gen " + std::to_string(current))
        << " | " << int(seconds) << " s" << std::endl;
    generation = g;
  }
}

}  // namespace vzero
