// Reading run configs.
#include "training/run_config.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "game/symmetry.h"
#include "game/variant.h"
#include "util/error.h"
#include "util/files.h"
#include "util/toml_reader.h"

namespace vzero {

namespace {

// The string at key (fallback when absent); fails "must be A, B or C" unless it is one of choices.
std::string get_choice(TomlReader& in, const std::string& key, const std::string& fallback,
                       const std::vector<std::string>& choices) {
  const std::string value = in.get<std::string>(key, fallback);
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    std::string list = choices[0];
    for (size_t i = 1; i < choices.size(); ++i)
      list += (i + 1 == choices.size() ? " or " : ", ") + choices[i];
    in.fail(key, "must be " + list);
  }
  return value;
}

TrainConfig read_train(TomlReader& in) {
  TrainConfig c;
  c.window_positions = in.get_range("window_positions", c.window_positions, 1, 1000000000);
  c.batch_size = in.get_range("batch_size", c.batch_size, 1, 65536);
  c.steps = in.get_range("steps", c.steps, 0, 100000000);
  c.sample_reuse = in.get_real("sample_reuse", c.sample_reuse, 0.01, 1000.0);
  c.optimizer = get_choice(in, "optimizer", c.optimizer, {"sgd", "adamw"});
  c.lr = in.get_real("lr", c.lr, 1e-7, 10.0);
  c.momentum = in.get_real("momentum", c.momentum, 0.0, 0.999);
  c.weight_decay = in.get_real("weight_decay", c.weight_decay, 0.0, 1.0);
  c.lr_warmup_steps = in.get_range("lr_warmup_steps", c.lr_warmup_steps, 0, 100000000);
  c.lr_decay_steps = in.get_range("lr_decay_steps", c.lr_decay_steps, 0, 100000000);
  c.lr_schedule = get_choice(in, "lr_schedule", c.lr_schedule, {"step", "cosine", "piecewise"});
  c.lr_min = in.get_real("lr_min", c.lr_min, 0.0, 10.0);
  if (c.lr_schedule == "cosine" && c.lr_decay_steps == 0)
    in.fail("lr_schedule", "cosine needs lr_decay_steps (the steps from lr to lr_min)");
  c.lr_boundaries = in.get_numbers<int64_t>("lr_boundaries", c.lr_boundaries, 1, 1000000000);
  c.lr_values = in.get_numbers<double>("lr_values", c.lr_values, 1e-7, 10.0);
  const bool piecewise = c.lr_schedule == "piecewise";
  if (piecewise && c.lr_boundaries.empty())
    in.fail("lr_schedule", "piecewise needs lr_boundaries (the steps where lr changes)");
  if (!piecewise && !(c.lr_boundaries.empty() && c.lr_values.empty()))
    in.fail("lr_boundaries", "and lr_values belong to lr_schedule = \"piecewise\"");
  if (c.lr_values.size() != c.lr_boundaries.size())
    in.fail("lr_values", "needs one value per entry of lr_boundaries");
  for (size_t i = 1; i < c.lr_boundaries.size(); ++i)
    if (c.lr_boundaries[i] <= c.lr_boundaries[i - 1])
      in.fail("lr_boundaries", "must be increasing");
  if (c.lr_decay_steps > 0 && piecewise)
    in.fail("lr_decay_steps", "does not apply to the piecewise schedule (set it to 0)");
  c.value_weight = in.get_real("value_weight", c.value_weight, 0.0, 100.0);
  c.root_value_weight = in.get_real("root_value_weight", c.root_value_weight, 0.0, 1.0);
  c.value_target =
      get_choice(in, "value_target", c.value_target, {"result", "root", "mix", "phase"});
  c.wdl_target = get_choice(in, "wdl_target", c.wdl_target, {"mix", "result", "decisive"});
  c.capped_value = get_choice(in, "capped_value", c.capped_value, {"draw", "root"});
  c.fast_value_weight = in.get_real("fast_value_weight", c.fast_value_weight, 0.0, 1.0);
  c.moves_left_weight = in.get_real("moves_left_weight", c.moves_left_weight, 0.0, 100.0);
  c.window_growth = in.get<bool>("window_growth", c.window_growth);
  c.window_min = in.get_range("window_min", c.window_min, 1, 1000000000);
  c.window_exponent = in.get_real("window_exponent", c.window_exponent, 0.01, 1.0);
  c.window_slope = in.get_real("window_slope", c.window_slope, 0.0, 10.0);
  c.bootstrap_share = in.get_real("bootstrap_share", c.bootstrap_share, 0.0, 1.0);
  c.holdout_fraction = in.get_real("holdout_fraction", c.holdout_fraction, 0.0, 0.5);
  c.symmetries = in.get<bool>("symmetries", c.symmetries);
  c.extra_symmetries = in.get_strings("extra_symmetries", c.extra_symmetries);
  for (const std::string& name : c.extra_symmetries)
    if (std::find(symmetry_names().begin(), symmetry_names().end(), name) == symmetry_names().end())
      in.fail("extra_symmetries", "'" + name + "' is not a symmetry name");
  c.threads = in.get_range("threads", c.threads, 1, 256);
  in.finish();
  return c;
}

}  // namespace

