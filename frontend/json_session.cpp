// The JSON-lines game session.
#include "frontend/json_session.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "game/builtin/games.h"
#include "util/error.h"

namespace vzero {

using json = nlohmann::ordered_json;

namespace {

constexpr int kMaxDepth = 32;         // nesting of a request
constexpr size_t kMaxLine = 1 << 20;  // bytes of a request
constexpr int kMaxSimulations = 1000000;

// The request object of a line (throws Error when it is not one JSON object).
json parse_request(const std::string& line) {
  check(line.size() <= kMaxLine, "request longer than 1 MiB");
  json j;
  try {
    j = json::parse(line, [](int depth, json::parse_event_t, json&) {
      if (depth > kMaxDepth) throw Error("request nested too deeply");
      return true;
    });
  } catch (const json::exception& e) {
    throw Error(std::string("bad JSON: ") + e.what());
  }
  check(j.is_object(), "a request is a JSON object");
  return j;
}

// A field of a request: absent gives fallback; a wrong type or range throws Error.
int64_t get_int(const json& j, const char* key, int64_t fallback, int64_t lo, int64_t hi) {
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  check(v.is_number_integer(), std::string("'") + key + "' must be an integer");
  const int64_t x = v.get<int64_t>();
  check(x >= lo && x <= hi, std::string("'") + key + "' must be in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  return x;
}

// A string field: absent gives fallback; another type throws Error.
std::string get_string(const json& j, const char* key, const std::string& fallback) {
  if (!j.contains(key)) return fallback;
  check(j[key].is_string(), std::string("'") + key + "' must be a string");
  return j[key].get<std::string>();
}

// A boolean field: absent gives fallback; another type throws Error.
bool get_bool(const json& j, const char* key, bool fallback) {
  if (!j.contains(key)) return fallback;
  check(j[key].is_boolean(), std::string("'") + key + "' must be true or false");
  return j[key].get<bool>();
}

// An array-of-strings field: absent gives none; another type throws Error.
std::vector<std::string> get_strings(const json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  check(j[key].is_array(), std::string("'") + key + "' must be an array of strings");
  for (const json& v : j[key]) {
    check(v.is_string(), std::string("'") + key + "' must be an array of strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

// The fields each cmd takes besides "cmd" and "id" (docs/protocol.md).
const std::vector<std::pair<std::string, std::vector<std::string>>>& command_fields() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> fields = {
      {"start", {"variant", "fen", "moves", "player", "model", "search", "seed"}},
      {"state", {}},
      {"legal", {}},
      {"apply", {"action", "actions"}},
      {"undo", {"count"}},
      {"analyse", {"sims", "top"}},
      {"analyze", {"sims", "top"}},
      {"pick", {"apply"}},
      {"variants", {}},
      {"quit", {}},
  };
  return fields;
}

// Throws Error for an unknown cmd, or for a field that cmd does not take (a typo
// such as "varient" would otherwise be ignored silently).
void check_fields(const json& req, const std::string& cmd) {
  const auto& all = command_fields();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& c) { return c.first == cmd; });
  if (it == all.end())
    throw Error("unknown cmd '" + cmd +
                "' (start, state, legal, apply, undo, analyse, pick, variants, quit)");
  for (const auto& item : req.items()) {
    const std::string& key = item.key();
    if (key == "cmd" || key == "id") continue;
    if (std::find(it->second.begin(), it->second.end(), key) != it->second.end()) continue;
    std::string known;
    for (const std::string& k : it->second) known += (known.empty() ? "" : ", ") + k;
    throw Error("unknown field '" + key + "' in " + cmd + " (" +
                (known.empty() ? "it takes no fields" : "fields: " + known) + ")");
  }
}

// A search statistic rounded to 4 decimals (what people and clients need).
double rounded(float x) { return std::round(double(x) * 1e4) / 1e4; }

// Values per seat as a JSON array (null when there are none).
json values_json(const std::vector<float>& v) {
  if (v.empty()) return nullptr;
  json out = json::array();
  for (float x : v) out.push_back(rounded(x));
  return out;
}

}  // namespace

// The game in progress, its history and the player that picks moves.
struct JsonSession::Table {
  const vzero::Game* game = nullptr;
  std::unique_ptr<GameState> start, state;
  std::vector<int> history;
  std::vector<std::string> history_text;
  std::string spec;
  std::unique_ptr<Player> player;
  Engine engine;
  SearchConfig search = play_search_config();  // the request's "search" goes over it
  uint64_t seed = 1;

  void play(int action) {
    history_text.push_back(state->action_to_text(action));
    state->apply(action);
    history.push_back(action);
    player->observe(action);
  }

  // Replays the history into a fresh player state (after an undo).
  void resync_player() {
    player->new_game(*start);
    for (int a : history) player->observe(a);
  }

