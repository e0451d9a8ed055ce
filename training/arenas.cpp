// The loop's matches: openings, records, ratings and the curve.
#include "training/arenas.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <utility>

#include "match/game_record.h"
#include "net/server.h"
#include "training/run_dir.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero {

namespace fs = std::filesystem;

namespace {

// The generation of a player name "gen-NNN", or -1 for any other name.
int generation_of(const std::string& name) {
  if (name.size() < 7 || name.size() > 13 || name.rfind("gen-", 0) != 0 ||
      name.find_first_not_of("0123456789", 4) != std::string::npos)
    return -1;
  return std::stoi(name.substr(4));
}

// A text in single quotes, a quote inside written as `inner` (gnuplot: '', the shell: '\'').
std::string quoted(const std::string& text, const std::string& inner = "''") {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? inner : std::string(1, c);
  return out + "'";
}

// The openings file that loop.openings names ("" for none), before the run keeps it.
std::string openings_source(const RunConfig& config) {
  const std::string& source = config.loop.openings;
  if (source == "none" || source.rfind("random:", 0) == 0) return "";
  if (source != "auto") return source;
  const std::string file = "configs/openings/" + config.variant + ".txt";
  return fs::exists(file) ? file : "";
}

// The openings of a file ("" : none); throws Error naming a missing file or a bad line.
std::vector<Opening> openings_of(const Game& game, const std::string& file) {
  if (file.empty()) return {};
  check(fs::exists(file), "loop.openings: no file '" + file + "'");
  // A file of comments only holds no openings (read_openings refuses it).
  std::istringstream lines(read_text_file(file));
  for (std::string line; std::getline(lines, line);)
    if (line.substr(0, line.find('#')).find_first_not_of(" \t\r") != std::string::npos)
      return read_openings(game, file);
  return {};
}

}  // namespace

std::string net_spec(const std::string& path, int visits) {
  return "net:model=" + path + ",sims=" + std::to_string(visits);
}

LoopOpenings loop_openings(const RunContext& run) {
  LoopOpenings out;
  const std::string& source = run.config.loop.openings;
  if (source.rfind("random:", 0) == 0) {
    out.random_plies = std::stoi(source.substr(7));
    return out;
  }
  const std::string kept = run.folder.openings_path();
  if (!fs::exists(kept)) {
    const std::string file = openings_source(run.config);
    std::string text = "# The openings of this run's matches (loop.openings = " + source +
                       (file.empty() ? ": none" : ", from " + file) +
                       "), kept at its first match.\n";
    for (const Opening& o : openings_of(run.game, file)) text += o.text() + "\n";
    write_text_file(kept, text);
  }
  out.openings = openings_of(run.game, kept);
  return out;
}

void prepare_loop_matches(const RunContext& run) {
  const Game& game = run.game;
  const RunConfig& config = run.config;
  const LoopConfig& loop = config.loop;
  check(loop.gate != "sprt" || game.num_players() == 2,
        "loop.gate = sprt needs a 2-player variant (" + config.variant + " has " +
            std::to_string(game.num_players()) + "); use score or always");
  const std::string kept = run.folder.openings_path();
  const std::vector<Opening> openings =
      openings_of(game, fs::exists(kept) ? kept : openings_source(config));
  register_net_players(config.inference);
  std::vector<std::string> fixed = loop.anchors;
  if (loop.baseline_games > 0) fixed.insert(fixed.begin(), loop.baseline);
  for (const std::string& spec : fixed) {
    PlayerContext ctx;
    ctx.game = &game;
    ctx.search = config.search;
    try {
      make_player(spec, ctx)->new_game(
          *play_opening(game, openings.empty() ? Opening{} : openings[0]));
    } catch (const Error& e) {
      throw Error("loop: the opponent '" + spec + "' cannot start a game: " + e.what());
    }
  }
}

std::vector<LoopMatch> measuring_matches(const RunContext& run) {
  const LoopConfig& loop = run.config.loop;
  std::vector<LoopMatch> out = {
      {"arena_gen0",
       net_spec(run.folder.model_path(0), loop.arena_visits),
       generation_name(0),
       loop.arena_games,
       2,
       {}},
      {"arena_base", loop.baseline, loop.baseline, loop.baseline_games, 3, {}}};
  for (size_t k = 0; k < loop.anchors.size(); ++k)
    out.push_back({"anchor_" + std::to_string(k + 1),
                   loop.anchors[k],
                   loop.anchors[k],
                   loop.anchor_games,
                   4 + k,
                   {}});
  return out;
}

