// Network tests: shapes, the optional heads, checkpoints (the server: test_server.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "game/builtin/games.h"
#include "net/checkpoint.h"
#include "net/export.h"
#include "net/grown.h"
#include "net/model.h"
#include "net/server.h"
#include "net_test_util.h"
#include "test_util.h"
#include "turns_game.h"
#include "util/error.h"

// glog (through LibTorch) defines CHECK; Catch's must win.
#undef CHECK
#include <catch.hpp>

using namespace vzero;
namespace fs = std::filesystem;

using vzero::testing::inputs;
using vzero::testing::sample_states;
using vzero::testing::small_config;
using vzero::testing::small_model;

TEST_CASE("net: policy output is the action space, values one per seat", "[net]") {
  for (const char* id :
       {"chess", "grand", "ascending", "007", "007-detente", "attrition", "attrition-4p"}) {
    const Game& game = game_by_id(id);
    PolicyValueNet m = small_model(game);
    auto states = sample_states(game, 4, 1);
    torch::NoGradGuard g;
    const NetOutput out = m->forward(inputs(game, states));
    CHECK(out.policy.size(0) == 4);
    CHECK(out.policy.size(1) == game.num_actions());
    CHECK(out.values.size(1) == game.num_players());
    CHECK(out.values.abs().max().item<float>() <= 1.0f);
    CHECK(!out.wdl.defined());
    CHECK(!out.moves_left.defined());
  }
}

TEST_CASE("net: the default network keeps the parameter names and order of earlier checkpoints",
          "[net]") {
  // The names (and order, which the weights checksum follows) that checkpoints
  // written before the layer list hold, for one residual block.
  const std::vector<std::string> want = {
      "input_conv.weight",  "input_bn.weight",    "input_bn.bias",        "tower.0.conv1.weight",
      "tower.0.bn1.weight", "tower.0.bn1.bias",   "tower.0.conv2.weight", "tower.0.bn2.weight",
      "tower.0.bn2.bias",   "policy_conv.weight", "policy_bn.weight",     "policy_bn.bias",
      "policy_fc.weight",   "policy_fc.bias",     "value_conv.weight",    "value_bn.weight",
      "value_bn.bias",      "value_fc1.weight",   "value_fc1.bias",       "value_fc2.weight",
      "value_fc2.bias"};
  ModelConfig c;
  c.blocks = 1;
  PolicyValueNet m = make_model(c, ModelIdentity::of(game_by_id("chess")), 1);
  std::vector<std::string> got;
  for (const auto& p : m->named_parameters()) got.push_back(p.key());
  CHECK(got == want);
  std::vector<std::string> buffers;
  for (const auto& b : m->named_buffers()) buffers.push_back(b.key());
  CHECK(buffers.size() == 5 * 3);
  CHECK(buffers.front() == "input_bn.running_mean");
  CHECK(buffers.back() == "value_bn.num_batches_tracked");
}

