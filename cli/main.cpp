// vzero: a self-play reinforcement-learning trainer for chess variants.
#include <iostream>

#include "cli/commands.h"
#include "net/server.h"
#include "util/error.h"

namespace {

// Empty lists (--set, --merge, files) show no "=[]" default in --help.
void hide_empty_defaults(CLI::App& app) {
  for (CLI::Option* o : app.get_options())
    if (o->get_default_str() == "[]") o->default_str("");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    hide_empty_defaults(*sub);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vzero: self-play reinforcement learning for chess variants"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();  // every --help shows the defaults in force
  vzero::cli::add_game_commands(app);
  vzero::cli::add_bench_commands(app);
  vzero::cli::add_play_command(app);
  vzero::cli::add_protocol_commands(app);
  vzero::cli::add_search_commands(app);
  vzero::cli::add_net_commands(app);
  vzero::cli::add_selfplay_command(app);
  vzero::cli::add_train_commands(app);
  vzero::cli::add_ratings_command(app);
  vzero::cli::add_gate_command(app);
  vzero::cli::add_web_command(app);
  hide_empty_defaults(app);
  vzero::register_net_players(vzero::ServerConfig{});
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "vzero: " << e.what() << " (see --help)\n";
    return 2;
  } catch (const vzero::Error& e) {
    std::cerr << "vzero: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "vzero: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