  json state_json() const {
    json r;
    r["variant"] = game->id();
    r["players"] = game->num_players();
    r["fen"] = state->fen();
    r["to_move"] = state->current_player();
    r["ply"] = history.size();
    r["moves"] = history_text;
    r["terminal"] = state->is_terminal();
    r["end_reason"] = state->end_reason();
    r["returns"] = state->returns();
    return r;
  }
};

JsonSession::JsonSession(std::vector<std::string> model_dirs)
    : model_dirs_(std::move(model_dirs)) {}
JsonSession::~JsonSession() = default;

namespace {

// The player spec of a start request: "player", else "model" as a net: player, else "auto".
std::string player_spec(const json& req, const std::string& variant,
                        const std::vector<std::string>& dirs) {
  std::string spec = get_string(req, "player", "");
  const std::string model = get_string(req, "model", "");
  check(spec.empty() || model.empty(), "give 'player' or 'model', not both");
  if (!model.empty()) spec = "net:model=" + model;
  if (spec.empty() || spec == "auto") {
    const std::string shipped = shipped_model(variant, dirs);
    spec = shipped.empty() ? std::string("mcts:evaluator=") + kFallbackEvaluator
                           : "net:model=" + shipped;
  }
  return spec;
}

}  // namespace

std::string JsonSession::handle_line(const std::string& line) {
  json reply;
  json id;
  try {
    const json req = parse_request(line);
    if (req.contains("id")) id = req["id"];
    const std::string cmd = get_string(req, "cmd", "");
    check(!cmd.empty(), "a request needs \"cmd\"");
    check_fields(req, cmd);
    if (cmd == "quit") {
      finished_ = true;
      reply["bye"] = true;
    } else if (cmd == "variants") {
      reply["variants"] = json::array();
      for (const std::string& v : game_ids()) {
        const vzero::Game& g = game_by_id(v);
        reply["variants"].push_back(
            {{"id", v}, {"name", g.variant().name}, {"players", g.num_players()}});
      }
    } else if (cmd == "start") {
      auto t = std::make_unique<Table>();
      t->game = &game_by_id(get_string(req, "variant", "chess"));
      t->start = t->game->new_state(get_string(req, "fen", ""));
      t->state = t->start->clone();
      if (req.contains("search")) {
        check(req["search"].is_object(), "'search' must be an object of [search] keys");
        for (const auto& [key, value] : req["search"].items())
          set_search_option(t->search, key, value.dump());
      }
      t->seed = uint64_t(get_int(req, "seed", 1, 0, INT64_MAX));
      t->spec = player_spec(req, t->game->id(), model_dirs_);
      PlayerContext ctx;
      ctx.game = t->game;
      ctx.seed = t->seed;
      ctx.search = t->search;
      t->player = make_player(t->spec, ctx);
      t->engine = engine_of(*t->player, t->search, t->seed);
      t->player->new_game(*t->start);
      for (const std::string& m : get_strings(req, "moves")) t->play(t->state->text_to_action(m));
      table_ = std::move(t);
      reply = table_->state_json();
      reply["player"] = table_->spec;
    } else {
      check(table_ != nullptr, "no game: send {\"cmd\": \"start\", ...} first");
      Table& t = *table_;
      if (cmd == "state") {
        reply = t.state_json();
      } else if (cmd == "legal") {
        reply["to_move"] = t.state->current_player();
        reply["actions"] = json::array();
        for (int a : t.state->legal_actions())
          reply["actions"].push_back(t.state->action_to_text(a));
      } else if (cmd == "apply") {
        std::vector<std::string> moves = get_strings(req, "actions");
        if (req.contains("action")) moves.insert(moves.begin(), get_string(req, "action", ""));
        check(!moves.empty(), "apply needs \"action\" or \"actions\"");
        // Check them all on a copy first, so that a bad one changes nothing.
        auto trial = t.state->clone();
        std::vector<int> actions;
        for (const std::string& m : moves) {
          actions.push_back(trial->text_to_action(m));
          trial->apply(actions.back());
        }
        for (int a : actions) t.play(a);
        reply = t.state_json();
      } else if (cmd == "undo") {
        const int64_t n = get_int(req, "count", 1, 1, kMaxSimulations);
        check(int64_t(t.history.size()) >= n,
              "only " + std::to_string(t.history.size()) + " actions to undo since the start");
        for (int64_t i = 0; i < n; ++i) {
          t.state->undo();
          t.history.pop_back();
          t.history_text.pop_back();
        }
        t.resync_player();
        reply = t.state_json();
      } else if (cmd == "analyse" || cmd == "analyze") {
        check(!t.state->is_terminal(), "the game is over");
        const int sims = int(get_int(req, "sims", t.engine.search.simulations, 1, kMaxSimulations));
        const int64_t top = get_int(req, "top", 5, 0, 100000);
        const RootStats s = analyse(t.engine, *t.state, sims, int(top == 0 ? 100000 : top), t.seed);
        reply["to_move"] = s.player;
        reply["visits"] = s.visits;
        reply["value"] = values_json(s.value);
        reply["proven"] = s.proven;
        reply["actions"] = json::array();
        for (size_t i = 0; i < s.actions.size() && (top == 0 || int64_t(i) < top); ++i) {
          const ActionStat& a = s.actions[i];
          json pv = json::array();
          for (int m : a.pv) pv.push_back(t.game->action_text(m));
          reply["actions"].push_back({{"action", t.state->action_to_text(a.action)},
                                      {"visits", a.visits},
                                      {"prior", rounded(a.prior)},
                                      {"value", values_json(a.value)},
                                      {"proven", a.proven},
                                      {"pv", pv}});
        }
      } else if (cmd == "pick") {
        check(!t.state->is_terminal(), "the game is over");
        const int seat = t.state->current_player();
        const int a = t.player->choose(*t.state);
        const std::string text = t.state->action_to_text(a);
        if (get_bool(req, "apply", false)) {
          t.play(a);
          reply = t.state_json();
        }
        reply["action"] = text;
        reply["seat"] = seat;
        // The root value of the player's search, for the value bars of a page.
        if (const auto* searcher = dynamic_cast<const SearchPlayer*>(t.player.get()))
          if (!searcher->last_result().value.empty())
            reply["value"] = values_json(searcher->last_result().value);
      } else {
        throw Error("unknown cmd '" + cmd +
                    "' (start, state, legal, apply, undo, analyse, pick, variants, quit)");
      }
    }
  } catch (const std::exception& e) {
    reply = json::object();
    reply["error"] = e.what();
  }
  if (!id.is_null()) reply["id"] = id;
  return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace vzero
