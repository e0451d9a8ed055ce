// vzero arena | bench mcts: matches between players, and search speed.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "cli/commands.h"
#include "cli/mpi_job.h"
#include "game/builtin/games.h"
#include "match/arena.h"
#include "match/game_record.h"
#include "match/match_group.h"
#include "match/match_stats.h"
#include "match/openings.h"
#include "net/server.h"
#include "search/evaluators.h"
#include "search/search.h"
#include "training/run_config.h"
#include "util/error.h"
#include "util/files.h"
#include "util/toml_reader.h"

namespace vzero::cli {

SearchConfig search_config_from_file(const std::string& path, SearchConfig config) {
  if (path.empty()) return config;
  const std::string text = read_text_file(path);  // a directory is an error
  parse_run_config(text, path);  // every key and table checked, as loop checks them
  const toml::table root = parse_toml(text, path);
  if (const toml::node* n = root.get("search")) {
    if (!n->is_table()) throw Error(path + ": [search] must be a table");
    TomlReader reader(*n->as_table(), path + " [search]");
    config = read_search_config(reader, config);
  }
  return config;
}

namespace {

struct ArenaOptions {
  std::string variant, a, b, config, openings, sprt, part;
  std::vector<std::string> merge;  // games files to join instead of playing
  bool games_given = false;
  ArenaConfig arena;
};

void print_arena(const ArenaResult& r) {
  for (const std::string& line : r.report()) std::cout << line << "\n";
  std::cout << r.summary() << std::endl;
}

// "K/N" (1 <= K <= N) as share K - 1 of N.
std::pair<int, int> parse_part(const std::string& text) {
  const size_t slash = text.find('/');
  int k = 0, n = 0;
  try {
    size_t used_k = 0, used_n = 0;
    k = std::stoi(text.substr(0, slash), &used_k);
    n = std::stoi(text.substr(slash + 1), &used_n);
    check(slash != std::string::npos && used_k == slash && used_n == text.size() - slash - 1, "");
  } catch (const std::exception&) {
    throw Error("arena --part '" + text + "': expected K/N, e.g. 2/8");
  }
  check(n >= 1 && n <= 100000 && k >= 1 && k <= n,
        "arena --part '" + text + "': expected 1 <= K <= N");
  return {k - 1, n};
}

// Joins the games files of a match's parts (--part K/N) and prints the match's report.
void merge_arena(const ArenaOptions& o) {
  check(
      o.a.empty() && o.b.empty() && o.part.empty() && o.openings.empty() &&
          o.arena.record.empty() && o.arena.pgn.empty(),
      "arena --merge FILES joins games files: no --a, --b, --part, --openings, --record or --pgn");
  std::vector<MatchRecord> records;
  std::set<std::string> matches;
  for (const std::string& path : o.merge) {
    check(std::filesystem::is_regular_file(path),
          "arena --merge: games file '" + path + "' does not exist");
    for (MatchRecord& r : read_records(path))
      if (o.arena.match.empty() || r.match == o.arena.match) {
        matches.insert(r.match);
        records.push_back(std::move(r));
      }
  }
  check(!records.empty(),
        "arena --merge: the files hold no games" +
            (o.arena.match.empty() ? std::string() : " of match '" + o.arena.match + "'"));
  std::string names;
  for (const std::string& m : matches) names += (names.empty() ? "'" : ", '") + m + "'";
  check(matches.size() == 1,
        "arena --merge: the files hold several matches (" + names + "): choose one with --match");
  // The match's settings, from its records (join_arena checks that every record shares them).
  const MatchRecord& first = records.front();
  const Game& game = game_by_id(first.variant);
  check(o.variant.empty() || o.variant == first.variant,
        "arena --merge: the games are of variant '" + first.variant + "', not '" + o.variant + "'");
  ArenaConfig config;
  config.match = first.match;
  config.seed = first.seed;
  for (size_t s = 0; s < first.players.size() && s < first.roles.size(); ++s)
    if (first.roles[s] == 0 || first.roles[s] == 1)
      config.names[size_t(first.roles[s])] = first.players[s];
  config.games = o.games_given ? o.arena.games : 0;
  if (!o.games_given)
    for (const MatchRecord& r : records) config.games = std::max(config.games, r.index + 1);
  if (!o.sprt.empty()) config.sprt = parse_sprt(o.sprt);
  print_arena(join_arena(game, config, records));
}

void run_arena(const ArenaOptions& o) {
  if (!o.merge.empty()) return merge_arena(o);
  check(!o.variant.empty() && !o.a.empty() && !o.b.empty(),
        "arena: --variant, --a and --b are required (or --merge FILES)");
  const Game& game = game_by_id(o.variant);
  PlayerContext ctx;
  ctx.game = &game;
  // Light root noise by default, so that games between deterministic searches differ.
  SearchConfig defaults = play_search_config();
  defaults.root_noise = true;
  defaults.noise_fraction = 0.1;
  ctx.search = search_config_from_file(o.config, defaults);
  // A worker per game at once (up to the cores): the games' net players share a server per model,
  // whose evaluations then need not queue on one worker (two models, 2 threads: 24 games 88 -> 72
  // s).
  ServerConfig server;
  server.workers = std::max(1, std::min(o.arena.threads, int(std::thread::hardware_concurrency())));
  register_net_players(server);
  // Build both once up front so that a bad spec fails before any game.
  make_player(o.a, ctx);
  make_player(o.b, ctx);
  ArenaConfig config = o.arena;
  check(o.openings.empty() || config.opening_plies == 0,
        "use --openings FILE or --opening N, not both");
  if (!o.openings.empty()) config.openings = read_openings(game, o.openings);
  if (!o.sprt.empty()) config.sprt = parse_sprt(o.sprt);
  config.names = {o.a, o.b};
  const PlayerFactory factory = [&](int role, uint64_t seed) {
    PlayerContext c = ctx;
    c.seed = seed;
    return make_player(role == 0 ? o.a : o.b, c);
  };
  if (!o.part.empty()) std::tie(config.part, config.parts) = parse_part(o.part);
  // Under mpirun (or srun), the ranks share the games and each gets the whole match's result.
  const std::unique_ptr<MatchGroup> job = join_mpi_job();
  check(!job || job->size() == 1 || config.parts == 1,
        "arena: use --part K/N or an MPI launcher, not both");
  run_ranked(job.get(), [&] {
    const ArenaResult r = play_arena_shared(game, config, factory, job.get());
    if (!job || job->rank() == 0) print_arena(r);
  });
}

// Prints the balanced openings of a variant as an openings file, with the command that made it;
// unless quiet, a progress line on stderr every 10% of the candidates or every 5 seconds.
void run_openings(const std::string& variant, const BalanceConfig& c, bool quiet) {
  const Game& game = game_by_id(variant);
  const auto start = std::chrono::steady_clock::now();
  auto last = start;
  const auto progress = [&](int measured, int candidates) {
    const auto now = std::chrono::steady_clock::now();
    if (measured != candidates && measured % std::max(1, candidates / 10) != 0 &&
        now - last < std::chrono::seconds(5))
      return;
    last = now;
    std::cerr << "openings: " << measured << "/" << candidates << " candidates measured, "
              << int(std::chrono::duration<double>(now - start).count()) << " s" << std::endl;
  };
  const std::vector<MeasuredOpening> kept =
      quiet ? balanced_openings(game, c) : balanced_openings(game, c, progress);
  const std::string measure =
      c.games > 0 ? "mean returns of " + std::to_string(c.games) + " self-play games"
                  : "root values of one search";
  std::cout << "# " << kept.size() << " openings for " << variant << ": of " << c.candidates
            << " distinct random " << c.plies << "-ply openings, those whose\n# " << measure
            << " per seat lie closest together (search of " << c.simulations << " playouts a move, "
            << c.evaluator << " evaluator). Made by\n"
            << "#   vzero openings --variant " << variant << " --plies " << c.plies
            << " --candidates " << c.candidates << " --keep " << c.keep << " --sims "
            << c.simulations << " --evaluator " << c.evaluator << " --games " << c.games
            << " --seed " << c.seed << "\n"
            << "# (docs/openings.md). After '#': those values, seat 0 first.\n";
  for (const MeasuredOpening& m : kept) {
    std::cout << m.opening.text() << "  #";
    for (double v : m.values)
      std::cout << ' ' << std::showpos << std::fixed << std::setprecision(3) << v;
    std::cout << std::noshowpos << std::defaultfloat << "\n";
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Simulations per second of searches from the start position, one independent search per thread.
void bench_mcts(const std::vector<std::string>& variants, double seconds, int sims, int batch) {
  for (const std::string& id : variants) {
    const Game& game = game_by_id(id);
    for (const std::string evaluator : {"constant", "rollout"}) {
      for (int threads : {1, 2}) {
        std::vector<uint64_t> done(threads, 0);
        std::vector<std::thread> pool;
        const auto start = std::chrono::steady_clock::now();
        for (int t = 0; t < threads; ++t)
          pool.emplace_back([&, t] {
            auto eval = make_basic_evaluator(evaluator, 7 + t);
            SearchConfig config;
            config.batch = batch;
            Search search(*eval, config, 11 + t);
            auto state = game.new_state();
            while (seconds_since(start) < seconds) {
              search.set_root(*state);
              done[t] += search.run(sims).simulations;
            }
          });
        for (auto& th : pool) th.join();
        const double s = seconds_since(start);
        uint64_t total = 0;
        for (uint64_t d : done) total += d;
        std::cout << "mcts " << std::left << std::setw(8) << id << " evaluator " << std::setw(9)
                  << evaluator << " threads " << threads << " batch " << batch << " sims " << total
                  << " sims_per_s " << uint64_t(total / s) << " per_thread "
                  << uint64_t(total / s / threads) << std::endl;
      }
    }
  }
}

}  // namespace

void add_search_commands(CLI::App& app) {
  auto o = std::make_shared<ArenaOptions>();
  CLI::App* arena = app.add_subcommand("arena", "Play a match between two players");
  arena->add_option("--variant", o->variant, "Variant id (required to play)");
  arena->add_option(
      "--a", o->a,
      "Player A: random | mcts:sims=N[,evaluator=rollout|heuristic|constant][,key=value...] | "
      "uci:cmd=PATH,depth=D|nodes=N|movetime=MS[,...] | net:model=PATH,sims=N");
  arena->add_option("--b", o->b, "Player B (fills every other seat)");
  CLI::Option* games = arena->add_option("--games", o->arena.games, "Number of games")
                           ->check(CLI::Range(1, 1000000));
  arena->add_option("--threads", o->arena.threads, "Games played at once")
      ->check(CLI::Range(1, 256));
  arena->add_flag_callback(
      "--quiet,-q", [o] { o->arena.progress = false; },
      "No progress lines on stderr (by default one every 10% of the games)");
  arena->add_option("--seed", o->arena.seed, "Random seed");
  arena
      ->add_option("--opening", o->arena.opening_plies, "Random plies before the players take over")
      ->check(CLI::Range(0, 100));
  arena->add_option("--openings", o->openings,
                    "Openings file: a FEN or 'moves: a1 a2 ...' per line, # comments");
  arena->add_option(
      "--sprt", o->sprt,
      "Stop when decided: elo0=A,elo1=B[,alpha=0.05,beta=0.05,model=normalized|logistic]");
  arena->add_option("--record", o->arena.record,
                    "Games file (JSON lines) to append to; a rerun resumes from it");
  arena->add_option("--pgn", o->arena.pgn, "PGN file to append the games to (2-player variants)");
  arena->add_option("--match", o->arena.match,
                    "The match's name in the games file (default: 'A vs B')");
  arena->add_option("--config", o->config,
                    "Run config (TOML, every key checked as loop checks it) whose [search] table "
                    "sets search defaults");
  arena->add_option("--part", o->part,
                    "Play only part K of N (K/N; opening groups K-1, K-1+N, ...), e.g. one task of "
                    "a Slurm array; "
                    "no SPRT stop (arena --merge judges)");
  arena
      ->add_option("--merge", o->merge,
                   "Join the games files of a match's parts and print its report (with --games: "
                   "check there are "
                   "that many; --sprt: judge them)")
      ->expected(1, -1);
  arena->callback([o, games] {
    o->games_given = games->count() > 0;
    run_arena(*o);
  });

  auto balance = std::make_shared<std::pair<std::string, BalanceConfig>>();
  CLI::App* openings = app.add_subcommand(
      "openings", "Print balanced random openings of a variant (an openings file)");
  openings->add_option("--variant", balance->first, "Variant id")->required();
  openings->add_option("--plies", balance->second.plies, "Random plies per opening")
      ->check(CLI::Range(1, 100));
  openings->add_option("--candidates", balance->second.candidates, "Distinct openings measured")
      ->check(CLI::Range(1, 100000));
  openings->add_option("--keep", balance->second.keep, "Openings kept (the most balanced)")
      ->check(CLI::Range(1, 100000));
  openings->add_option("--sims", balance->second.simulations, "Playouts of the measuring search")
      ->check(CLI::Range(1, 10000000));
  openings->add_option("--evaluator", balance->second.evaluator, "rollout | heuristic | constant");
  openings
      ->add_option("--games", balance->second.games,
                   "Self-play games per opening (0: the root value of one search)")
      ->check(CLI::Range(0, 10000));
  openings->add_option("--seed", balance->second.seed, "Random seed");
  auto quiet = std::make_shared<bool>(false);
  openings->add_flag("--quiet,-q", *quiet, "No progress lines on stderr");
  openings->callback([balance, quiet] { run_openings(balance->first, balance->second, *quiet); });

  CLI::App* bench = app.get_subcommand("bench");
  auto variants =
      std::make_shared<std::vector<std::string>>(std::vector<std::string>{"chess", "grand"});
  auto seconds = std::make_shared<double>(2.0);
  auto sims = std::make_shared<int>(800);
  auto batch = std::make_shared<int>(8);
  CLI::App* mcts = bench->add_subcommand(
      "mcts", "Search simulations/s (constant and rollout evaluators, 1-2 threads)");
  mcts->add_option("--variants", *variants, "Variant ids");
  mcts->add_option("--seconds", *seconds, "Seconds per row")->check(CLI::Range(0.1, 600.0));
  mcts->add_option("--sims", *sims, "Simulations per search")->check(CLI::Range(1, 10000000));
  mcts->add_option("--batch", *batch, "Leaves per evaluator call")->check(CLI::Range(1, 1024));
  mcts->callback([=] { bench_mcts(*variants, *seconds, *sims, *batch); });
}

}  // namespace vzero::cli
