// vzero uci | serve --stdio: the UCI engine and the JSON-lines session on stdin/stdout.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "cli/commands.h"
#include "frontend/json_session.h"
#include "frontend/uci.h"
#include "game/builtin/games.h"
#include "net/server.h"
#include "util/error.h"

namespace vzero::cli {
namespace {

// Ends the process at once after quit: LibTorch's static destructors alone
// take about 0.3 s, and a GUI expects an engine to be gone promptly.
[[noreturn]] void exit_now() {
  std::cout.flush();
  std::_Exit(0);
}

// Reads UCI commands until quit; at the end of input a limited search finishes, an infinite one
// stops.
void run_uci() {
  UciEngine engine([](const std::string& line) { std::cout << line << '\n' << std::flush; });
  for (std::string line; std::getline(std::cin, line);)
    if (!engine.handle_line(line)) exit_now();
  engine.finish();
}

// Answers one JSON line per request line until quit or the end of input.
void run_serve() {
  JsonSession session;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << session.handle_line(line) << '\n' << std::flush;
    if (session.finished()) exit_now();
  }
}

struct BenchUciOptions {
  std::string variant, model;  // variant "": the model file's stem when it names one (<variant>.pt)
  int64_t nodes = 400;
  int moves = 40, threads = 1, batch = kUciBatch;
  bool pipeline = false;
  double seconds = 2.0;
};

// vzero bench uci: the engine plays a game against itself from the start
// through its UCI commands (go nodes N each move); prints the mean time a
// move takes and its ratio to the batched floor, N / (the same model's
// evals/s at batch 128 in this process, laid out like the engine's server,
// measured before and after the game and averaged).
void bench_uci(BenchUciOptions o) {
  if (o.variant.empty()) {
    const std::string stem = std::filesystem::path(o.model).stem().string();
    const std::vector<std::string> ids = game_ids();
    check(std::find(ids.begin(), ids.end(), stem) != ids.end(),
          "bench uci: give --variant ('" + stem + "' of --model names no variant)");
    o.variant = stem;
  }
  const Game& game = game_by_id(o.variant);
  check(game.num_players() == 2, "bench uci: '" + o.variant + "' is not a 2-player variant");
  check(std::filesystem::is_regular_file(o.model),
        "bench uci: --model '" + o.model + "' is not a file");
  std::mutex m;
  std::string best, failure;
  UciEngine engine([&](const std::string& line) {
    std::lock_guard<std::mutex> lock(m);
    if (line.rfind("bestmove ", 0) == 0) best = line.substr(9);
    if (line.find("cannot use model") != std::string::npos ||
        line.find("search error") != std::string::npos)
      failure = line;
  });
  const auto send = [&](const std::string& line) {
    engine.handle_line(line);
    std::lock_guard<std::mutex> lock(m);
    check(failure.empty(), "bench uci: " + failure);
  };
  send("setoption name UCI_Variant value " + o.variant);
  send("setoption name Model value " + o.model);
  send("setoption name Threads value " + std::to_string(o.threads));
  send("setoption name Batch value " + std::to_string(o.batch));
  send(std::string("setoption name Pipeline value ") + (o.pipeline ? "true" : "false"));
  // The floor, measured before and after the game and averaged: speeds here drift by 10-30%
  // within minutes.
  const auto floor_rate = [&] {
    ServerConfig config;  // the engine's server: the defaults
    InferenceServer server(game, config, o.model);
    return server.measure_evals_per_s(128, o.seconds);
  };
  send("isready");
  const double rate_before = floor_rate();
  send("ucinewgame");
  auto state = game.new_state();
  std::string moves;
  std::vector<double> ms;
  while (int(ms.size()) < o.moves && !state->is_terminal()) {
    send("position startpos" + (moves.empty() ? "" : " moves" + moves));
    const auto start = std::chrono::steady_clock::now();
    send("go nodes " + std::to_string(o.nodes));
    engine.wait();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    std::string move;
    {
      std::lock_guard<std::mutex> lock(m);
      move = best;
    }
    state->apply(state->text_to_action(move));
    moves += " " + move;
  }
  check(!ms.empty(), "bench uci: no move was searched");
  double total = 0.0;
  for (double t : ms) total += t;
  const double mean = total / double(ms.size());
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  std::cout << "uci moves " << ms.size() << " nodes " << o.nodes << " threads " << o.threads
            << " batch " << o.batch << " pipeline " << (o.pipeline ? "true" : "false")
            << " mean_ms_per_move " << mean << " median_ms " << sorted[sorted.size() / 2]
            << " max_ms " << sorted.back() << std::endl;
  const double rate = (rate_before + floor_rate()) / 2.0;
  const double floor_ms = double(o.nodes) / rate * 1000.0;
  std::cout << "nn batch 128 evals_per_s " << int(rate) << " (" << int(rate_before)
            << " before the game, the mean with after) floor_ms " << floor_ms << std::endl;
  std::cout << "ratio " << mean / floor_ms << " (mean ms/move over " << o.nodes
            << " / evals/s at batch 128)" << std::endl;
}

}  // namespace

void add_protocol_commands(CLI::App& app) {
  auto b = std::make_shared<BenchUciOptions>();
  CLI::App* bu = app.get_subcommand("bench")->add_subcommand(
      "uci", "UCI engine ms/move at go nodes N over a self-played game, against the batched floor");
  bu->add_option("--variant", b->variant, "2-player variant id (default: the model's file stem)");
  bu->add_option("--model", b->model, "Checkpoint")->required();
  bu->add_option("--nodes", b->nodes, "go nodes N each move")
      ->check(CLI::Range(int64_t(1), int64_t(1000000)));
  bu->add_option("--moves", b->moves, "Moves (plies) to play")->check(CLI::Range(1, 10000));
  bu->add_option("--threads", b->threads, "The engine's Threads option")->check(CLI::Range(1, 64));
  bu->add_option("--batch", b->batch, "The engine's Batch option (leaves per network call)")
      ->check(CLI::Range(1, 256));
  bu->add_option("--pipeline", b->pipeline,
                 "The engine's Pipeline option (gather the next batch while the net runs)");
  bu->add_option("--seconds", b->seconds, "Seconds of the batch-128 measurement")
      ->check(CLI::Range(0.1, 600.0));
  bu->callback([b] { bench_uci(*b); });

  CLI::App* uci = app.add_subcommand("uci", "A UCI engine for the 2-player variants (docs/uci.md)");
  uci->callback(run_uci);
  auto stdio = std::make_shared<bool>(false);
  CLI::App* serve = app.add_subcommand("serve", "Serve games as JSON lines (docs/protocol.md)");
  serve->add_flag("--stdio", *stdio, "Requests on stdin, replies on stdout (the only transport)")
      ->required();
  serve->callback(run_serve);
}

}  // namespace vzero::cli