TEST_CASE("net: global pooling, the wdl head and the moves-left head", "[net]") {
  const Game& game = game_by_id("chess");
  ModelConfig c = small_config();
  c.global_pooling = 1;
  c.value_head = "wdl";
  c.moves_left_head = true;
  PolicyValueNet m = small_model(game, c);
  const auto names = m->named_parameters();
  CHECK(names.contains("tower.0.gpool.weight"));
  CHECK(names.contains("tower.1.gpool.weight"));
  CHECK(names.contains("wdl_fc.weight"));
  CHECK(!names.contains("value_fc2.weight"));
  CHECK(names.contains("moves_left_fc2.bias"));
  torch::NoGradGuard g;
  const NetOutput out = m->forward(inputs(game, sample_states(game, 6, 4)));
  REQUIRE(out.wdl.defined());
  REQUIRE(out.moves_left.defined());
  CHECK(out.wdl.sizes() == torch::IntArrayRef({6, 3}));
  CHECK(out.moves_left.sizes() == torch::IntArrayRef({6, 1}));
  CHECK(out.moves_left.min().item<float>() >= 0.0f);
  const torch::Tensor p = torch::softmax(out.wdl, 1);
  const torch::Tensor v = p.select(1, 0) - p.select(1, 2);
  CHECK((out.values.select(1, 0) - v).abs().max().item<float>() < 1e-6f);
  CHECK((out.values.select(1, 1) + v).abs().max().item<float>() < 1e-6f);

  // Every second block only; none when the interval exceeds the tower.
  c.global_pooling = 2;
  PolicyValueNet every_second = make_model(c, ModelIdentity::of(game), 1);
  CHECK(!every_second->named_parameters().contains("tower.0.gpool.weight"));
  CHECK(every_second->named_parameters().contains("tower.1.gpool.weight"));

  // wdl needs two players; the config keys are typed and written back.
  CHECK_THROWS_WITH(make_model(c, ModelIdentity::of(game_by_id("attrition-3p")), 1),
                    Catch::Contains("2-player"));
  const ModelConfig back = model_config_from_text(c.to_text());
  CHECK(back.global_pooling == 2);
  CHECK(back.value_head == "wdl");
  CHECK(back.moves_left_head);
  CHECK_THROWS_WITH(model_config_from_text("value_head = \"wld\"\n"),
                    Catch::Contains("value_head"));
  CHECK_THROWS_WITH(model_config_from_text("moves_left_head = 1\n"), Catch::Contains("wrong type"));
  // A config text of earlier checkpoints (four keys) still reads, with the options off.
  const ModelConfig old =
      model_config_from_text("blocks = 2\nfilters = 16\nvalue_hidden = 64\npolicy_channels = 4\n");
  CHECK(old.global_pooling == 0);
  CHECK(old.value_head == "scalar");
  CHECK(!old.moves_left_head);
}

namespace {

// The largest difference between two models' outputs on x (every output both have).
float output_gap(PolicyValueNet& a, PolicyValueNet& b, const torch::Tensor& x) {
  torch::NoGradGuard g;
  NetOutput pa = a->forward(x), pb = b->forward(x);
  float gap = (pa.policy - pb.policy).abs().max().item<float>();
  gap = std::max(gap, (pa.values - pb.values).abs().max().item<float>());
  if (pa.wdl.defined()) gap = std::max(gap, (pa.wdl - pb.wdl).abs().max().item<float>());
  if (pa.moves_left.defined())
    gap = std::max(gap, (pa.moves_left - pb.moves_left).abs().max().item<float>());
  return gap;
}

}  // namespace

TEST_CASE("net: a grown model computes what it grew from", "[net][grow]") {
  const Game& game = game_by_id("chess");
  ModelConfig c = small_config();
  c.policy_head = "conv";
  c.global_pooling = 1;
  c.value_head = "wdl";
  c.moves_left_head = true;
  PolicyValueNet small = small_model(game, c);
  const torch::Tensor x = inputs(game, sample_states(game, 16, 9));

  // Blocks only: the added blocks start as identities, so the outputs are the same floats.
  ModelConfig deeper = c;
  deeper.blocks = 4;
  PolicyValueNet d = grown_model(small, deeper, 5);
  CHECK(d->named_parameters().contains("tower.3.conv2.weight"));
  CHECK(output_gap(small, d, x) == 0.0f);

  // Filters as well: within float rounding, in eval mode and with batch statistics (training).
  ModelConfig wider = deeper;
  wider.filters = 24;
  PolicyValueNet w = grown_model(small, wider, 5);
  CHECK(w->named_parameters()["input_conv.weight"].size(0) == 24);
  CHECK(output_gap(small, w, x) < 2e-5f);
  small->train();
  w->train();
  CHECK(output_gap(small, w, x) < 2e-5f);
  small->eval();

  // Each added channel copies one of the first 16, and its readers split that channel's
  // weights between the copies in shares that differ (so training can separate them).
  torch::NoGradGuard g;
  const torch::Tensor in_old = small->named_parameters()["input_conv.weight"];
  const torch::Tensor in_new = w->named_parameters()["input_conv.weight"];
  const torch::Tensor read_old = small->named_parameters()["tower.0.conv1.weight"];
  const torch::Tensor read_new = w->named_parameters()["tower.0.conv1.weight"];
  for (int64_t j = 16; j < 24; ++j) {
    int64_t source = -1;
    for (int64_t k = 0; k < 16; ++k)
      if (torch::equal(in_new[j], in_old[k])) source = k;
    REQUIRE(source >= 0);
    const torch::Tensor copies = read_new.slice(0, 0, 16).select(1, j);
    const torch::Tensor original = read_new.slice(0, 0, 16).select(1, source);
    CHECK(!torch::allclose(copies, original));
    // The shares of one old channel sum to 1 (over every copy of it, the original included).
    torch::Tensor sum = original.clone();
    for (int64_t m = 16; m < 24; ++m)
      if (torch::equal(in_new[m], in_old[source])) sum += read_new.slice(0, 0, 16).select(1, m);
    CHECK(torch::allclose(sum, read_old.select(1, source), 1e-5, 1e-6));
  }

  // Only blocks and filters grow, and neither shrinks.
  ModelConfig fewer = c;
  fewer.blocks = 1;
  CHECK_THROWS_WITH(grown_model(small, fewer, 5), Catch::Contains("fewer blocks"));
  ModelConfig narrower = c;
  narrower.filters = 8;
  CHECK_THROWS_WITH(grown_model(small, narrower, 5), Catch::Contains("fewer filters"));
  ModelConfig other = deeper;
  other.value_hidden = 32;
  CHECK_THROWS_WITH(grown_model(small, other, 5),
                    Catch::Contains("only [model] blocks and filters"));
}

