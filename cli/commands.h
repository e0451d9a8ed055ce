#pragma once
// The subcommands of the vzero binary. Each registers itself on the CLI11 app.
#include <CLI/CLI.hpp>
#include <string>

#include "mcts/config.h"

namespace vzero::cli {

void add_game_commands(CLI::App& app);   // variants, perft
void add_bench_commands(CLI::App& app);  // bench perft, bench core
void add_play_command(CLI::App& app);    // play
void add_protocol_commands(CLI::App& app);  // uci, serve
void add_search_commands(CLI::App& app);  // arena, bench mcts (after add_bench_commands)
void add_net_commands(CLI::App& app);     // export, bench nn (after add_bench_commands)
void add_selfplay_command(CLI::App& app);  // selfplay
void add_train_commands(CLI::App& app);    // train, loop, bench train
void add_ratings_command(CLI::App& app);   // ratings

// The [search] table of a TOML config file over defaults (none when path is empty).
SearchConfig search_config_from_file(const std::string& path, SearchConfig defaults = {});

}  // namespace vzero::cli
