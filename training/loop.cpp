// The closed loop and the train command.
#include "training/loop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "game/error.h"
#include "mcts/arena.h"
#include "mcts/evaluators.h"
#include "net/server.h"
#include "selfplay/selfplay.h"
#include "training/trainer.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream f(tmp);
    f << text;
    if (!f) throw Error("cannot write '" + p.string() + "'");
  }
  fs::rename(tmp, p);
}

std::string model_path(const fs::path& dir, int generation) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%03d.pt", generation);
  return (dir / "models" / name).string();
}

// The resolved config without the number of generations, which a restart may raise.
std::string identity_of(const std::string& resolved) {
  std::istringstream in(resolved);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("generations = ", 0) != 0) out += line + "\n";
  return out;
}

// Prepares the run folder: checks or writes the resolved config.
void prepare_run_dir(const RunConfig& config, const fs::path& dir) {
  fs::create_directories(dir / "shards");
  fs::create_directories(dir / "models");
  const fs::path cfg = dir / "config.toml";
  if (fs::exists(cfg) && identity_of(read_file(cfg)) != identity_of(config.resolved))
    throw Error("run folder '" + dir.string() + "' holds a run of another config (" + cfg.string() +
                "); use a new folder or the same config");
  write_file(cfg, config.resolved);
}

const char* kColumns =
    "generation,games,positions,selfplay_pos_per_s,selfplay_evals_per_s,mean_batch,cache_hit_rate,"
    "train_steps,train_samples_per_s,policy_loss,value_loss,val_policy_top1,val_value_mse,"
    "score_vs_prev,elo_vs_prev,score_vs_gen0,elo_vs_gen0,score_vs_baseline,elo_vs_baseline,promoted,"
    "current_model,seconds";

// The completed generations' rows.
std::vector<std::vector<std::string>> read_metrics(const fs::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream f(p);
  std::string line;
  bool header = true;
  while (std::getline(f, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

void plot(const fs::path& dir, std::ostream& log) {
  const fs::path script = dir / "curve.gp";
  write_file(script,
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

TrainOutcome run_training(const RunConfig& config, const std::string& run_dir, std::ostream& log,
                          int64_t new_positions) {
  const Game& game = game_by_id(config.variant);
  const fs::path dir(run_dir);
  prepare_run_dir(config, dir);
  const fs::path train = dir / "models" / "train.pt", target_file = dir / "models" / "train-target.txt";
  Trainer trainer(game, config, fs::exists(train) ? train.string() : "");
  const ReplayWindow window =
      load_window(game, (dir / "shards").string(), config.train.window_positions, config.train.holdout_fraction);
  // The target step is fixed when a training starts, so that a restart finishes the same run.
  int64_t target = 0;
  if (fs::exists(target_file)) target = std::stoll(read_file(target_file));
  if (target <= trainer.step()) {
    const double fresh = new_positions > 0 ? double(new_positions) : double(window.train.size());
    const int steps = config.train.steps > 0
                          ? config.train.steps
                          : std::max(1, int(config.train.sample_reuse * fresh / config.train.batch_size));
    target = trainer.step() + steps;
    write_file(target_file, std::to_string(target));
  }
  TrainOutcome out;
  const TrainReport& r = out.report = trainer.train(window, int(target - trainer.step()), train.string(), 50);
  trainer.save(train.string(), 0);
  const Validation& v = out.validation = trainer.validate(window.validation);
  std::ostringstream line;
  line << "train step " << r.step << " steps " << r.steps << " samples " << window.train.size() << " shards "
       << window.shards << " policy_loss " << r.policy_loss << " value_loss " << r.value_loss << " samples_per_s "
       << r.samples_per_s << " val_top1 " << v.policy_top1 << " val_value_mse " << v.value_mse;
  out.line = line.str();
  log << out.line << std::endl;
  return out;
}

void run_loop(const RunConfig& config, const std::string& run_dir, std::ostream& log) {
  const Game& game = game_by_id(config.variant);
  const fs::path dir(run_dir);
  prepare_run_dir(config, dir);
  register_net_players(config.inference);
  const fs::path metrics = dir / "metrics.csv", train = dir / "models" / "train.pt";
  if (!fs::exists(model_path(dir, 0))) {
    Trainer fresh(game, config, "");
    fresh.save(model_path(dir, 0), 0);
  }
  if (!fs::exists(metrics)) write_file(metrics, std::string(kColumns) + "\n");
  const auto rows = read_metrics(metrics);
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
      server = std::make_unique<InferenceServer>(game, config.inference, model_path(dir, current));
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
      t.save(model_path(dir, g), g);
    }

    // 3. Arenas: against the current model, generation 0 and the fixed baseline.
    const int visits = config.loop.arena_visits;
    const std::string candidate = net_spec(model_path(dir, g), visits);
    ArenaResult vs_prev, vs_gen0, vs_base;
    if (config.loop.arena_games > 0) {
      vs_prev = match(game, config, candidate, net_spec(model_path(dir, current), visits), config.loop.arena_games, g);
      vs_gen0 = match(game, config, candidate, net_spec(model_path(dir, 0), visits), config.loop.arena_games, g + 7);
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
    std::ofstream(metrics, std::ios::app) << row.str() << "\n";
    plot(dir, log);
    log << "gen " << g << " vs previous " << vs_prev.summary() << " | vs gen0 " << vs_gen0.summary()
        << " | vs baseline " << vs_base.summary() << " | " << (promote ? "promoted" : "kept gen " + std::to_string(current))
        << " | " << int(seconds) << " s" << std::endl;
    generation = g;
  }
}

}  // namespace vzero
