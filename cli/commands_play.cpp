// vzero play: a person plays in the terminal against any player (random,
// mcts:, net:, ... — every spec the arena takes), or watches them play.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "frontend/analysis.h"
#include "game/builtin/games.h"
#include "game/zobrist.h"
#include "util/error.h"

namespace vzero::cli {
namespace {

struct PlayOptions {
  std::string variant, fen, opponent = "auto", config;
  int seat = 0;
  bool watch = false, hint = false;
  int hint_sims = 0;
  int hint_lines = 5;
  uint64_t seed = 1;
};

// The player spec of --opponent: "auto" is the variant's shipped model
// (models/<variant>.pt, found as uci and serve find it) as a net: player, else
// network-free heuristic search, said on stderr; any other spec as given.
std::string resolve_opponent(const std::string& opponent, const std::string& variant) {
  if (opponent != "auto") return opponent;
  const std::string shipped = shipped_model(variant, default_model_dirs());
  if (!shipped.empty()) return "net:model=" + shipped;
  const std::string fallback = std::string("mcts:evaluator=") + kFallbackEvaluator;
  std::cerr << "vzero play: no shipped model for " << variant << " (models/" << variant
            << ".pt), playing " << fallback << "\n";
  return fallback;
}

// A game between a person (one seat, or none when watching) and players of one spec.
class Table {
 public:
  explicit Table(const PlayOptions& o) : o_(o), game_(game_by_id(o.variant)) {
    check(o.seat >= 0 && o.seat < game_.num_players(),
          "--seat must be in [0, " + std::to_string(game_.num_players() - 1) + "]");
    start_ = game_.new_state(o.fen);
    state_ = start_->clone();
    PlayerContext ctx;
    ctx.game = &game_;
    ctx.search = search_config_from_file(o.config, play_search_config());
    spec_ = resolve_opponent(o.opponent, game_.id());
    uint64_t seeds = o.seed;
    players_.resize(size_t(game_.num_players()));
    for (int s = 0; s < game_.num_players(); ++s) {
      if (!o.watch && s == o.seat) continue;
      ctx.seed = splitmix64(seeds);
      players_[size_t(s)] = make_player(spec_, ctx);
      players_[size_t(s)]->new_game(*start_);
      if (!hint_engine_.evaluator)
        hint_engine_ = engine_of(*players_[size_t(s)], ctx.search, o.seed);
    }
    if (!hint_engine_.evaluator)
      hint_engine_ = basic_engine(kFallbackEvaluator, ctx.search, o.seed);
  }

  // Plays until the game ends or the person quits.
  void run() {
    std::cout << "vzero play " << game_.id() << " against " << spec_
              << ": enter actions in the rules notation (e2e4, e7e8q, N@d4, K@d1); 'help' lists "
                 "the commands.\n";
    while (!state_->is_terminal()) {
      show_board();
      const int p = state_->current_player();
      if (players_[size_t(p)]) {
        const int a = players_[size_t(p)]->choose(*state_);
        std::cout << "seat " << p << " (" << spec_ << ") plays " << state_->action_to_text(a)
                  << "\n";
        play(a);
        continue;
      }
      if (o_.hint) show_hint(o_.hint_sims);
      if (!person_turn()) return;
    }
    show_board();
    std::cout << "game over: " << state_->end_reason() << "; returns";
    const std::vector<double> r = state_->returns();
    for (size_t s = 0; s < r.size(); ++s)
      std::cout << " seat " << s << " " << std::showpos << r[s] << std::noshowpos;
    if (!o_.watch) std::cout << " (you: seat " << o_.seat << ")";
    std::cout << "\n";
  }

 private:
  // Plays action for the seat to act and tells every player.
  void play(int action) {
    last_ = "seat " + std::to_string(state_->current_player()) + " played " +
            state_->action_to_text(action);
    state_->apply(action);
    history_.push_back(action);
    for (auto& p : players_)
      if (p) p->observe(action);
  }

  // The board (with hands and turn), the last move and who acts next.
  void show_board() const {
    std::cout << "\n" << state_->to_text();
    if (!last_.empty()) std::cout << "last move: " << last_ << "\n";
    if (!state_->is_terminal()) {
      const int p = state_->current_player();
      std::cout << "to act: seat " << p << (players_[size_t(p)] ? " (" + spec_ + ")" : " (you)")
                << "\n";
    }
  }

