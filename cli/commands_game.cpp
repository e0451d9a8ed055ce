// vzero variants | perft
#include <chrono>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "game/builtin/games.h"
#include "util/error.h"

namespace vzero::cli {
namespace {

struct PerftOptions {
  std::string variant, fen, moves;
  int depth = 1;
  bool divide = false;
};

// Applies a space-separated list of actions in the rules notation.
void play_moves(GameState& state, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string text; in >> text;) {
    if (state.is_terminal()) throw Error("action '" + text + "' after the game has ended");
    state.apply(state.text_to_action(text));
  }
}

void run_perft(const PerftOptions& o) {
  check(o.depth >= 0 && o.depth <= 20, "depth must be in [0, 20]");
  const Game& game = game_by_id(o.variant);
  auto state = game.new_state(o.fen);
  play_moves(*state, o.moves);
  const auto start = std::chrono::steady_clock::now();
  uint64_t nodes = 0;
  if (o.divide && o.depth >= 1) {
    const std::vector<int> actions = state->legal_actions();
    for (int a : actions) {
      state->apply(a);
      const uint64_t n = state->perft(o.depth - 1);
      state->undo();
      std::cout << state->action_to_text(a) << ": " << n << "\n";
      nodes += n;
    }
  } else {
    nodes = state->perft(o.depth);
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << "nodes " << nodes << " time_ms " << uint64_t(ms) << " nps "
            << uint64_t(ms > 0 ? nodes * 1000.0 / ms : 0) << std::endl;
}

}  // namespace

void add_game_commands(CLI::App& app) {
  app.add_subcommand("variants", "List the variant ids, one per line")->callback([] {
    for (const std::string& id : game_ids()) {
      const Game& g = game_by_id(id);
      std::cout << id << "\t" << g.variant().name << "\t" << g.num_players() << " players\t"
                << g.num_actions() << " actions\n";
    }
  });
  auto enc = std::make_shared<std::string>();
  auto version = std::make_shared<int>(0);
  CLI::App* encoding =
      app.add_subcommand("encoding", "The network input layout of a variant (Markdown)");
  encoding->add_option("--variant,-v", *enc, "Variant id")->required();
  encoding->add_option("--version", *version,
                       "Encoding version (0: the newest; older ones stay for the models that read "
                       "them)");
  encoding->callback([enc, version] {
    const Game& g = game_by_id(*enc);
    const int v = resolved_encoding(g, *version);
    const EncodingSpec& e = g.encoding(v);
    std::cout << "### `" << g.id() << "`: " << e.channels() << " x " << e.height << " x " << e.width
              << ", " << g.num_actions() << " actions, " << g.num_players()
              << " values, encoding hash " << std::hex << encoding_hash(g, v) << std::dec;
    if (g.encoding_versions() > 1)
      std::cout << ", version " << v << " of " << g.encoding_versions();
    std::cout << "\n\n| channel | kind | meaning |\n|---|---|---|\n";
    for (int i = 0; i < e.planes; ++i)
      std::cout << "| " << i << " | plane | " << e.plane_names[i] << " |\n";
    for (int i = 0; i < e.scalars; ++i)
      std::cout << "| " << e.planes + i << " | scalar | " << e.scalar_names[i] << " |\n";
  });
  auto o = std::make_shared<PerftOptions>();
  CLI::App* perft = app.add_subcommand("perft", "Count the leaves of the legal action tree");
  perft->add_option("--variant,-v", o->variant, "Variant id")->required();
  perft->add_option("--fen", o->fen, "Start position (default: the variant's start)");
  perft->add_option("--moves", o->moves, "Actions played first, space separated");
  perft->add_option("--depth,-d", o->depth, "Depth in plies")->required();
  perft->add_flag("--divide", o->divide, "Print the count below each legal action");
  perft->callback([o, perft] {
    check(!(perft->count("--fen") && o->fen.empty()), "--fen is empty");
    run_perft(*o);
  });
}

}  // namespace vzero::cli