TEST_CASE("net: the convolutional policy head reads each action at its plane and square",
          "[net][conv-head]") {
  const Game& game = game_by_id("chess");
  const ModelIdentity id = ModelIdentity::of(game);
  ModelConfig c = small_config();
  c.policy_head = "conv";
  PolicyValueNet m = make_model(c, id, 1);
  const auto params = m->named_parameters();
  REQUIRE(params.contains("policy_planes.weight"));
  CHECK(params["policy_planes.weight"].sizes() ==
        torch::IntArrayRef({id.policy_planes, c.filters, 3, 3}));
  CHECK(params.contains("policy_planes.bias"));
  CHECK(!params.contains("policy_fc.weight"));
  CHECK(!params.contains("policy_bn.weight"));
  const auto count = [](PolicyValueNet& net) {
    int64_t n = 0;
    for (const torch::Tensor& p : net->parameters()) n += p.numel();
    return n;
  };
  PolicyValueNet fc = make_model(small_config(), id, 1);
  CHECK(count(m) * 3 < count(fc));
  torch::NoGradGuard no_grad;
  m->eval();
  CHECK(m->forward(inputs(game, sample_states(game, 3, 1))).policy.sizes() ==
        torch::IntArrayRef({3, game.num_actions()}));

  // No tower; the input convolution passes "mine king" (channel 5) on as channel
  // 0, and plane k of the head is that channel plus 0.01 k: at the start the
  // logit of an action is 1 when it starts on e1, plus 0.01 times its plane.
  c.blocks = 0;
  PolicyValueNet probe = make_model(c, id, 1);
  probe->eval();
  auto p = probe->named_parameters();
  p["input_conv.weight"].zero_();
  p["input_conv.weight"][0][5][1][1] = 1.0f;
  p["policy_planes.weight"].zero_();
  p["policy_planes.weight"].select(1, 0).select(1, 1).select(1, 1).fill_(1.0f);
  p["policy_planes.bias"].copy_(torch::arange(id.policy_planes, torch::kFloat) * 0.01f);
  const auto start = game.new_state();
  std::vector<std::unique_ptr<GameState>> one;
  one.push_back(start->clone());
  const torch::Tensor logits = probe->forward(inputs(game, one)).policy[0];
  const PolicyMap map = *game.policy_map();
  const float king = float(1.0 / std::sqrt(1.0 + kBatchNormEps));
  int on_e1 = 0;
  for (int a = 0; a < game.num_actions(); ++a) {
    const bool e1 = map.square[size_t(a)] == 4;
    on_e1 += e1;
    INFO(game.action_text(a));
    CHECK(logits[a].item<float>() ==
          Approx((e1 ? king : 0.0f) + 0.01f * float(map.plane[size_t(a)])).margin(1e-5));
  }
  CHECK(on_e1 > 10);

  // The key is typed and written back; texts without it (earlier checkpoints) are "fc".
  CHECK(model_config_from_text(c.to_text()).policy_head == "conv");
  CHECK(model_config_from_text("blocks = 2\n").policy_head == "fc");
  CHECK_THROWS_WITH(model_config_from_text("policy_head = \"linear\"\n"),
                    Catch::Contains("policy_head"));
  // A variant whose core has no map is refused by name.
  ModelIdentity none = id;
  none.variant = "nomap";
  none.policy_planes = 0;
  none.policy_index.clear();
  CHECK_THROWS_WITH(make_model(c, none, 1),
                    Catch::Contains("'nomap'") && Catch::Contains("policy_head = \"fc\""));
  CHECK(!vzero::testing::TurnsGame(2, 1, 2).policy_map());
}

