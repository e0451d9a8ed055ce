// vzero selfplay: games into HDF5 shards.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "game/builtin/games.h"
#include "net/server.h"
#include "search/evaluators.h"
#include "selfplay/selfplay.h"
#include "training/loop.h"
#include "training/roles.h"
#include "training/run_config.h"
#include "util/error.h"

namespace vzero::cli {

std::string selfplay_progress_line(const SelfplayStats& s, int total,
                                   const InferenceServer* server) {
  char buf[300];
  int n = std::snprintf(buf, sizeof buf, "games %d/%d positions %lld pos/s %.1f evals/s %.0f",
                        s.games, total, static_cast<long long>(s.positions), s.positions_per_s(),
                        s.seconds > 0 ? s.evaluations / s.seconds : 0.0);
  if (server) {
    const ServerStats st = server->stats();
    std::snprintf(buf + n, sizeof buf - n, " net evals/s %.0f mean batch %.1f cache hits %.1f%%",
                  s.seconds > 0 ? st.evaluated / s.seconds : 0.0, st.mean_batch(),
                  100.0 * st.hit_rate());
  }
  return buf;
}

namespace {

struct SelfplayOptions {
  std::string variant, config, model, out = "selfplay-out", run_dir;
  int games = 0;
  int64_t seed = -1;
  std::vector<std::string> set;
  bool follow = false;
};

// A worker of a shared run folder: --games games (selfplay.games without --follow), or until
// stopped.
void run_worker_command(const SelfplayOptions& o) {
  check(o.variant.empty() && o.model.empty() && o.seed < 0,
        "selfplay --run-dir: the run's config gives the variant, the model and the seed (no "
        "--variant, --model, --seed)");
  const RunConfig config = role_config(o.config, o.run_dir, o.set);
  RoleOptions options;
  options.signal = install_stop_signals();
  options.follow = o.follow;
  options.max_games = o.games > 0 ? o.games : o.follow ? 0 : config.selfplay.games;
  run_worker({config, o.run_dir, std::cout}, options);
}

void run_selfplay_command(const SelfplayOptions& o) {
  if (!o.run_dir.empty()) return run_worker_command(o);
  check(!o.follow, "selfplay --follow needs --run-dir");
  RunConfig config = read_run_config(o.config, o.set);
  if (!o.variant.empty()) config.variant = o.variant;
  if (o.games > 0) config.selfplay.games = o.games;
  if (o.seed >= 0) config.seed = uint64_t(o.seed);
  const Game& game = game_by_id(config.variant);
  std::unique_ptr<InferenceServer> server;
  SelfplayJob job;
  int generation = 0;
  if (!o.model.empty()) {
    server = std::make_unique<InferenceServer>(game, config.inference, o.model);
    job.evaluator = server.get();
    generation = shard_generation(true, server->generation());  // a model of `vzero train`: 0
  } else {
    const std::string name = config.selfplay.evaluator;
    job.evaluator_per_game = [name](uint64_t seed) { return make_basic_evaluator(name, seed); };
  }
  job.game = &game;
  job.selfplay = config.selfplay;
  job.search = config.search;
  job.search.root_noise = true;
  // Samples in the encoding of the model that plays, else of the config's [model].
  job.meta = shard_meta_for(game, server ? server->identity().encoding : config.model.encoding,
                            config.hash, generation);
  job.out_dir = o.out;
  job.file_prefix = "selfplay-g" + std::to_string(generation);
  job.seed = config.seed;
  job.first_game_id = reserve_game_ids(o.out, config.selfplay.games);
  const bool tty = isatty(2);
  job.progress = [&](const SelfplayStats& s) {
    std::cerr << (tty ? "\r" : "") << selfplay_progress_line(s, config.selfplay.games, server.get())
              << (tty ? "" : "\n") << std::flush;
  };
  const SelfplayStats s = run_selfplay(job);
  if (tty) std::cerr << "\n";
  std::cout << selfplay_progress_line(s, config.selfplay.games, server.get()) << "\n";
  std::cout << "summary games " << s.games << " positions " << s.positions << " full "
            << s.full_positions << " decisive " << s.decisive << " draws " << s.draws << " capped "
            << s.capped << " resigned " << s.resigned << " false_resignations "
            << s.false_resignations << "/" << s.would_resign << " seconds " << s.seconds
            << std::endl;
}

// Self-play speed with a network, and its evaluations/s against the
// network's best batch throughput measured in the same process: that of one
// worker (the ratio of earlier versions, `bench nn`'s figure at the config's
// threads) and that of all the workers at once (the whole ceiling).
void bench_selfplay(const SelfplayOptions& o) {
  RunConfig config = read_run_config(o.config, o.set);
  if (!o.variant.empty()) config.variant = o.variant;
  if (o.games > 0) config.selfplay.games = o.games;
  const Game& game = game_by_id(config.variant);
  InferenceServer server(game, config.inference, o.model, config.model, config.seed);
  // The best rate over batch sizes: of one worker laid out as the config's, or of all at once.
  const auto best_rate = [&](InferenceServer& s, const std::string& what) {
    double best = 0.0;
    for (int batch : {32, 64, 128, 256}) {
      const double r = s.measure_evals_per_s(batch, 1.0);
      std::cout << "nn " << what << " batch " << batch << " evals_per_s " << int(r) << std::endl;
      best = std::max(best, r);
    }
    return best;
  };
  // Speeds here drift by 10-30% within minutes: the ceilings are measured before and after
  // self-play and averaged.
  const auto ceilings = [&](const std::string& when, double& best, double& all) {
    {
      ServerConfig one = config.inference;
      one.workers = 1;
      InferenceServer single(game, one, o.model, config.model, config.seed);
      best = best_rate(single, "one_worker_" + when);
    }
    all = config.inference.workers > 1 ? best_rate(server, "all_workers_" + when) : best;
  };
  double best_before = 0.0, all_before = 0.0, best_after = 0.0, all_after = 0.0;
  ceilings("before", best_before, all_before);
  const std::filesystem::path out = std::filesystem::temp_directory_path() /
                                    ("vzero-bench-selfplay-" + std::to_string(::getpid()));
  std::filesystem::create_directories(out);
  SelfplayJob job;
  job.game = &game;
  job.selfplay = config.selfplay;
  job.search = config.search;
  job.search.root_noise = true;
  job.evaluator = &server;
  job.meta = shard_meta_for(game, server.identity().encoding, config.hash, 0);
  job.out_dir = out.string();
  job.seed = config.seed;
  server.reset_stats();
  const SelfplayStats s = run_selfplay(job);
  std::filesystem::remove_all(out);
  const ServerStats st = server.stats();
  const double net_rate = st.evaluated / s.seconds;
  ceilings("after", best_after, all_after);
  const double best = (best_before + best_after) / 2.0, all = (all_before + all_after) / 2.0;
  std::cout << "selfplay games " << s.games << " positions " << s.positions << " positions_per_s "
            << s.positions_per_s() << " net_evals_per_s " << int(net_rate) << " mean_batch "
            << st.mean_batch() << " cache_hit_rate " << st.hit_rate() << std::endl;
  std::cout << "ratio " << net_rate / best << " (best nn " << int(best)
            << " evals/s: " << int(best_before) << " before, " << int(best_after)
            << " after; one worker of " << config.inference.threads_per_worker
            << " threads) ratio_all_workers " << net_rate / all << " (" << int(all) << " evals/s, "
            << config.inference.workers << " workers at once)" << std::endl;
}

}  // namespace

void add_selfplay_command(CLI::App& app) {
  auto o = std::make_shared<SelfplayOptions>();
  CLI::App* sp = app.add_subcommand("selfplay", "Play games against itself and write HDF5 shards");
  sp->add_option("--variant", o->variant, "Variant id (overrides the config)");
  sp->add_option("--config", o->config, "Run config (TOML)");
  sp->add_option("--model", o->model,
                 "Checkpoint (default: a network-free evaluator); its games are labelled with "
                 "its generation, at least 1 (generation 0 is the network-free bootstrap)");
  sp->add_option("--games", o->games, "Games to play (default: the config's selfplay.games)")
      ->check(CLI::Range(1, 100000000))
      ->default_str("");
  sp->add_option("--out", o->out, "Output folder for shards");
  sp->add_option("--seed", o->seed, "Random seed (default: the config's seed)")
      ->check(CLI::Range(int64_t(0), int64_t(1000000000)))
      ->default_str("");
  sp->add_option("--set", o->set, "Config override table.key=value (repeatable)");
  sp->add_option(
      "--run-dir", o->run_dir,
      "A worker of this shared run folder: plays with its promoted model into its shards/");
  sp->add_flag("--follow", o->follow,
               "With --run-dir: keep playing (taking up each promoted model) until stopped");
  sp->callback([o] { run_selfplay_command(*o); });

  auto b = std::make_shared<SelfplayOptions>();
  CLI::App* bench = app.get_subcommand("bench")->add_subcommand(
      "selfplay",
      "Self-play positions/s with a network (fresh [model] unless --model), and evals/s vs the nn "
      "ceiling");
  bench->add_option("--variant", b->variant, "Variant id (overrides the config)");
  bench->add_option("--config", b->config, "Run config (TOML)");
  bench->add_option("--model", b->model,
                    "Checkpoint (default: a fresh model of the config's [model])");
  bench->add_option("--games", b->games, "Games to play (default: the config's selfplay.games)")
      ->check(CLI::Range(1, 100000000))
      ->default_str("");
  bench->add_option("--set", b->set, "Config override table.key=value (repeatable)");
  bench->callback([b] { bench_selfplay(*b); });
}

}  // namespace vzero::cli