bool measures_generation(const LoopConfig& loop, int g) {
  return g % loop.measure_every == 0 || (loop.generations > 0 && g >= loop.generations);
}

bool network_free_generation(const LoopConfig& loop, int g, int current) {
  return g == 1 && current == 0 && loop.init_model.empty();
}

int measuring_games(const LoopConfig& loop, const std::optional<double>& last, int games) {
  const bool saturated = loop.saturated_score > 0.0 && last && *last >= loop.saturated_score;
  return saturated ? std::min(games, loop.saturated_games) : games;
}

namespace {

LoopConfig read_loop(TomlReader& in) {
  LoopConfig c;
  c.generations = in.get_range("generations", c.generations, 0, 1000000);
  c.bootstrap_games = in.get_range("bootstrap_games", c.bootstrap_games, 0, 100000000);
  c.bootstrap_visits = in.get_range("bootstrap_visits", c.bootstrap_visits, 0, 10000000);
  c.gate = get_choice(in, "gate", c.gate, {"always", "score", "sprt"});
  c.gate_threshold = in.get_real("gate_threshold", c.gate_threshold, 0.0, 1.0);
  c.sprt_elo0 = in.get_real("sprt_elo0", c.sprt_elo0, -1000.0, 1000.0);
  c.sprt_elo1 = in.get_real("sprt_elo1", c.sprt_elo1, -1000.0, 1000.0);
  if (c.sprt_elo1 <= c.sprt_elo0) in.fail("sprt_elo1", "must be above sprt_elo0");
  c.sprt_alpha = in.get_real("sprt_alpha", c.sprt_alpha, 0.001, 0.5);
  c.sprt_beta = in.get_real("sprt_beta", c.sprt_beta, 0.001, 0.5);
  c.arena_games = in.get_range("arena_games", c.arena_games, 0, 1000000);
  const int least = c.gate == "sprt" ? 2 : c.gate == "score" ? 1 : 0;  // the SPRT judges pairs
  if (c.arena_games < least)
    in.fail("arena_games", "must be at least " + std::to_string(least) + " with gate = " + c.gate);
  c.arena_visits = in.get_range("arena_visits", c.arena_visits, 1, 10000000);
  c.measure_every = in.get_range("measure_every", c.measure_every, 1, 1000000);
  c.saturated_score = in.get_real("saturated_score", c.saturated_score, 0.0, 1.0);
  c.saturated_games = in.get_range("saturated_games", c.saturated_games, 1, 1000000);
  c.bootstrap_player = in.get<std::string>("bootstrap_player", c.bootstrap_player);
  c.bootstrap_random_plies =
      in.get_range("bootstrap_random_plies", c.bootstrap_random_plies, 0, 1000);
  c.init_model = in.get<std::string>("init_model", c.init_model);
  if (!c.init_model.empty() && !c.bootstrap_player.empty())
    in.fail("init_model", "and bootstrap_player exclude each other (a run starts from one)");
  c.openings = in.get<std::string>("openings", c.openings);
  if (c.openings.empty()) in.fail("openings", "must be auto, none, random:N or a file");
  if (c.openings.rfind("random:", 0) == 0) {
    const std::string n = c.openings.substr(7);
    if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string::npos)
      in.fail("openings", "random:N needs N plies in [0, 999]");
  }
  c.baseline = in.get<std::string>("baseline", c.baseline);
  c.baseline_games = in.get_range("baseline_games", c.baseline_games, 0, 1000000);
  c.anchors = in.get_strings("anchors", c.anchors);
  for (size_t i = 0; i < c.anchors.size(); ++i) {
    if (c.anchors[i].empty()) in.fail("anchors", "holds an empty player spec");
    for (size_t j = 0; j < i; ++j)
      if (c.anchors[j] == c.anchors[i]) in.fail("anchors", "names '" + c.anchors[i] + "' twice");
  }
  c.anchor_games = in.get_range("anchor_games", c.anchor_games, 1, 1000000);
  c.ratings_anchor = in.get<std::string>("ratings_anchor", c.ratings_anchor);
  const std::string& r = c.ratings_anchor;
  const bool generation = r.size() >= 7 && r.rfind("gen-", 0) == 0 &&
                          r.find_first_not_of("0123456789", 4) == std::string::npos;
  if (!generation && r != c.baseline &&
      std::find(c.anchors.begin(), c.anchors.end(), r) == c.anchors.end())
    in.fail("ratings_anchor", "must be gen-NNN, the baseline or one of the anchors");
  in.finish();
  return c;
}

