// vzero bench perft | bench core: fixed workloads that print speed figures.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <random>

#include "cli/commands.h"
#include "game/builtin/games.h"
#include "util/error.h"

namespace vzero::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct PerftCase {
  const char* variant;
  int depth;
  uint64_t expected;
  bool deep;  // skipped with --quick
};

// Single-thread perft from the start positions, checked against known counts.
int bench_perft(bool quick) {
  const PerftCase cases[] = {
      {"chess", 5, 4865609, false},       {"chess", 6, 119060324, false},
      {"ascending", 5, 4897256, false},   {"007", 5, 4865609, false},
      {"ascending", 6, 0, true},          {"007", 6, 119060324, true},
      {"grand", 4, 15921643, false},      {"grand", 5, 959883584, true},
      {"world", 4, 1145267, false},       {"world", 5, 39678973, true},
      {"parachute", 4, 906015679, false}, {"losalamos", 6, 2549164, false},
      {"shogi", 5, 19861490, false},      {"minishogi", 6, 8276188, false},
  };
  int failures = 0;
  for (const PerftCase& c : cases) {
    if (quick && c.deep) continue;
    auto state = game_by_id(c.variant).new_state();
    const auto start = std::chrono::steady_clock::now();
    const uint64_t nodes = state->perft(c.depth);
    const double s = seconds_since(start);
    const bool ok = c.expected == 0 || nodes == c.expected;  // 0: no reference count
    failures += !ok;
    std::cout << "perft " << std::left << std::setw(10) << c.variant << " depth " << c.depth
              << " nodes " << nodes << " time_ms " << uint64_t(s * 1000) << " nps "
              << uint64_t(nodes / s)
              << (ok ? " ok" : " MISMATCH expected " + std::to_string(c.expected)) << std::endl;
  }
  return failures;
}

// Search steps per second: legal actions, apply, terminal test and undo over
// random games, the way a tree search walks positions.
void bench_core(const std::vector<std::string>& variants, double seconds, uint64_t seed) {
  for (const std::string& id : variants) {
    auto state = game_by_id(id).new_state();
    std::mt19937_64 rng(seed);
    uint64_t steps = 0;
    const auto start = std::chrono::steady_clock::now();
    while (seconds_since(start) < seconds) {
      for (int game = 0; game < 16; ++game) {
        int depth = 0;
        while (!state->is_terminal()) {
          const std::vector<int>& actions = state->legal_actions();
          state->apply(actions[rng() % actions.size()]);
          ++depth;
          ++steps;
        }
        while (depth--) state->undo();
      }
    }
    const double s = seconds_since(start);
    std::cout << "core " << std::left << std::setw(8) << id << " steps " << steps << " time_ms "
              << uint64_t(s * 1000) << " steps_per_s " << uint64_t(steps / s) << std::endl;
  }
}

}  // namespace

void add_bench_commands(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Speed benchmarks that print figures");
  bench->require_subcommand(1);
  auto quick = std::make_shared<bool>(false);
  CLI::App* perft =
      bench->add_subcommand("perft", "Single-thread perft nodes/s, counts checked (every core)");
  perft->add_flag("--quick", *quick,
                  "Skip the deepest rows (depth 6 of ascending and 007, grand 5, world 5)");
  perft->callback([quick] {
    if (bench_perft(*quick)) throw Error("perft counts differ from the reference");
  });
  auto variants = std::make_shared<std::vector<std::string>>(
      std::vector<std::string>{"chess", "grand", "losalamos", "shogi", "minishogi"});
  auto seconds = std::make_shared<double>(3.0);
  auto seed = std::make_shared<uint64_t>(1);
  CLI::App* core = bench->add_subcommand("core", "Search steps/s over random games");
  core->add_option("--variants", *variants, "Variant ids");
  core->add_option("--seconds", *seconds, "Seconds per variant")->check(CLI::Range(0.1, 600.0));
  core->add_option("--seed", *seed, "Random seed");
  core->callback([=] { bench_core(*variants, *seconds, *seed); });
}

}  // namespace vzero::cli