TEST_CASE("net: a convolutional policy head round-trips through a checkpoint with its map",
          "[net][conv-head]") {
  const fs::path dir = vzero::testing::temp_dir("net-convhead");
  const Game& game = game_by_id("grand");
  ModelConfig c = small_config();
  c.policy_head = "conv";
  c.value_head = "wdl";
  PolicyValueNet m = small_model(game, c, 5);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 1, 1);
  const ModelIdentity id = ModelIdentity::of(game);
  Checkpoint back = load_checkpoint(path, &id);
  CHECK(back.model->config.policy_head == "conv");
  CHECK(back.model->identity.policy_planes == id.policy_planes);
  CHECK(back.model->identity.policy_index == id.policy_index);
  back.model->eval();
  const torch::Tensor x = inputs(game, sample_states(game, 4, 2));
  torch::NoGradGuard g;
  CHECK(torch::equal(m->forward(x).policy, back.model->forward(x).policy));
  CHECK(torch::equal(m->forward(x).values, back.model->forward(x).values));
  // Only a conv head's checkpoint carries the map.
  CheckpointHeader h;
  h.identity = id;
  std::set<std::string> keys;
  for (const auto& field : checkpoint_fields(h)) keys.insert(field.first);
  CHECK(keys.count("policy_index") == 0);
  h.config = c;
  keys.clear();
  for (const auto& field : checkpoint_fields(h)) keys.insert(field.first);
  CHECK(keys.count("policy_index") == 1);
  fs::remove_all(dir);
}

TEST_CASE("net: a model with every option round-trips through a checkpoint and the server",
          "[net]") {
  const fs::path dir = vzero::testing::temp_dir("net-options");
  const Game& game = game_by_id("chess");
  ModelConfig c = small_config();
  c.global_pooling = 2;
  c.value_head = "wdl";
  c.moves_left_head = true;
  PolicyValueNet m = small_model(game, c, 5);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 1, 1);
  Checkpoint back = load_checkpoint(path);
  ModelConfig made = c;  // with the encoding version resolved (chess has one)
  made.encoding = 1;
  CHECK(back.model->config.to_text() == made.to_text());
  back.model->eval();
  auto states = sample_states(game, 5, 6);
  const torch::Tensor x = inputs(game, states);
  torch::NoGradGuard g;
  NetOutput a = m->forward(x), b = back.model->forward(x);
  for (const char* name : {"policy", "values", "wdl", "moves_left"})
    CHECK(torch::equal(a.at(name), b.at(name)));

  ServerConfig sc;
  sc.cache_entries = 0;
  InferenceServer server(game, sc, path);
  std::vector<Evaluation> out;
  server.evaluate({states[3].get()}, out);
  const int me = states[3]->current_player();
  CHECK(out[0].values[me] == Approx(a.values[3][0].item<float>()).margin(1e-5));
  CHECK(out[0].values[1 - me] == Approx(a.values[3][1].item<float>()).margin(1e-5));
  fs::remove_all(dir);
}

