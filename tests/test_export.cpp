// Export tests: TorchScript against the model for every head option, the
// sidecar, golden sets; and (hidden tag) the checkpoints that
// tests/export_check.sh exports for the Python and JavaScript checks.
#include <torch/script.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/export.h"
#include "net/model.h"
#include "net_test_util.h"
#include "test_util.h"
#include "util/error.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;
using vzero::testing::inputs;
using vzero::testing::sample_states;
using vzero::testing::small_config;
using vzero::testing::small_model;
namespace fs = std::filesystem;

namespace {

// A named model configuration for a variant.
struct ExportCase {
  std::string name, variant;
  ModelConfig config;
};

// The cases every export check covers: the variants with the default
// heads, 4 seats, and the options (global pooling, wdl, moves left, conv policy head).
std::vector<ExportCase> export_cases() {
  std::vector<ExportCase> cases;
  for (const char* v : {"chess", "grand", "attrition", "world", "parachute", "attrition-4p"})
    cases.push_back({v, v, small_config()});
  ModelConfig all = small_config();
  all.global_pooling = 1;
  all.value_head = "wdl";
  all.moves_left_head = true;
  cases.push_back({"chess-gpool-wdl-movesleft", "chess", all});
  ModelConfig three = small_config();
  three.global_pooling = 2;
  three.moves_left_head = true;
  cases.push_back({"attrition-3p-gpool-movesleft", "attrition-3p", three});
  // The convolutional policy head (a gather of its planes), with a wdl head and with 4 seats.
  ModelConfig conv = small_config();
  conv.policy_head = "conv";
  cases.push_back({"attrition-4p-convhead", "attrition-4p", conv});
  conv.value_head = "wdl";
  cases.push_back({"grand-convhead-wdl", "grand", conv});
  return cases;
}

// What an export test starts from: a fresh folder named name and a small model of variant.
struct ExportStart {
  fs::path dir;
  const Game& game;
  PolicyValueNet m;
};
ExportStart export_start(const std::string& name, const std::string& variant) {
  const Game& game = game_by_id(variant);
  return {vzero::testing::temp_dir(name), game, small_model(game)};
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream f(p);
  return nlohmann::json::parse(f);
}

}  // namespace

TEST_CASE("export: TorchScript gives the model's outputs for every head option", "[net][export]") {
  const fs::path dir = vzero::testing::temp_dir("export-ts");
  for (const ExportCase& c : export_cases()) {
    if (c.variant != "chess" && c.variant != "attrition-3p") continue;
    INFO(c.name);
    const Game& game = game_by_id(c.variant);
    PolicyValueNet m = small_model(game, c.config, 7);
    const std::string path = (dir / (c.name + ".ts")).string();
    export_torchscript(m, game, path);
    const torch::Tensor x = inputs(game, sample_states(game, 6, 3));
    torch::NoGradGuard g;
    NetOutput want = m->forward(x);
    torch::jit::Module loaded = torch::jit::load(path);
    const auto got = loaded.forward({x}).toTuple()->elements();
    const auto names = loaded.attr("outputs").toList();
    REQUIRE(got.size() == m->graph.outputs.size());
    REQUIRE(names.size() == got.size());
    for (size_t k = 0; k < got.size(); ++k) {
      const std::string name = names.get(k).toStringRef();
      CHECK(name == m->graph.outputs[k].name);
      CHECK((got[k].toTensor() - want.at(name)).abs().max().item<float>() < 1e-5f);
    }
    CHECK(loaded.attr("variant").toStringRef() == c.variant);
    CHECK(int(loaded.attr("actions").toList().size()) == game.num_actions());
  }
  fs::remove_all(dir);
}

TEST_CASE("export: the ONNX sidecar maps outputs to actions and names every input channel",
          "[net][export]") {
  auto [dir, game, m] = export_start("export-onnx", "grand");
  export_onnx(m, game, (dir / "m.onnx").string(), (dir / "m.json").string());
  CHECK(fs::file_size(dir / "m.onnx") > 1000);
  const nlohmann::json j = read_json(dir / "m.json");
  CHECK(j["variant"] == "grand");
  CHECK(j["actions"].size() == size_t(game.num_actions()));
  CHECK(j["actions"][17] == game.action_text(17));
  const EncodingSpec& e = game.encoding();
  REQUIRE(j["input"]["channels"].size() == size_t(e.channels()));
  CHECK(j["input"]["channels"][0]["name"] == e.plane_names[0]);
  CHECK(j["input"]["channels"][e.planes]["kind"] == "scalar");
  CHECK(j["input"]["shape"][1] == e.channels());
  CHECK(j["outputs"][0]["name"] == "policy");
  CHECK(j["outputs"][1]["name"] == "values");
  fs::remove_all(dir);
}

TEST_CASE("export: a golden set holds the model's outputs on seeded random positions",
          "[net][export]") {
  auto [dir, game, m] = export_start("export-golden", "attrition");
  for (const char* part : {"a", "b"}) write_golden(m, game, 20, 9, (dir / part).string());
  const nlohmann::json j = read_json(dir / "a" / "manifest.json");
  CHECK(j["positions"] == 20);
  CHECK(j["fens"].size() == 20);
  const EncodingSpec& e = game.encoding();
  CHECK(fs::file_size(dir / "a" / "input.bin") ==
        size_t(20) * e.channels() * e.plane_size() * sizeof(float));
  CHECK(fs::file_size(dir / "a" / "policy.bin") == size_t(20) * game.num_actions() * sizeof(float));
  // Seeded: the same positions again, and not all the same position.
  std::ifstream a(dir / "a" / "manifest.json"), b(dir / "b" / "manifest.json");
  CHECK(std::string(std::istreambuf_iterator<char>(a), {}) ==
        std::string(std::istreambuf_iterator<char>(b), {}));
  std::set<std::string> distinct(j["fens"].begin(), j["fens"].end());
  CHECK(distinct.size() > 10);
  fs::remove_all(dir);
}

// Writes one checkpoint per export case into $VZERO_EXPORT_DIR and the list
// "name variant" in cases.txt (run by tests/export_check.sh).
TEST_CASE("export: checkpoints for the export checks", "[.export-models]") {
  const char* out = std::getenv("VZERO_EXPORT_DIR");
  REQUIRE(out != nullptr);
  std::ofstream list(fs::path(out) / "cases.txt");
  uint64_t seed = 20;
  for (const ExportCase& c : export_cases()) {
    const Game& game = game_by_id(c.variant);
    PolicyValueNet m = small_model(game, c.config, ++seed);
    save_checkpoint((fs::path(out) / (c.name + ".pt")).string(), m, 0, 1);
    list << c.name << " " << c.variant << "\n";
  }
  CHECK(list.good());
}
