// Fuzz target: the JSON-lines protocol of `vzero serve --stdio`
// (frontend/json_session.h). Each line of the input goes to
// JsonSession::handle_line, which must never throw, crash or hang, and must
// answer with one line of JSON that is an object. The searches stay tiny so
// that an execution is fast and every hang is a finding: in a request that
// is a JSON object the harness lowers `sims`, `search.simulations` (added to
// `start` when absent: 16) and a spec's `sims=`/`simulations=` to at most 16,
// gives `mcts:` players the constant evaluator where they ask for rollouts
// (random games to the end: slow, and no part of the protocol; rollout is
// the kind's default), and leaves out requests for a `uci:` player (it
// starts a program).
// Malformed JSON and everything else goes through as written. No model
// directories and no LibTorch: `model` and `net:` players are refused.
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "frontend/json_session.h"
#include "fuzz/fuzz_util.h"

using namespace vzero;
using json = nlohmann::json;

namespace {

constexpr int64_t kMaxSims = 16;

// Lowers a number above kMaxSims to it; true when it changed.
bool cap(json& v) {
  if (!v.is_number() || !(v.get<double>() > double(kMaxSims))) return false;
  v = kMaxSims;
  return true;
}

// A player spec with its simulation counts capped ("mcts:sims=9999,x=y" -> "mcts:sims=16,x=y").
std::string capped_spec(const std::string& spec) {
  if (spec == "mcts") return "mcts:evaluator=constant";
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return spec;
  const bool search = spec.substr(0, colon) == "mcts";
  std::string out = spec.substr(0, colon + 1), item;
  std::istringstream items(spec.substr(colon + 1));
  bool first = true, evaluator = false;
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq),
                      v = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq != std::string::npos && (key == "sims" || key == "simulations")) {
      const bool small = !v.empty() && v.size() <= 2 &&
                         v.find_first_not_of("0123456789") == std::string::npos &&
                         std::stoi(v) <= kMaxSims;
      if (!small) item = key + "=" + std::to_string(kMaxSims);
    }
    if (search && key == "evaluator") {
      evaluator = true;
      if (v == "rollout") item = "evaluator=constant";
    }
    out += (first ? "" : ",") + item;
    first = false;
  }
  if (!spec.empty() && spec.back() == ',') out += ',';  // keep a trailing empty item
  if (search && !evaluator)
    out += std::string(out.back() == ':' || out.back() == ',' ? "" : ",") + "evaluator=constant";
  return out;
}

// The request with its search sizes capped; nullopt for a request to leave out.
std::optional<std::string> bounded(const std::string& line) {
  json req = json::parse(line, nullptr, false);
  if (req.is_discarded() || !req.is_object()) return line;
  bool changed = false;
  if (req.contains("player") && req["player"].is_string()) {
    const std::string spec = req["player"].get<std::string>();
    if (spec == "uci" || spec.rfind("uci:", 0) == 0) return std::nullopt;
    const std::string capped = capped_spec(spec);
    changed |= capped != spec;
    req["player"] = capped;
  }
  if (req.contains("sims")) changed |= cap(req["sims"]);
  if (req.value("cmd", json()) == "start" && !req.contains("search")) {
    req["search"] = json::object();
    changed = true;
  }
  if (req.contains("search") && req["search"].is_object()) {
    json& search = req["search"];
    if (!search.contains("simulations")) {
      search["simulations"] = kMaxSims;
      changed = true;
    }
    changed |= cap(search["simulations"]);
  }
  return changed ? req.dump() : line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  JsonSession session({});
  for (const std::string& raw : fuzz::lines_of(data, size, 64)) {
    const std::optional<std::string> line = bounded(raw);
    if (!line) continue;
    const std::string reply = session.handle_line(*line);
    const json r = json::parse(reply, nullptr, false);
    fuzz::require(!r.is_discarded() && r.is_object(), "every reply is one JSON object");
    fuzz::require(reply.find('\n') == std::string::npos, "a reply is one line");
    if (session.finished()) break;
  }
  return 0;
}
