// UCI engines as players: the spec, the variant table, the protocol.
#include "match/uci_player.h"

#include <cmath>
#include <sstream>

#include "match/uci_process.h"
#include "util/error.h"

namespace vzero {

namespace {

std::string same(const std::string& text) { return text; }

// Variants whose move texts and FEN are Fairy-Stockfish's own: squares
// a1.. with ranks counted from 1 (a10 on 10-rank boards), promotions as a
// lower-case suffix, castling as the king's two-square move; shogi and
// minishogi: drops "P@e5", promotions "+", hands "[...]" in the FEN.
const std::vector<UciVariantMap>& variant_table() {
  static const std::vector<UciVariantMap> table = {
      {"chess", "chess", same, same, same},         {"grand", "grand", same, same, same},
      {"losalamos", "losalamos", same, same, same}, {"shogi", "shogi", same, same, same},
      {"minishogi", "minishogi", same, same, same},
  };
  return table;
}

// A whole number in [lo, hi] (throws Error naming the key).
long long whole(const std::string& key, const std::string& text, long long lo, long long hi) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  throw Error("uci player: " + key + " must be a whole number in [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "]");
}

double seconds(const std::string& key, const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && v >= 0.1 && v <= 86400) return v;
  } catch (const std::exception&) {
  }
  throw Error("uci player: " + key + " must be seconds in [0.1, 86400]");
}

// One game's engine: started by new_game, stopped when the player goes.
class UciPlayer : public Player {
 public:
  UciPlayer(const Game& game, UciSpec spec)
      : game_(game), spec_(std::move(spec)), map_(*uci_variant_map(game.id())) {}
  ~UciPlayer() override {
    if (engine_) engine_->stop("quit", failed_ ? 0.0 : 0.5);
  }

  void new_game(const GameState& start) override {
    moves_.clear();
    const std::unique_ptr<GameState> initial = game_.new_state();
    position_ =
        start.fen() == initial->fen() ? "startpos" : "fen " + map_.fen_to_engine(start.fen());
    guarded([&] {
      engine_ = std::make_unique<ChildProcess>(spec_.command, spec_.args);
      handshake();
    });
  }

  int choose(const GameState& state) override {
    std::string move;
    guarded([&] {
      std::string line = "position " + position_;
      if (!moves_.empty()) line += " moves";
      for (const std::string& m : moves_) line += " " + m;
      engine_->send(line);
      engine_->send("go " + spec_.go);
      move = bestmove();
    });
    try {
      return state.text_to_action(map_.move_from_engine(move));
    } catch (const Error&) {
      failed_ = true;
      throw PlayerForfeit("engine played an illegal move '" + move + "'");
    }
  }

  void observe(int action) override {
    moves_.push_back(map_.move_to_engine(game_.action_text(action)));
  }

 private:
  // Runs f; a process failure becomes a forfeit.
  template <class F>
  void guarded(F f) {
    try {
      f();
    } catch (const ProcessFailure& e) {
      failed_ = true;
      throw PlayerForfeit(e.what());
    }
  }

  // uci ... uciok, the options, isready ... readyok, ucinewgame, isready ... readyok.
  void handshake() {
    engine_->send("uci");
    std::vector<std::string> variants;
    bool has_variant_option = false;
    for (std::string line; (line = engine_->read_line(spec_.timeout_s)) != "uciok";) {
      std::istringstream in(line);
      std::string w0, w1, w2;
      in >> w0 >> w1 >> w2;
      if (w0 != "option" || w1 != "name" || w2 != "UCI_Variant") continue;
      has_variant_option = true;
      for (std::string prev, word; in >> word; prev = word)
        if (prev == "var" || prev == "default") variants.push_back(word);
    }
    if (has_variant_option) {
      bool known = false;
      for (const std::string& v : variants) known |= v == spec_.variant;
      check(known, "uci player: engine '" + spec_.command + "' does not play variant '" +
                       spec_.variant + "'");
      engine_->send("setoption name UCI_Variant value " + spec_.variant);
    } else {
      check(spec_.variant == "chess", "uci player: engine '" + spec_.command +
                                          "' has no UCI_Variant option (it plays only chess)");
    }
    for (const auto& [name, value] : spec_.options)
      engine_->send("setoption name " + name + " value " + value);
    ready();
    engine_->send("ucinewgame");
    ready();
  }