TEST_CASE("net: a model reads the encoding version it was made with, newest by default",
          "[net][encoding]") {
  const fs::path dir = vzero::testing::temp_dir("net-encoding");
  const Game& game = game_by_id("attrition");
  REQUIRE(game.encoding_versions() == 2);
  // A fresh model reads the newest version and stores it in its config.
  PolicyValueNet newest = small_model(game);
  CHECK(newest->identity.encoding == 2);
  CHECK(newest->config.encoding == 2);
  CHECK(newest->identity.channels == game.encoding(2).channels());
  // One made for version 1 (the shipped attrition model's) keeps it through a
  // checkpoint; the server finds the version in the file and encodes with it.
  ModelConfig c = small_config();
  c.encoding = 1;
  PolicyValueNet old = small_model(game, c, 4);
  CHECK(old->identity.channels == game.encoding(1).channels());
  CHECK(old->identity.encoding_hash == encoding_hash(game, 1));
  const std::string path = (dir / "v1.pt").string();
  save_checkpoint(path, old, 1, 1);
  CHECK(read_checkpoint_header(path).second.encoding == 1);
  Checkpoint back = load_checkpoint_for(game, path);
  CHECK(back.model->identity.encoding == 1);
  const ModelIdentity wrong = ModelIdentity::of(game, 2);
  CHECK_THROWS_WITH(load_checkpoint(path, &wrong), Catch::Contains("input encoding"));
  CHECK_THROWS_WITH(load_checkpoint_for(game_by_id("attrition-3p"), path),
                    Catch::Contains("different variant"));
  auto states = sample_states(game, 4, 8);
  torch::NoGradGuard g;
  const torch::Tensor x = inputs(game, states, 1);
  const NetOutput a = old->forward(x);
  ServerConfig sc;
  sc.cache_entries = 0;
  InferenceServer server(game, sc, path);
  CHECK(server.identity().encoding == 1);
  CHECK(int64_t(server.input_of(*states[2]).size()) == x[2].numel());
  std::vector<Evaluation> out;
  server.evaluate({states[2].get()}, out);
  const int me = states[2]->current_player();
  CHECK(out[0].values[me] == Approx(a.values[2][0].item<float>()).margin(1e-5));
  // The key is typed and ranged; a version the variant lacks is refused; a
  // config text without it (checkpoints from before versions) reads version 1.
  CHECK(model_config_from_text("blocks = 2\n").encoding == 1);
  CHECK_THROWS_WITH(model_config_from_text("encoding = -1\n"), Catch::Contains("encoding"));
  c.encoding = 3;
  CHECK_THROWS_WITH(small_model(game, c), Catch::Contains("no encoding version 3"));
  c.encoding = 2;
  CHECK_THROWS_WITH(small_model(game_by_id("chess"), c), Catch::Contains("no encoding version 2"));
  fs::remove_all(dir);
}

TEST_CASE("net: a checkpoint loads back exactly, and a wrong or damaged one is refused", "[net]") {
  const fs::path dir = vzero::testing::temp_dir("net-ckpt");
  const Game& game = game_by_id("attrition");
  PolicyValueNet m = small_model(game);
  const std::string path = (dir / "m.pt").string();
  save_checkpoint(path, m, 42, 3);
  const ModelIdentity id = ModelIdentity::of(game);
  Checkpoint c = load_checkpoint(path, &id);
  CHECK(c.step == 42);
  CHECK(c.generation == 3);
  c.model->eval();
  auto states = sample_states(game, 5, 2);
  torch::NoGradGuard g;
  const torch::Tensor x = inputs(game, states);
  CHECK(torch::equal(m->forward(x).policy, c.model->forward(x).policy));
  CHECK(torch::equal(m->forward(x).values, c.model->forward(x).values));

  const ModelIdentity other = ModelIdentity::of(game_by_id("attrition-3p"));
  CHECK_THROWS_WITH(load_checkpoint(path, &other), Catch::Contains("different variant"));
  CHECK_THROWS_WITH(load_checkpoint((dir / "none.pt").string()), Catch::Contains("does not exist"));
  // Truncated copies and flipped bytes.
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  for (size_t cut : {size_t(10), bytes.size() / 2, bytes.size() - 30}) {
    const fs::path t = dir / "cut.pt";
    std::ofstream(t, std::ios::binary).write(bytes.data(), cut);
    CHECK_THROWS_AS(load_checkpoint(t.string(), &id), vzero::Error);
  }
  // A flipped byte anywhere (header, LibTorch's zip and pickle data, weights)
  // is refused by the file checksum before LibTorch parses the archive: on
  // some such archives LibTorch 1.13 crashes (found by fuzz_checkpoint_file).
  for (size_t at = 0; at < bytes.size(); at += bytes.size() / 41) {
    std::string bad = bytes;
    bad[at] ^= 0x5a;
    const fs::path t = dir / "flip.pt";
    std::ofstream(t, std::ios::binary).write(bad.data(), bad.size());
    CHECK_THROWS_AS(load_checkpoint(t.string(), &id), vzero::Error);
    CHECK_THROWS_AS(read_checkpoint_header(t.string()), vzero::Error);
  }
  fs::remove_all(dir);
}

