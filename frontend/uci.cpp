// The UCI engine's commands, options and positions.
#include "frontend/uci.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "game/builtin/games.h"
#include "game/fen_text.h"
#include "util/error.h"

namespace vzero {

std::vector<std::string> uci_words(const std::string& line) {
  return fen_fields(line);
}  // the same split

std::string ascii_lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

namespace {

constexpr int64_t kDefaultVisits = 800;  // a `go` without any limit
constexpr int64_t kMoveOverheadMs = 30;  // kept back from the clock for communication

// words[from, to) joined by single spaces.
std::string join(const std::vector<std::string>& words, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < words.size(); ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

// An integer in [lo, hi] (throws Error naming what).
int64_t parse_int(const std::string& text, int64_t lo, int64_t hi, const std::string& what) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  check(used == text.size() && used > 0, what + ": '" + text + "' is not an integer");
  check(v >= lo && v <= hi,
        what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

// The UCI_Variant values: vzero's 2-player variant ids.
std::vector<std::string> two_player_variants() {
  std::vector<std::string> ids;
  for (const std::string& id : game_ids())
    if (game_by_id(id).num_players() == 2) ids.push_back(id);
  return ids;
}

const std::vector<std::string> kEvaluators = {"constant", "heuristic", "rollout"};

// Whether w names a part of a `go` command.
bool is_go_keyword(const std::string& w) {
  static const std::vector<std::string> keys = {"searchmoves", "ponder", "wtime",     "btime",
                                                "winc",        "binc",   "movestogo", "depth",
                                                "nodes",       "mate",   "movetime",  "infinite"};
  return std::find(keys.begin(), keys.end(), w) != keys.end();
}

}  // namespace

UciEngine::UciEngine(Sink out, std::vector<std::string> model_dirs)
    : out_(std::move(out)), model_dirs_(std::move(model_dirs)) {
  position_ = game().new_state();
}

UciEngine::~UciEngine() { job_.reset(); }

void UciEngine::send(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_(line);
}

const Game& UciEngine::game() const { return game_by_id(variant_); }

void UciEngine::wait() {
  if (job_) job_->wait();
}

void UciEngine::finish() {
  if (job_ && job_->infinite()) job_->stop();
  wait();
}

bool UciEngine::handle_line(const std::string& line) {
  try {
    const std::vector<std::string> words = uci_words(line);
    if (words.empty()) return true;
    const std::string& cmd = words[0];
    if (cmd == "quit") {
      stop_search();
      return false;
    }
    if (cmd == "uci") {
      uci();
    } else if (cmd == "isready") {
      engine();
      send("readyok");
    } else if (cmd == "setoption") {
      set_option(words);
    } else if (cmd == "ucinewgame") {
      if (job_) stop_search();
      job_.reset();
      searches_.clear();  // a new game: no tree of the old one
      position_ = game().new_state();
      position_start_ = "startpos";
      position_moves_.clear();
    } else if (cmd == "position") {
      set_position(words);
    } else if (cmd == "go") {
      go(words);
    } else if (cmd == "stop") {
      stop_search();
    } else if (cmd == "ponderhit") {
      ponderhit();
    } else if (cmd == "d") {
      std::istringstream diagram(position_->to_text());
      for (std::string l; std::getline(diagram, l);) send(l);
    } else {
      send("info string unknown command '" + cmd + "'");
    }
  } catch (const std::exception& e) {
    send(std::string("info string ") + e.what());
  }
  return true;
}

void UciEngine::uci() {
  send("id name vzero");
  send("id author the vzero authors");
  std::string variants = "option name UCI_Variant type combo default " + variant_;
  for (const std::string& id : two_player_variants()) variants += " var " + id;
  send(variants);
  send("option name Model type string default auto");
  std::string evaluators =
      "option name Evaluator type combo default " + std::string(kFallbackEvaluator);
  for (const std::string& e : kEvaluators) evaluators += " var " + e;
  send(evaluators);
  send("option name Threads type spin default 1 min 1 max 64");
  send("option name Nodes type spin default 0 min 0 max 100000000");
  send("option name MultiPV type spin default 1 min 1 max 256");
  send("option name UCI_ShowWDL type check default true");
  send("option name Ponder type check default false");
  send("option name Batch type spin default " + std::to_string(kUciBatch) + " min 1 max 256");
  send("option name Pipeline type check default false");
  send("option name PolicyTemperature type spin default " +
       std::to_string(std::lround(play_search_config().policy_temperature * 100)) +
       " min 10 max 1000");
  send("uciok");
}

void UciEngine::set_option(const std::vector<std::string>& words) {
  const auto value_at = std::find(words.begin(), words.end(), "value");
  check(words.size() >= 3 && words[1] == "name", "usage: setoption name NAME [value VALUE]");
  const size_t v = size_t(value_at - words.begin());
  const std::string name = ascii_lower(join(words, 2, v));
  const std::string value = join(words, v + 1, words.size());
  if (name == "uci_variant") {
    const std::vector<std::string> ids = two_player_variants();
    check(std::find(ids.begin(), ids.end(), value) != ids.end(),
          "unknown UCI_Variant '" + value + "' (see the option's vars)");
    variant_ = value;
    position_ = game().new_state();
    position_start_ = "startpos";
    position_moves_.clear();
    reset_engine();
  } else if (name == "model") {
    model_ = value;
    reset_engine();
  } else if (name == "evaluator") {
    check(std::find(kEvaluators.begin(), kEvaluators.end(), value) != kEvaluators.end(),
          "unknown Evaluator '" + value + "' (constant, heuristic or rollout)");
    evaluator_ = value;
    reset_engine();
  } else if (name == "threads") {
    threads_ = int(parse_int(value, 1, 64, "Threads"));
  } else if (name == "nodes") {
    nodes_ = parse_int(value, 0, 100000000, "Nodes");
  } else if (name == "multipv") {
    multipv_ = int(parse_int(value, 1, 256, "MultiPV"));
  } else if (name == "ponder") {
    check(value == "true" || value == "false", "Ponder must be true or false");
  } else if (name == "batch") {
    batch_ = int(parse_int(value, 1, 256, "Batch"));
  } else if (name == "pipeline") {
    check(value == "true" || value == "false", "Pipeline must be true or false");
    pipeline_ = value == "true";
  } else if (name == "policytemperature") {
    policy_temperature_ = double(parse_int(value, 10, 1000, "PolicyTemperature")) / 100.0;
  } else if (name == "uci_showwdl") {
    check(value == "true" || value == "false", "UCI_ShowWDL must be true or false");
    show_wdl_ = value == "true";
  } else {
    throw Error("unknown option '" + join(words, 2, v) + "'");
  }
}

void UciEngine::set_position(const std::vector<std::string>& words) {
  check(words.size() >= 2 && (words[1] == "startpos" || words[1] == "fen"),
        "usage: position startpos|fen FEN [moves M...]");
  const auto moves_at = std::find(words.begin(), words.end(), "moves");
  const size_t m = size_t(moves_at - words.begin());
  std::unique_ptr<GameState> s;
  std::string start = "startpos";
  std::vector<int> moves;
  if (words[1] == "startpos") {
    check(m == 2 || words.size() == 2, "position startpos: expected 'moves' after startpos");
    s = game().new_state();
  } else {
    const std::string fen = join(words, 2, m);
    check(!fen.empty(), "position fen: the FEN is missing");
    s = game().new_state(fen);
    start = "fen " + fen;
  }
  for (size_t i = m + 1; i < words.size(); ++i) {
    try {
      const int action = s->text_to_action(words[i]);
      s->apply(action);
      moves.push_back(action);
    } catch (const Error& e) {
      send("info string illegal move '" + words[i] + "' (" + e.what() +
           "): the position stops before it");
      break;
    }
  }
  position_ = std::move(s);
  position_start_ = start;
  position_moves_ = std::move(moves);
}

namespace {

// The limits a `go` command names.
struct GoArgs {
  int64_t clock[2] = {-1, -1}, inc[2] = {0, 0};  // per side (seat 0 = w); -1: no clock
  int64_t movestogo = 0, movetime = 0, nodes = 0;
  bool infinite = false, ponder = false;
  bool depth_or_mate = false;  // limits a PUCT search does not have
};

// Reads `go ...`; what it cannot use goes to warn (as "info string" text).
GoArgs parse_go(const std::vector<std::string>& words,
                const std::function<void(const std::string&)>& warn) {
  GoArgs g;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "infinite") {
      g.infinite = true;
    } else if (w == "ponder") {
      g.ponder = true;
    } else if (w == "searchmoves") {
      warn("searchmoves is not supported: searching every move");
      while (i + 1 < words.size() && !is_go_keyword(words[i + 1])) ++i;
    } else if (!is_go_keyword(w) || i + 1 >= words.size()) {
      warn("go: ignoring '" + w + "'");
    } else {
      try {
        const int64_t v = parse_int(words[++i], 0, int64_t(1) << 50, "go " + w);
        int64_t* field = w == "wtime"       ? &g.clock[0]
                         : w == "btime"     ? &g.clock[1]
                         : w == "winc"      ? &g.inc[0]
                         : w == "binc"      ? &g.inc[1]
                         : w == "movestogo" ? &g.movestogo
                         : w == "movetime"  ? &g.movetime
                         : w == "nodes"     ? &g.nodes
                                            : nullptr;
        if (field)
          *field = v;
        else
          g.depth_or_mate = true;
      } catch (const Error& e) {
        warn(e.what());
      }
    }
  }
  return g;
}

// The limits of a search for `side` (0 or 1): nodes, and a time budget from
// movetime and the clock. The clock's share: what is left over the moves to
// go (movestogo, at most 50; without it 25) plus 3/4 of the increment, never
// more than 3/4 of what is left past the overhead (the last move before a
// time control: 9/10), so that the clock never falls.
SearchLimits limits_of(const GoArgs& g, int side, int64_t nodes_option) {
  SearchLimits limits;
  limits.infinite = g.infinite;
  limits.ponder = g.ponder;
  limits.nodes = g.nodes > 0 ? g.nodes : nodes_option;
  if (g.movetime > 0) limits.time_ms = std::max<int64_t>(1, g.movetime - 5);
  if (g.clock[side] >= 0) {
    const int64_t mine = g.clock[side];
    const int64_t moves = g.movestogo > 0 ? std::min<int64_t>(g.movestogo, 50) : 25;
    const int64_t budget = mine / moves + g.inc[side] * 3 / 4;
    const int64_t spare = std::max<int64_t>(0, mine - kMoveOverheadMs);
    const int64_t most = moves == 1 ? spare * 9 / 10 : spare * 3 / 4;
    const int64_t t = std::max<int64_t>(1, std::min(budget, most));
    limits.time_ms = limits.time_ms > 0 ? std::min(limits.time_ms, t) : t;
  }
  if (!g.infinite && limits.nodes == 0 && limits.time_ms == 0) limits.nodes = kDefaultVisits;
  return limits;
}

}  // namespace

SearchLimits go_limits(const std::vector<std::string>& words, int side, int64_t nodes_option,
                       const std::function<void(const std::string&)>& warn) {
  return limits_of(parse_go(words, warn), side, nodes_option);
}

void UciEngine::go(const std::vector<std::string>& words) {
  if (job_ && !job_->done()) {
    send("info string already searching (send stop first)");
    return;
  }
  job_.reset();
  if (position_->is_terminal()) {
    send("info string the game is over (" + position_->end_reason() + ")");
    send("bestmove (none)");
    return;
  }
  const GoArgs args = parse_go(words, [this](const std::string& w) { send("info string " + w); });
  const SearchLimits limits = limits_of(args, position_->current_player() == 0 ? 0 : 1, nodes_);
  if (args.depth_or_mate && limits.nodes == kDefaultVisits && limits.time_ms == 0)
    send("info string depth and mate limits are not supported: searching " +
         std::to_string(kDefaultVisits) + " playouts");
  const Engine& e = engine();
  job_ = std::make_unique<SearchJob>(*position_, e, limits, searches_at_position(),
                                     InfoOptions{multipv_, show_wdl_},
                                     [this](const std::string& line) { send(line); });
}

std::vector<std::shared_ptr<Search>> UciEngine::searches_at_position() {
  const Engine& e = engine();
  SearchConfig config = e.search;
  config.batch = batch_;
  config.pipeline = pipeline_;
  config.policy_temperature = policy_temperature_;
  const std::vector<int>& now = position_moves_;
  bool reuse = config.reuse_tree && int(searches_.size()) == threads_ &&
               searched_start_ == position_start_ && searched_moves_.size() <= now.size() &&
               std::equal(searched_moves_.begin(), searched_moves_.end(), now.begin());
  for (const auto& s : searches_)
    reuse = reuse && s->config().batch == batch_ && s->config().pipeline == pipeline_ &&
            s->config().policy_temperature == policy_temperature_ &&
            s->root().visits < kMaxPlayouts / 2;
  if (reuse) {
    int64_t kept = 0;
    for (const auto& s : searches_) {
      for (size_t i = searched_moves_.size(); i < now.size(); ++i) s->advance(now[i]);
      kept += s->root().visits;
    }
    send("info string tree reuse: " + std::to_string(kept) + " playouts kept");
  } else {
    searches_.clear();
    for (int t = 0; t < threads_; ++t) {
      auto s = std::make_shared<Search>(*e.evaluator, config, 0x5eed + uint64_t(t));
      s->set_root(*position_);
      searches_.push_back(std::move(s));
    }
  }
  searched_start_ = position_start_;
  searched_moves_ = now;
  return searches_;
}

void UciEngine::reset_engine() {
  searches_.clear();  // they use the engine's evaluator (a running job keeps its own)
  engine_.reset();
}

void UciEngine::ponderhit() {
  if (!job_ || job_->done() || !job_->pondering()) {
    send("info string ponderhit without a pondering search");
    return;
  }
  job_->ponderhit();
}

void UciEngine::stop_search() {
  if (!job_) return;
  job_->stop();
  job_->wait();
}

const Engine& UciEngine::engine() {
  if (engine_) return *engine_;
  const SearchConfig base = play_search_config();  // Batch comes from its option
  std::string path = model_;
  if (ascii_lower(model_) == "auto") path = shipped_model(variant_, model_dirs_);
  if (ascii_lower(path) == "none" || path == "<empty>") path.clear();
  if (!path.empty()) {
    try {
      check(path.find(',') == std::string::npos, "a model path may not contain ','");
      PlayerContext ctx;
      ctx.game = &game();
      ctx.search = base;
      ctx.seed = 1;
      const std::unique_ptr<Player> player = make_player("net:model=" + path, ctx);
      engine_ = std::make_unique<Engine>(engine_of(*player, base, 1));
      send("info string " + variant_ + ": model " + path);
      return *engine_;
    } catch (const std::exception& e) {
      send("info string cannot use model '" + path + "': " + e.what() +
           "; searching without a network");
    }
  }
  engine_ = std::make_unique<Engine>(basic_engine(evaluator_, base, 1));
  send("info string " + variant_ + ": no model, network-free search (" + evaluator_ +
       " evaluator)");
  return *engine_;
}

}  // namespace vzero
