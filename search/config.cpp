// Reading and validating search options.
#include "search/config.h"

#include "util/toml_reader.h"

namespace vzero {

namespace {

// Reads (or, with in == nullptr, only range-checks) every field of c: one list of names and ranges.
void visit(SearchConfig& c, TomlReader* in) {
  const auto real = [&](const char* key, double& field, double lo, double hi) {
    if (in) {
      field = in->get_real(key, field, lo, hi);
    } else if (!(field >= lo && field <= hi)) {
      throw Error(std::string("search option ") + key + " out of range");
    }
  };
  const auto integer = [&](const char* key, int& field, int lo, int hi) {
    if (in) {
      field = in->get_range(key, field, lo, hi);
    } else if (field < lo || field > hi) {
      throw Error(std::string("search option ") + key + " out of range");
    }
  };
  const auto flag = [&](const char* key, bool& field) {
    if (in) field = in->get<bool>(key, field);
  };
  integer("simulations", c.simulations, 1, 10000000);
  real("cpuct", c.cpuct, 0.0, 100.0);
  real("cpuct_base", c.cpuct_base, 1.0, 1e9);
  real("cpuct_growth", c.cpuct_growth, 0.0, 100.0);
  real("fpu_reduction", c.fpu_reduction, -2.0, 2.0);
  real("fpu_reduction_root", c.fpu_reduction_root, -2.0, 2.0);
  real("policy_temperature", c.policy_temperature, 0.1, 10.0);
  flag("root_noise", c.root_noise);
  real("dirichlet_alpha", c.dirichlet_alpha, 1e-3, 1000.0);
  real("noise_fraction", c.noise_fraction, 0.0, 1.0);
  real("temperature", c.temperature, 0.0, 100.0);
  integer("temperature_plies", c.temperature_plies, 0, 100000);
  real("final_temperature", c.final_temperature, 0.0, 100.0);
  real("temperature_halflife", c.temperature_halflife, 0.0, 100000.0);
  real("forced_playouts", c.forced_playouts, 0.0, 100.0);
  flag("policy_target_pruning", c.policy_target_pruning);
  if (in) c.root_selection = in->get<std::string>("root_selection", c.root_selection);
  if (c.root_selection != "puct" && c.root_selection != "gumbel") {
    if (in) in->fail("root_selection", "must be puct or gumbel");
    throw Error("search option root_selection must be puct or gumbel");
  }
  integer("gumbel_actions", c.gumbel_actions, 2, 1024);
  real("gumbel_c_visit", c.gumbel_c_visit, 0.0, 1e6);
  real("gumbel_c_scale", c.gumbel_c_scale, 0.0, 1e6);
  real("moves_left_slope", c.moves_left_slope, 0.0, 1.0);
  real("moves_left_cap", c.moves_left_cap, 0.0, 1.0);
  real("moves_left_threshold", c.moves_left_threshold, 0.0, 1.0);
  integer("batch", c.batch, 1, 1024);
  flag("pipeline", c.pipeline);
  real("virtual_loss", c.virtual_loss, 0.0, 100.0);
  flag("reuse_tree", c.reuse_tree);
  flag("two_fold_draw", c.two_fold_draw);
  flag("win_in_one", c.win_in_one);
  flag("solve_endgames", c.solve_endgames);
  integer("proof_nodes", c.proof_nodes, -1, 100000000);
  real("draw_score", c.draw_score, -1.0, 1.0);
}

}  // namespace

SearchConfig play_search_config() {
  SearchConfig c;
  c.batch = 1;
  c.policy_temperature = 1.5;
  c.proof_nodes = -1;
  return c;
}

SearchConfig read_search_config(TomlReader& in, SearchConfig defaults) {
  visit(defaults, &in);
  in.finish();
  return defaults;
}

void set_search_option(SearchConfig& c, const std::string& key, const std::string& value) {
  // One bare key and one value: text such as "8\nsimulations = 1000000" must not set a second key.
  check(!key.empty() &&
            key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos,
        "search option '" + key + "': not a search option name");
  const toml::table t = parse_toml(key + " = " + value, "search option '" + key + "'");
  check(t.size() == 1, "search option '" + key + "': one value expected");
  TomlReader in(t, "search option");
  c = read_search_config(in, c);
}

void validate(const SearchConfig& c) {
  SearchConfig copy = c;
  visit(copy, nullptr);
}

}  // namespace vzero
