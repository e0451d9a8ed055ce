// Export metadata and the JSON sidecar.
#include "net/spec/export_info.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/files.h"

namespace vzero {

const char* vzero_version() { return VZERO_VERSION; }

ExportInfo export_info(const Game& game, const ModelConfig& config, const NetworkGraph& graph) {
  ExportInfo info;
  info.identity = ModelIdentity::of(game, config.encoding);
  const EncodingSpec& e = game.encoding(info.identity.encoding);
  info.model_config = config.to_text();
  info.planes = e.plane_names;
  info.scalars = e.scalar_names;
  for (int a = 0; a < game.num_actions(); ++a) info.actions.push_back(game.action_text(a));
  info.outputs = graph.outputs;
  return info;
}

std::vector<std::pair<std::string, std::string>> export_metadata(const ExportInfo& info) {
  const ModelIdentity& id = info.identity;
  std::string outputs;
  for (const NetworkOutput& o : info.outputs) outputs += (outputs.empty() ? "" : ",") + o.name;
  return {
      {"vzero_version", vzero_version()},
      {"variant", id.variant},
      {"rules_hash", hash_hex(id.rules_hash)},
      {"encoding_hash", hash_hex(id.encoding_hash)},
      {"encoding_version", std::to_string(EncodingSpec::kVersion)},
      {"encoding_layout", std::to_string(id.encoding)},
      {"input_shape", "batch," + std::to_string(id.channels) + "," + std::to_string(id.height) +
                          "," + std::to_string(id.width)},
      {"num_actions", std::to_string(id.num_actions)},
      {"players", std::to_string(id.players)},
      {"outputs", outputs},
      {"model_config", info.model_config},
  };
}

void write_sidecar(const ExportInfo& info, const std::string& path) {
  const ModelIdentity& id = info.identity;
  nlohmann::ordered_json j;
  j["format"] = "vzero-export-sidecar-1";
  for (const auto& [key, value] : export_metadata(info)) j[key] = value;
  j["encoding_version"] = EncodingSpec::kVersion;
  j["num_actions"] = id.num_actions;
  j["players"] = id.players;
  j["input_shape"] = {"batch", id.channels, id.height, id.width};
  nlohmann::ordered_json in;
  in["name"] = "input";
  in["shape"] = {"batch", id.channels, id.height, id.width};
  in["dtype"] = "float32";
  in["square_index"] =
      "row = rank, column = file; a1 is row 0, column 0 (the board is not mirrored)";
  in["point_of_view"] =
      "'mine' planes belong to the player to act; with 3-4 seats the seats are rotated so "
      "that the player to act comes first";
  in["scalars"] = "each scalar channel is one value repeated over the whole board";
  nlohmann::ordered_json channels = nlohmann::ordered_json::array();
  for (const std::string& name : info.planes)
    channels.push_back({{"index", channels.size()}, {"kind", "plane"}, {"name", name}});
  for (const std::string& name : info.scalars)
    channels.push_back({{"index", channels.size()}, {"kind", "scalar"}, {"name", name}});
  in["channels"] = channels;
  j["input"] = in;
  nlohmann::ordered_json outs = nlohmann::ordered_json::array();
  for (const NetworkOutput& o : info.outputs)
    outs.push_back({{"name", o.name}, {"shape", {"batch", o.width}}, {"meaning", o.meaning}});
  j["outputs"] = outs;
  j["actions"] = info.actions;
  write_file_atomically(path, j.dump(1) + "\n", "sidecar");
}

void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what) {
  write_file_durably(
      path,
      [&](const std::string& tmp) {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(text.data(), std::streamsize(text.size()));
        f.flush();
        if (!f.good()) throw Error("cannot write " + what + " '" + path + "'");
      },
      Existing::replace, what);
}

}  // namespace vzero
