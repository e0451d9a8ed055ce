// vzero: a self-play reinforcement-learning trainer for chess variants.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

#include <iostream>

#include "cli/commands.h"
#include "net/server.h"
#include "net/tensor_allocator.h"
#include "util/error.h"

namespace {

// Empty lists (--set, --merge, files) show no "=[]" default in --help.
void hide_empty_defaults(CLI::App& app) {
  for (CLI::Option* o : app.get_options())
    if (o->get_default_str() == "[]") o->default_str("");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    hide_empty_defaults(*sub);
}

// Large blocks stay in the heap: the network's tensors of every batch would
// otherwise be mapped, or the heap trimmed, and their pages faulted in afresh
// on every call (self-play positions/s +4%, net/README.md).
void keep_large_blocks() {
#ifdef M_TRIM_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  keep_large_blocks();
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
  bool system_allocator = false;
  app.add_flag("--system-allocator", system_allocator,
               "LibTorch's own CPU allocator for tensors instead of vzero's caching one (for "
               "comparisons; net/README.md)");
  // Before any command runs: the caching allocator serves every tensor made after it.
  app.parse_complete_callback([&system_allocator] {
    if (!system_allocator) vzero::install_tensor_allocator();
  });
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