  void ready() {
    engine_->send("isready");
    while (engine_->read_line(spec_.timeout_s) != "readyok") {
    }
  }

  // The move of the next "bestmove" line.
  std::string bestmove() {
    for (;;) {
      std::istringstream in(engine_->read_line(spec_.timeout_s));
      std::string word, move;
      in >> word;
      if (word != "bestmove") continue;
      in >> move;
      if (move.empty() || move == "(none)" || move == "0000")
        throw ProcessFailure("engine has no move");
      return move;
    }
  }

  const Game& game_;
  const UciSpec spec_;
  const UciVariantMap& map_;
  std::unique_ptr<ChildProcess> engine_;
  std::string position_;
  std::vector<std::string> moves_;  // engine texts since position_
  bool failed_ = false;
};

}  // namespace

const UciVariantMap* uci_variant_map(const std::string& vzero_id) {
  for (const UciVariantMap& m : variant_table())
    if (m.vzero_id == vzero_id) return &m;
  return nullptr;
}

UciSpec parse_uci_spec(SpecOptions& options, const Game& game) {
  const UciVariantMap* map = uci_variant_map(game.id());
  check(map != nullptr, "uci player: vzero has no UCI mapping for variant '" + game.id() +
                            "' (docs/uci-players.md)");
  UciSpec s;
  s.variant = map->engine_variant;
  std::string thread_count, hash;
  double movetime_s = 0.0;
  bool has_timeout = false;
  int limits = 0;
  for (const auto& [key, value] : options.items) {
    if (key == "cmd") {
      s.command = value;
    } else if (key == "arg") {
      s.args.push_back(value);
    } else if (key == "variant") {
      s.variant = value;
    } else if (key == "depth" || key == "nodes" || key == "movetime") {
      const long long v = whole(key, value, 1,
                                key == "depth"   ? 1000
                                : key == "nodes" ? 1000000000000LL
                                                 : 86400000);
      s.go = key + " " + std::to_string(v);
      movetime_s = key == "movetime" ? v / 1000.0 : 0.0;
      ++limits;
    } else if (key == "threads") {
      s.options.emplace_back("Threads", std::to_string(whole(key, value, 1, 1024)));
    } else if (key == "hash") {
      s.options.emplace_back("Hash", std::to_string(whole(key, value, 1, 1 << 20)));
    } else if (key.rfind("opt.", 0) == 0 && key.size() > 4) {
      s.options.emplace_back(key.substr(4), value);
    } else if (key == "timeout") {
      s.timeout_s = seconds(key, value);
      has_timeout = true;
    } else {
      throw Error("uci player: unknown option '" + key + "'");
    }
  }
  options.items.clear();
  check(!s.command.empty(), "uci player: needs cmd=PATH");
  check(is_executable_command(s.command),
        "uci player: '" + s.command + "' is not an executable command");
  check(limits == 1, "uci player: needs exactly one of depth=D, nodes=N, movetime=MS");
  if (!has_timeout) s.timeout_s += movetime_s;
  return s;
}

std::unique_ptr<Player> make_uci_player(SpecOptions& options, const PlayerContext& ctx) {
  check(ctx.game != nullptr, "uci player: no game");
  return std::make_unique<UciPlayer>(*ctx.game, parse_uci_spec(options, *ctx.game));
}

PlayerKind uci_player_kind() { return {"uci", make_uci_player}; }

}  // namespace vzero