// Reads one table (absent: defaults) and appends its resolved lines.
template <class F>
void section(TomlReader& root, const char* name, std::string& resolved, F read) {
  static const toml::table empty;
  const toml::table* t = root.table(name);
  TomlReader in(t ? *t : empty, root.where() + " [" + name + "]");
  read(in);
  resolved += std::string("\n[") + name + "]\n";
  for (const std::string& line : in.resolved()) resolved += line + "\n";
}

}  // namespace

RunConfig parse_run_config(const std::string& text, const std::string& origin) {
  toml::table root = parse_toml(text, origin);
  // Configs written before the gate took a rule said gate = true (score) or false (always).
  if (toml::table* loop = root.get_as<toml::table>("loop"))
    if (const auto* gate = loop->get_as<bool>("gate"))
      loop->insert_or_assign("gate", gate->get() ? "score" : "always");
  TomlReader in(root, origin);
  RunConfig c;
  c.variant = in.get<std::string>("variant", c.variant);
  c.seed = uint64_t(in.get_range("seed", int(c.seed), 0, 1000000000));
  c.device = in.get<std::string>("device", c.device);
  std::string resolved;
  for (const std::string& line : in.resolved()) resolved += line + "\n";
  section(in, "search", resolved, [&](TomlReader& t) { c.search = read_search_config(t); });
  section(in, "selfplay", resolved, [&](TomlReader& t) { c.selfplay = read_selfplay_config(t); });
  section(in, "inference", resolved, [&](TomlReader& t) { c.inference = read_server_config(t); });
  section(in, "model", resolved, [&](TomlReader& t) { c.model = read_model_config(t); });
  section(in, "train", resolved, [&](TomlReader& t) { c.train = read_train(t); });
  section(in, "loop", resolved, [&](TomlReader& t) { c.loop = read_loop(t); });
  in.finish();
  c.inference.device = c.device;
  c.resolved = resolved;
  c.hash = fnv1a(resolved);
  return c;
}

RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::string text;
  if (!path.empty()) text = read_text_file(path);  // a directory is an error, not an empty config
  const std::string origin = path.empty() ? "default config" : path;
  if (overrides.empty()) return parse_run_config(text, origin);
  // Overrides "table.key=value": merge into the parsed table, then read the whole.
  toml::table root = parse_toml(text, origin);
  for (const std::string& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos) throw Error("override '" + o + "' is not table.key=value");
    const std::string path_key = o.substr(0, eq), value = o.substr(eq + 1);
    const toml::table parsed = parse_toml("v = " + value, "override '" + o + "'");
    check(parsed.size() == 1, "override '" + o + "': one value expected");
    const size_t dot = path_key.find('.');
    toml::table* target = &root;
    std::string key = path_key;
    if (dot != std::string::npos) {
      const std::string table = path_key.substr(0, dot);
      key = path_key.substr(dot + 1);
      if (!root.contains(table)) root.insert(table, toml::table{});
      target = root.get_as<toml::table>(table);
      if (!target) throw Error("override '" + o + "': '" + table + "' is not a table");
    }
    target->insert_or_assign(key, *parsed.get("v"));
  }
  std::ostringstream merged;
  merged << root;
  return parse_run_config(merged.str(), origin);
}

}  // namespace vzero
