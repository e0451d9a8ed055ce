// vzero gate, and what the roles of a shared run folder (selfplay, train, gate) share on the
// command line.
#include <csignal>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/mpi_job.h"
#include "training/roles.h"
#include "training/train_run.h"
#include "util/error.h"

namespace vzero::cli {

namespace {

std::atomic<bool> stop_signal{false};

extern "C" void on_stop_signal(int) { stop_signal = true; }

struct GateOptions {
  std::string config, run_dir;
  std::vector<std::string> set;
  bool follow = false;
};

}  // namespace

const std::atomic<bool>* install_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second signal ends the process at once
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  return &stop_signal;
}

RunConfig role_config(const std::string& config, const std::string& run_dir,
                      const std::vector<std::string>& set) {
  const std::string own = RunFolder(run_dir).config_path();
  const bool stored = config.empty() && std::filesystem::exists(own);
  return in_init_model_encoding(read_run_config(stored ? own : config, set), run_dir);
}

void add_gate_command(CLI::App& app) {
  auto o = std::make_shared<GateOptions>();
  CLI::App* g = app.add_subcommand(
      "gate", "Play the next candidate of a run folder against its promoted model and promote it");
  g->add_option("--config", o->config, "Run config (TOML); default: the run folder's config.toml");
  g->add_option("--run-dir", o->run_dir, "The shared run folder")->required();
  g->add_option("--set", o->set, "Config override table.key=value (repeatable)");
  g->add_flag("--follow", o->follow,
              "Keep gating each new candidate until the last generation or a stop");
  g->callback([o] {
    const RunConfig config = role_config(o->config, o->run_dir, o->set);
    RoleOptions options;
    options.signal = install_stop_signals();
    options.follow = o->follow;
    // Under mpirun (or srun), the ranks share each match's games; rank 0 keeps the folder.
    const std::unique_ptr<MatchGroup> job = join_mpi_job();
    options.match_group = job.get();
    run_ranked(job.get(), [&] { run_gate({config, o->run_dir, std::cout}, options); });
  });
}

}  // namespace vzero::cli
