// vzero play: a person plays in the terminal against a random opponent, or
// watches random players, to check the rules by hand.
#include <iostream>
#include <random>
#include <sstream>

#include "cli/commands.h"
#include "game/error.h"
#include "game/game.h"

namespace vzero::cli {
namespace {

struct PlayOptions {
  std::string variant, fen, opponent = "random";
  int seat = 0;
  bool watch = false;
  uint64_t seed = 1;
};

std::string legal_list(const GameState& s) {
  std::string out;
  for (int a : s.legal_actions()) out += s.action_to_text(a) + " ";
  return out;
}

void run_play(const PlayOptions& o) {
  check(o.opponent == "random", "unknown opponent '" + o.opponent + "' (known: random)");
  const Game& game = game_by_id(o.variant);
  check(o.seat >= 0 && o.seat < game.num_players(),
        "--seat must be in [0, " + std::to_string(game.num_players() - 1) + "]");
  auto state = game.new_state(o.fen);
  std::mt19937_64 rng(o.seed);
  std::cout << "vzero play " << game.id() << ": enter actions in the rules notation (e2e4, e7e8q, "
            << "N@d4, K@d1); 'moves' lists them, 'undo' takes back, 'quit' ends.\n";
  while (!state->is_terminal()) {
    std::cout << "\n" << state->to_text();
    const int player = state->current_player();
    if (o.watch || player != o.seat) {
      const std::vector<int>& actions = state->legal_actions();
      const int a = actions[rng() % actions.size()];
      std::cout << "seat " << player << " (random) plays " << state->action_to_text(a) << "\n";
      state->apply(a);
      continue;
    }
    std::cout << "seat " << player << " (you)> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\n";
      return;
    }
    std::istringstream in(line);
    std::string word;
    if (!(in >> word)) continue;
    if (word == "quit") return;
    if (word == "moves" || word == "?") {
      std::cout << legal_list(*state) << "\n";
      continue;
    }
    if (word == "undo") {
      // Take back the opponents' replies too, up to the person's last action.
      if (state->plies() == 0) {
        std::cout << "nothing to take back\n";
        continue;
      }
      do state->undo();
      while (state->plies() > 0 && state->current_player() != o.seat);
      continue;
    }
    try {
      state->apply(state->text_to_action(word));
    } catch (const Error& e) {
      std::cout << e.what() << "\n";
    }
  }
  std::cout << "\n" << state->to_text() << "game over: " << state->end_reason() << ", returns";
  for (double r : state->returns()) std::cout << " " << r;
  std::cout << "\n";
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  CLI::App* play = app.add_subcommand("play", "Play a variant in the terminal against a random opponent");
  play->add_option("--variant,-v", o->variant, "Variant id")->required();
  play->add_option("--fen", o->fen, "Start position (default: the variant's start)");
  play->add_option("--opponent", o->opponent, "Opponent: random");
  play->add_option("--seat", o->seat, "The seat you play (0 = first)");
  play->add_flag("--watch", o->watch, "Watch random players instead of playing");
  play->add_option("--seed", o->seed, "Random seed of the opponent");
  play->callback([o] { run_play(*o); });
}

}  // namespace vzero::cli
