#pragma once
// The subcommands of the vzero binary. Each registers itself on the CLI11 app.
#include <CLI/CLI.hpp>
#include <atomic>
#include <string>

#include "search/config.h"
#include "training/run_config.h"

namespace vzero::cli {

void add_game_commands(CLI::App& app);      // variants, perft
void add_bench_commands(CLI::App& app);     // bench perft, bench core
void add_play_command(CLI::App& app);       // play
void add_protocol_commands(CLI::App& app);  // uci, serve
void add_search_commands(CLI::App& app);    // arena, bench mcts (after add_bench_commands)
void add_net_commands(CLI::App& app);       // export, grow, bench nn (after add_bench_commands)
void add_selfplay_command(CLI::App& app);   // selfplay
void add_train_commands(CLI::App& app);     // train, loop, bench train
void add_ratings_command(CLI::App& app);    // ratings
void add_gate_command(CLI::App& app);       // gate
void add_web_command(CLI::App& app);        // web

// Roles of a shared run folder: SIGTERM and SIGINT set the flag returned (a second one ends the
// process).
const std::atomic<bool>* install_stop_signals();
// The config of a role: the file config, or when it is empty the run folder's config.toml (if any),
// with set applied and [model] encoding 0 read as the starting model's (in_init_model_encoding).
RunConfig role_config(const std::string& config, const std::string& run_dir,
                      const std::vector<std::string>& set);

// The [search] table of a TOML config file over defaults (none when path is empty).
SearchConfig search_config_from_file(const std::string& path, SearchConfig defaults = {});

}  // namespace vzero::cli
