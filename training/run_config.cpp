// Reading run configs.
#include "training/run_config.h"

#include <fstream>
#include <sstream>

#include "game/error.h"
#include "game/toml_reader.h"
#include "game/variant.h"

namespace vzero {

namespace {

TrainConfig read_train(TomlReader& in) {
  TrainConfig c;
  c.window_positions = in.get_range("window_positions", c.window_positions, 1, 1000000000);
  c.batch_size = in.get_range("batch_size", c.batch_size, 1, 65536);
  c.steps = in.get_range("steps", c.steps, 0, 100000000);
  c.sample_reuse = in.get_real("sample_reuse", c.sample_reuse, 0.01, 1000.0);
  c.optimizer = in.get<std::string>("optimizer", c.optimizer);
  if (c.optimizer != "sgd" && c.optimizer != "adamw") in.fail("optimizer", "must be sgd or adamw");
  c.lr = in.get_real("lr", c.lr, 1e-7, 10.0);
  c.momentum = in.get_real("momentum", c.momentum, 0.0, 0.999);
  c.weight_decay = in.get_real("weight_decay", c.weight_decay, 0.0, 1.0);
  c.lr_warmup_steps = in.get_range("lr_warmup_steps", c.lr_warmup_steps, 0, 100000000);
  c.lr_decay_steps = in.get_range("lr_decay_steps", c.lr_decay_steps, 0, 100000000);
  c.value_weight = in.get_real("value_weight", c.value_weight, 0.0, 100.0);
  c.root_value_weight = in.get_real("root_value_weight", c.root_value_weight, 0.0, 1.0);
  c.value_target = in.get<std::string>("value_target", c.value_target);
  if (c.value_target != "result" && c.value_target != "root" && c.value_target != "mix" && c.value_target != "phase")
    in.fail("value_target", "must be result, root, mix or phase");
  c.moves_left_weight = in.get_real("moves_left_weight", c.moves_left_weight, 0.0, 100.0);
  c.window_growth = in.get<bool>("window_growth", c.window_growth);
  c.window_min = in.get_range("window_min", c.window_min, 1, 1000000000);
  c.window_exponent = in.get_real("window_exponent", c.window_exponent, 0.01, 1.0);
  c.window_slope = in.get_real("window_slope", c.window_slope, 0.0, 10.0);
  c.bootstrap_share = in.get_real("bootstrap_share", c.bootstrap_share, 0.0, 1.0);
  c.holdout_fraction = in.get_real("holdout_fraction", c.holdout_fraction, 0.0, 0.5);
  c.symmetries = in.get<bool>("symmetries", c.symmetries);
  c.threads = in.get_range("threads", c.threads, 1, 256);
  in.finish();
  return c;
}

LoopConfig read_loop(TomlReader& in) {
  LoopConfig c;
  c.generations = in.get_range("generations", c.generations, 0, 1000000);
  c.bootstrap_games = in.get_range("bootstrap_games", c.bootstrap_games, 0, 100000000);
  c.bootstrap_visits = in.get_range("bootstrap_visits", c.bootstrap_visits, 0, 10000000);
  c.gate = in.get<bool>("gate", c.gate);
  c.gate_threshold = in.get_real("gate_threshold", c.gate_threshold, 0.0, 1.0);
  c.arena_games = in.get_range("arena_games", c.arena_games, 0, 1000000);
  c.arena_visits = in.get_range("arena_visits", c.arena_visits, 1, 10000000);
  c.baseline = in.get<std::string>("baseline", c.baseline);
  c.baseline_games = in.get_range("baseline_games", c.baseline_games, 0, 1000000);
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
  const toml::table root = parse_toml(text, origin);
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
  if (!path.empty()) {
    std::ifstream f(path);
    if (!f) throw Error("cannot read config '" + path + "'");
    std::stringstream s;
    s << f.rdbuf();
    text = s.str();
  }
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
