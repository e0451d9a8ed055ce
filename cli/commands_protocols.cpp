// vzero uci | serve --stdio: the UCI engine and the JSON-lines session on stdin/stdout.
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "frontend/json_session.h"
#include "frontend/uci.h"

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

}  // namespace

void add_protocol_commands(CLI::App& app) {
  CLI::App* uci = app.add_subcommand("uci", "A UCI engine for the 2-player variants (docs/uci.md)");
  uci->callback(run_uci);
  auto stdio = std::make_shared<bool>(false);
  CLI::App* serve = app.add_subcommand("serve", "Serve games as JSON lines (docs/protocol.md)");
  serve->add_flag("--stdio", *stdio, "Requests on stdin, replies on stdout (the only transport)")
      ->required();
  serve->callback(run_serve);
}

}  // namespace vzero::cli