  // The engine's top moves here: visits, prior and the value for the seat to act.
  void show_hint(int sims) const {
    const RootStats s = analyse(hint_engine_, *state_, sims, 1, o_.seed);
    const int p = s.player;
    std::cout << "hint (" << hint_engine_.evaluator->name() << " search, " << s.visits
              << " visits, value for seat " << p << " " << std::showpos << std::fixed
              << std::setprecision(3) << s.value[size_t(p)] << std::noshowpos << "):\n";
    for (int i = 0; i < std::min<int>(o_.hint_lines, int(s.actions.size())); ++i) {
      const ActionStat& a = s.actions[size_t(i)];
      std::cout << "  " << std::left << std::setw(8) << state_->action_to_text(a.action)
                << std::right << " visits " << std::setw(6) << a.visits << "  prior "
                << std::setprecision(3) << a.prior << "  value ";
      if (a.value.empty())
        std::cout << "   -  ";
      else
        std::cout << std::showpos << a.value[size_t(p)] << std::noshowpos;
      if (a.proven) std::cout << " (proven)";
      std::cout << "\n";
    }
    std::cout << std::defaultfloat;
  }

  // Reads and runs one command of the person; false when the person quits or input ends.
  bool person_turn() {
    while (true) {
      std::cout << "seat " << state_->current_player() << " (you)> " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line)) {
        std::cout << "\n";
        return false;
      }
      std::istringstream in(line);
      std::string word;
      if (!(in >> word)) continue;
      if (word == "quit") return false;
      if (word == "help") {
        std::cout << "ACTION plays it; moves lists the legal actions; hint [SIMS] shows the "
                     "engine's top moves;"
                     " undo takes back your last action; fen prints the position; quit ends\n";
      } else if (word == "moves" || word == "?") {
        for (int a : state_->legal_actions()) std::cout << state_->action_to_text(a) << " ";
        std::cout << "\n";
      } else if (word == "fen") {
        std::cout << state_->fen() << "\n";
      } else if (word == "hint") {
        int sims = o_.hint_sims;
        if (!(in >> sims) || sims < 1 || sims > 1000000) sims = o_.hint_sims;
        show_hint(sims);
      } else if (word == "undo") {
        if (undo()) return true;
        std::cout << "nothing to take back\n";
      } else {
        try {
          play(state_->text_to_action(word));
          return true;
        } catch (const Error& e) {
          std::cout << e.what() << "\n";
        }
      }
    }
  }

  // Takes back the person's last action and the replies after it; false when there is none.
  bool undo() {
    size_t n = history_.size();
    auto probe = start_->clone();
    std::vector<int> seat_of;
    for (int a : history_) {
      seat_of.push_back(probe->current_player());
      probe->apply(a);
    }
    while (n > 0 && seat_of[n - 1] != o_.seat) --n;
    if (n == 0) return false;
    --n;
    while (history_.size() > n) {
      state_->undo();
      history_.pop_back();
    }
    last_.clear();
    for (auto& p : players_)
      if (p) {
        p->new_game(*start_);
        for (int a : history_) p->observe(a);
      }
    return true;
  }

  const PlayOptions& o_;
  const Game& game_;
  std::unique_ptr<GameState> start_, state_;
  std::vector<std::unique_ptr<Player>> players_;  // null at the person's seat
  std::vector<int> history_;
  std::string last_;
  Engine hint_engine_;
  std::string spec_;  // the opponent's player spec in force
};

}  // namespace

void add_play_command(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  CLI::App* play = app.add_subcommand("play", "Play a variant in the terminal against any player");
  play->add_option("--variant,-v", o->variant, "Variant id")->required();
  play->add_option("--fen", o->fen, "Start position (default: the variant's start)");
  play->add_option(
      "--opponent", o->opponent,
      "Player spec of every other seat: auto (the variant's shipped model models/<variant>.pt, "
      "else mcts:evaluator=heuristic) | random | mcts:sims=N,... | net:model=PATH,... (as arena)");
  play->add_option("--seat", o->seat, "The seat you play (0 = first)");
  play->add_flag("--watch", o->watch, "Watch the opponent spec play every seat");
  play->add_flag("--hint", o->hint, "Show the engine's top moves before each of your actions");
  play->add_option("--hint-sims", o->hint_sims, "Playouts of a hint (default: the opponent's)")
      ->check(CLI::Range(1, 1000000))
      ->default_str("");
  play->add_option("--config", o->config,
                   "Run config (TOML, every key checked as loop checks it) whose [search] table "
                   "sets search defaults");
  play->add_option("--seed", o->seed, "Random seed of the opponents");
  play->callback([o] { Table(*o).run(); });
}

}  // namespace vzero::cli