TEST_CASE("net: a LibTorch archive without vzero's checksum header is refused", "[net][fuzz]") {
  const fs::path dir = vzero::testing::temp_dir("net-raw");
  const Game& game = game_by_id("attrition");
  PolicyValueNet m = small_model(game);
  torch::serialize::OutputArchive out;
  m->save(out);
  out.write("format", c10::IValue(std::string("vzero-checkpoint-1")));
  const std::string path = (dir / "raw.pt").string();
  out.save_to(path);
  const ModelIdentity id = ModelIdentity::of(game);
  CHECK_THROWS_WITH(load_checkpoint(path, &id), Catch::Contains("not a vzero checkpoint"));
  fs::remove_all(dir);
}

TEST_CASE("net: checkpoint fields are checked before a model is built", "[net][fuzz]") {
  // The layer fuzz_checkpoint feeds: types, ranges, hashes, the identity, and
  // a config whose weights cannot exceed the file.
  const Game& game = game_by_id("attrition");
  const ModelIdentity id = ModelIdentity::of(game);
  CheckpointHeader header;
  header.identity = id;
  header.step = 3;
  header.generation = 1;
  header.weights_hash = "0123456789abcdef";
  std::map<std::string, c10::IValue> fields;
  for (const auto& [key, value] : checkpoint_fields(header)) fields[key] = value;
  const FieldReader reader = [&](const std::string& key, c10::IValue& v) {
    auto it = fields.find(key);
    if (it == fields.end()) return false;
    v = it->second;
    return true;
  };
  const int64_t big = int64_t(1) << 30;
  CHECK(read_checkpoint_fields(reader, &id, big, "c").step == 3);
  // A hash of 16 characters that are not hex digits (std::stoull used to throw
  // std::invalid_argument).
  fields["rules_hash"] = std::string("zzzzzzzzzzzzzzzz");
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("bad hash"));
  fields["rules_hash"] = std::string("-000000000000001");
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("bad hash"));
  fields["rules_hash"] = hash_hex(id.rules_hash);
  fields["channels"] = int64_t(1) << 40;  // would wrap when read as an int
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, nullptr, big, "c"),
                    Catch::Contains("out of range"));
  fields["channels"] = int64_t(id.channels);
  fields["step"] = int64_t(-1);
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("step"));
  fields["step"] = std::string("3");
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("step"));
  fields["step"] = int64_t(3);
  // A config of 64 blocks of 1024 filters (4.8 GB of weights) in a small file.
  ModelConfig huge;
  huge.blocks = 64;
  huge.filters = 1024;
  fields["config"] = huge.to_text();
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, 1 << 20, "c"),
                    Catch::Contains("more weights than the file"));
  // A conv head's map: present, one entry per action, in range, each entry once.
  ModelConfig conv;
  conv.policy_head = "conv";
  fields["config"] = conv.to_text();
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"),
                    Catch::Contains("policy_planes"));
  fields["policy_planes"] = int64_t(id.policy_planes);
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("policy_index"));
  fields["policy_index"] = c10::List<int64_t>(id.policy_index);
  CHECK(read_checkpoint_fields(reader, &id, big, "c").identity.policy_index == id.policy_index);
  std::vector<int64_t> twice = id.policy_index;
  twice[1] = twice[0];
  fields["policy_index"] = c10::List<int64_t>(twice);
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("twice"));
  twice[1] = int64_t(id.policy_planes) * id.height * id.width;
  fields["policy_index"] = c10::List<int64_t>(twice);
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"), Catch::Contains("out of range"));
  fields["policy_index"] = c10::List<int64_t>(std::vector<int64_t>{0, 1});
  CHECK_THROWS_WITH(read_checkpoint_fields(reader, &id, big, "c"),
                    Catch::Contains("one entry per action"));
}