ArenaResult play_loop_match(const RunContext& run, int g, const LoopMatch& match,
                            MatchGroup* group) {
  const Game& game = run.game;
  const RunConfig& config = run.config;
  register_net_players(config.inference);
  const LoopOpenings openings = loop_openings(run);
  fs::create_directories(run.folder.records_dir());
  ArenaConfig ac;
  ac.games = match.games;
  ac.threads = std::min(16, std::max(1, config.selfplay.parallel_games));
  ac.seed = config.seed * 1000003 + uint64_t(g) * 65537 + match.salt;
  ac.openings = openings.openings;
  ac.opening_plies = openings.random_plies;
  ac.progress = false;
  ac.sprt = match.sprt;
  ac.record = run.folder.records_path(g);
  ac.names = {generation_name(g), match.opponent_name};
  ac.match = match.key + ": " + ac.names[0] + " vs " + ac.names[1];
  SearchConfig search = config.search;
  // Light noise for variety; moves by most visits, as in the final evaluation.
  search.root_noise = true;
  search.noise_fraction = 0.1;
  search.temperature_plies = 0;
  const std::string candidate = net_spec(run.folder.model_path(g), config.loop.arena_visits);
  return play_arena_shared(
      game, ac,
      [&](int role, uint64_t seed) {
        PlayerContext ctx;
        ctx.game = &game;
        ctx.seed = seed;
        ctx.search = search;
        return make_player(role == 0 ? candidate : match.opponent, ctx);
      },
      group);
}

RatingsTable refit_ratings(const RunContext& run) {
  PairwiseResults results;
  const fs::path records = run.folder.records_dir();
  if (fs::exists(records)) {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(records))
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    // One file at a time into pairwise results: a long run's records, held
    // whole, would make each generation's refit as large as the run's history.
    for (const std::string& f : files)
      for (const MatchRecord& r : read_records(f)) results.add(r);
  }
  RatingsOptions options;
  const std::string& anchor = run.config.loop.ratings_anchor;
  if (results.has_player(anchor))
    options.anchor = std::make_pair(anchor, 0.0);
  else if (!results.empty())
    run.log << "note: ratings: " << anchor
            << " (loop.ratings_anchor) has played no game; Elo relative to the mean\n";
  const RatingsTable table = results.empty() ? RatingsTable{} : results.fit(options);
  write_text_file(run.folder.ratings_path(), table.csv());
  return table;
}

void draw_curve(const RunContext& run, int generations, const RatingsTable& ratings) {
  const RunFolder& folder = run.folder;
  std::map<int, const Rating*> ladder;  // generations in order
  std::string fixed;                    // the other players, as horizontal lines
  int lines = 0;
  for (const Rating& r : ratings.rows) {
    const int g = generation_of(r.player);
    if (g >= 0)
      ladder[g] = &r;
    else
      fixed += ", " + std::to_string(r.elo) + " with lines lw 2 dashtype " +
               std::to_string(2 + lines++ % 4) + " title " + quoted(r.player);
  }
  const bool validation = fs::exists(folder.metrics_path());
  std::string script =
      "set datafile separator ','\n"
      "set terminal pngcairo size 1000," +
      std::string(validation ? "800" : "450") +
      " noenhanced\n"
      "set output " +
      quoted(folder.curve_path()) +
      "\n"
      "set multiplot layout " +
      std::string(validation ? "2" : "1") +
      ",1 title 'vzero learning curve'\n"
      "set key left top\nset grid\nset xlabel 'generation'\nset ylabel 'Elo (ratings.csv)'\n";
  // Both panels over generations 0 to the last, with whole-number tics.
  const int last =
      std::max(1, ladder.empty() ? generations : std::max(generations, ladder.rbegin()->first));
  script += "set xrange [-0.5:" + std::to_string(last) + ".5]\nset xtics " +
            std::to_string(std::max(1, last / 10)) + "\n";
  if (ladder.empty()) {
    script += "set label 'no rated games yet' at graph 0.4, graph 0.5\nplot [] [-1:1] 2 notitle\n";
  } else {
    script += "$ladder << EOD\n";
    for (const auto& [g, r] : ladder)
      script +=
          std::to_string(g) + "," + std::to_string(r->elo) + "," + std::to_string(r->margin) + "\n";
    script +=
        "EOD\nplot $ladder using 1:2:3 with yerrorlines title 'generations (95%)'" + fixed + "\n";
  }
  if (validation) {
    // The validation panel's curves: (metrics.csv column, title), in plot order.
    const std::pair<const char*, const char*> curves[] = {
        {"val_policy_top1", "policy top-1"},
        {"val_value_mse", "value MSE"},
        {"draw_share", "self-play draws"},
        {"end_repetition", "ended by repetition"},
        {"mean_abs_value_target", "mean |value target|"},
        {"selfplay_time_share", "self-play share of time"}};
    script += "unset label\nset ylabel 'validation'\nplot " + quoted(folder.metrics_path());
    const char* separator = "";
    for (const auto& [column, title] : curves) {
      script += std::string(separator) + " using 1:" + std::to_string(metrics_column(column)) +
                " with linespoints title '" + title + "'";
      separator = ", ''";
    }
    script += "\n";
  }
  script += "unset multiplot\n";
  const fs::path path = folder.curve_script_path();
  write_text_file(path.string(), script);
  const std::string cmd = "gnuplot " + quoted(path.string(), "'\\''") + " > /dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0)
    run.log << "note: gnuplot failed or is missing; curve.png not refreshed\n";
}

}  // namespace vzero
