// Model shapes and identities.
#include "net/spec/model_config.h"

#include <cstdio>
#include <sstream>

#include "util/toml_reader.h"

namespace vzero {

namespace {

// Reads or checks every field: one list of names and ranges.
void visit(ModelConfig& c, TomlReader& in) {
  c.blocks = in.get_range("blocks", c.blocks, 0, 64);
  c.filters = in.get_range("filters", c.filters, 1, 1024);
  c.value_hidden = in.get_range("value_hidden", c.value_hidden, 1, 4096);
  c.policy_head = in.get<std::string>("policy_head", c.policy_head);
  if (c.policy_head != "fc" && c.policy_head != "conv")
    in.fail("policy_head", "must be \"fc\" or \"conv\"");
  c.policy_channels = in.get_range("policy_channels", c.policy_channels, 1, 256);
  c.global_pooling = in.get_range("global_pooling", c.global_pooling, 0, 64);
  c.value_head = in.get<std::string>("value_head", c.value_head);
  if (c.value_head != "scalar" && c.value_head != "wdl")
    in.fail("value_head", "must be \"scalar\" or \"wdl\"");
  c.moves_left_head = in.get<bool>("moves_left_head", c.moves_left_head);
  c.encoding = in.get_range("encoding", c.encoding, 0, 64);
}

}  // namespace

ModelConfig read_model_config(TomlReader& in, ModelConfig defaults) {
  visit(defaults, in);
  in.finish();
  return defaults;
}

std::string ModelConfig::to_text() const {
  // The reader's resolved lines: every field, written by the one list above.
  ModelConfig copy = *this;
  const toml::table empty;
  TomlReader in(empty, "model config");
  visit(copy, in);
  std::string text;
  for (const std::string& line : in.resolved()) text += line + "\n";
  return text;
}

ModelConfig model_config_from_text(const std::string& text) {
  const toml::table t = parse_toml(text, "model config");
  TomlReader in(t, "model config");
  ModelConfig stored;
  stored.encoding = 1;  // models from before encoding versions read version 1
  return read_model_config(in, stored);
}

std::string hash_hex(uint64_t hash) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

ModelIdentity ModelIdentity::of(const Game& game, int version) {
  version = resolved_encoding(game, version);
  const EncodingSpec& e = game.encoding(version);
  check(e.channels() > 0, "variant '" + game.id() + "' has no network encoding");
  ModelIdentity id;
  id.variant = game.id();
  id.rules_hash = game.variant().hash;
  id.encoding_hash = vzero::encoding_hash(game, version);
  id.encoding = version;
  id.channels = e.channels();
  id.height = e.height;
  id.width = e.width;
  id.num_actions = game.num_actions();
  id.players = game.num_players();
  if (const std::optional<PolicyMap> map = game.policy_map()) {
    const std::string problem = policy_map_problem(game, *map);
    check(problem.empty(), "the policy map of '" + game.id() + "' is wrong: " + problem);
    check(e.height * e.width == game.variant().files * game.variant().ranks,
          "the policy map of '" + game.id() + "' does not fit its encoding's board");
    id.policy_planes = map->planes;
    for (int a = 0; a < id.num_actions; ++a)
      id.policy_index.push_back(int64_t(map->plane[size_t(a)]) * e.height * e.width +
                                map->square[size_t(a)]);
  }
  return id;
}

void ModelIdentity::expect_same(const ModelIdentity& o, const std::string& what) const {
  const auto differ = [&](const std::string& field, const std::string& want,
                          const std::string& got) {
    throw Error(what + " was made for a different " + field + " (" + got + ", expected " + want +
                ")");
  };
  if (o.variant != variant) differ("variant", variant, o.variant);
  if (o.rules_hash != rules_hash)
    differ("rules file of '" + variant + "'", std::to_string(rules_hash),
           std::to_string(o.rules_hash));
  if (o.encoding_hash != encoding_hash)
    differ("input encoding or action map", std::to_string(encoding_hash),
           std::to_string(o.encoding_hash));
  if (o.channels != channels || o.height != height || o.width != width ||
      o.num_actions != num_actions || o.players != players)
    differ("input or output shape", "", "");
}

}  // namespace vzero
