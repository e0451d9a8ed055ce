// Reading and writing checkpoints.
#include "net/checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>

#include "util/error.h"
#include "util/files.h"
#include "util/toml_reader.h"

namespace vzero {

namespace {

constexpr const char* kFormat = "vzero-checkpoint-1";  // the archive's "format" field

// The file: this magic, the archive's length and its FNV-1a 64 hash (both
// little-endian), then the LibTorch archive. The hash is checked before
// LibTorch parses anything: its reader can crash on a corrupt archive.
constexpr char kMagic[8] = {'V', 'Z', 'C', 'K', 'P', 'T', '0', '2'};
constexpr size_t kHeaderBytes = 24;

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t get_u64(const std::string& in, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | uint8_t(in[at + size_t(i)]);
  return v;
}

// The archive inside a checkpoint file's bytes; throws Error (what is wrong) when the header or
// hash disagree.
std::string unwrap(const std::string& bytes) {
  if (bytes.size() < kHeaderBytes || bytes.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0)
    throw Error("is not a vzero checkpoint (no checkpoint header)");
  std::string archive = bytes.substr(kHeaderBytes);
  if (get_u64(bytes, 8) != archive.size())
    throw Error("is truncated or corrupt (its length differs from its header's)");
  if (get_u64(bytes, 16) != fnv1a(archive)) throw Error("is corrupt (its checksum does not match)");
  return archive;
}

// A checksum over every parameter and buffer, in order.
std::string weights_hash(PolicyValueNet& model) {
  uint64_t h = 1469598103934665603ull;
  const auto mix = [&](const torch::Tensor& t) {
    const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
    const auto* p = static_cast<const unsigned char*>(c.data_ptr());
    for (size_t i = 0; i < size_t(c.nbytes()); ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  for (const auto& p : model->named_parameters()) mix(p.value());
  for (const auto& b : model->named_buffers()) mix(b.value());
  return hash_hex(h);
}

// A FieldReader over an archive's top-level values.
FieldReader fields_of(torch::serialize::InputArchive& in) {
  return [&in](const std::string& key, c10::IValue& value) { return in.try_read(key, value); };
}

std::string read_string(const FieldReader& field, const char* key) {
  c10::IValue v;
  if (!field(key, v) || !v.isString()) throw Error(std::string("missing field '") + key + "'");
  return v.toStringRef();
}

// An integer field in [lo, hi].
int64_t read_int(const FieldReader& field, const char* key, int64_t lo, int64_t hi) {
  c10::IValue v;
  if (!field(key, v) || !v.isInt()) throw Error(std::string("missing field '") + key + "'");
  if (v.toInt() < lo || v.toInt() > hi)
    throw Error(std::string("field '") + key + "' is out of range");
  return v.toInt();
}

uint64_t parse_hash_hex(const std::string& s) {
  if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw Error("bad hash '" + s + "'");
  return std::stoull(s, nullptr, 16);
}

ModelIdentity read_identity(const FieldReader& field) {
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  ModelIdentity id;
  id.variant = read_string(field, "variant");
  id.rules_hash = parse_hash_hex(read_string(field, "rules_hash"));
  id.encoding_hash = parse_hash_hex(read_string(field, "encoding_hash"));
  id.channels = int(read_int(field, "channels", 1, kMax));
  id.height = int(read_int(field, "height", 1, kMax));
  id.width = int(read_int(field, "width", 1, kMax));
  id.num_actions = int(read_int(field, "num_actions", 1, kMax));
  id.players = int(read_int(field, "players", 1, kMax));
  return id;
}

// Reads the map of a convolutional policy head into id: planes, then one entry per action, in range
// and never twice the same (throws Error otherwise).
void read_policy_map(const FieldReader& field, ModelIdentity& id) {
  id.policy_planes = int(read_int(field, "policy_planes", 1, 100000));
  c10::IValue v;
  if (!field("policy_index", v) || !v.isIntList()) throw Error("missing field 'policy_index'");
  const c10::List<int64_t> index = v.toIntList();
  if (int64_t(index.size()) != id.num_actions)
    throw Error("field 'policy_index' does not have one entry per action");
  const int64_t slots = int64_t(id.policy_planes) * int64_t(id.height) * int64_t(id.width);
  id.policy_index.assign(index.begin(), index.end());
  std::vector<int64_t> sorted = id.policy_index;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.front() < 0 || sorted.back() >= slots ||
      std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw Error("field 'policy_index' is out of range or uses an entry twice");
}

// The size of a file in bytes (0 when it cannot be read).
int64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : int64_t(n);
}

// Opens the archive and checks its format; every failure names the file.
void open_archive(torch::serialize::InputArchive& in, const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw Error("checkpoint '" + path + "' does not exist");
  std::string archive;
  try {
    archive = unwrap(read_text_file(path));
  } catch (const Error& e) {
    throw Error("checkpoint '" + path + "' " + e.what());
  }
  try {
    in.load_from(archive.data(), archive.size(),
                 torch::Device(torch::kCPU));  // whichever device saved it
  } catch (const std::exception&) {
    throw Error("checkpoint '" + path + "' is truncated or corrupt (not a readable archive)");
  }
  try {
    if (read_string(fields_of(in), "format") != kFormat) throw Error("unknown format");
  } catch (const std::exception& e) {
    throw Error("checkpoint '" + path + "' is not a vzero checkpoint (" + e.what() + ")");
  }
}

}  // namespace

void save_checkpoint(const std::string& path, PolicyValueNet& model, int64_t step, int generation,
                     torch::optim::Optimizer* optimizer) {
  torch::serialize::OutputArchive out;
  CheckpointHeader h;
  h.identity = model->identity;
  h.config = model->config;
  h.step = step;
  h.generation = generation;
  h.weights_hash = weights_hash(model);
  h.input_plies = model->input_plies;
  for (const auto& [key, value] : checkpoint_fields(h)) out.write(key, value);
  torch::serialize::OutputArchive weights;
  model->save(weights);
  out.write("model", weights);
  if (optimizer) {
    torch::serialize::OutputArchive opt;
    optimizer->save(opt);
    out.write("optimizer", opt);
  }
  std::ostringstream archive;
  try {
    out.save_to(archive);
  } catch (const std::exception&) {
    throw Error("cannot write checkpoint '" + path + "'");
  }
  std::string file(kMagic, sizeof kMagic);
  put_u64(file, archive.str().size());
  put_u64(file, fnv1a(archive.str()));
  file += archive.str();
  write_text_file(path, file);  // to path.tmp, synced, renamed
}

std::vector<std::pair<std::string, c10::IValue>> checkpoint_fields(const CheckpointHeader& h) {
  const ModelIdentity& id = h.identity;
  std::vector<std::pair<std::string, c10::IValue>> fields = {
      {"format", std::string(kFormat)},
      {"variant", id.variant},
      {"rules_hash", hash_hex(id.rules_hash)},
      {"encoding_hash", hash_hex(id.encoding_hash)},
      {"channels", int64_t(id.channels)},
      {"height", int64_t(id.height)},
      {"width", int64_t(id.width)},
      {"num_actions", int64_t(id.num_actions)},
      {"players", int64_t(id.players)},
      {"config", h.config.to_text()},
      {"step", h.step},
      {"generation", int64_t(h.generation)},
      {"weights_hash", h.weights_hash},
      {"input_plies", int64_t(h.input_plies)}};
  // The map of a convolutional policy head: what the model was made with, whatever the game says
  // now.
  if (h.config.policy_head == "conv") {
    fields.emplace_back("policy_planes", int64_t(id.policy_planes));
    fields.emplace_back("policy_index", c10::List<int64_t>(id.policy_index));
  }
  return fields;
}

CheckpointHeader read_checkpoint_fields(const FieldReader& field, const ModelIdentity* expected,
                                        int64_t file_bytes, const std::string& what) {
  CheckpointHeader h;
  h.identity = read_identity(field);
  if (expected) expected->expect_same(h.identity, what);
  h.config = model_config_from_text(read_string(field, "config"));
  h.identity.encoding = h.config.encoding;
  h.step = read_int(field, "step", 0, std::numeric_limits<int64_t>::max());
  h.generation = int(read_int(field, "generation", 0, std::numeric_limits<int32_t>::max()));
  h.weights_hash = read_string(field, "weights_hash");
  c10::IValue plies;
  h.input_plies = field("input_plies", plies) ? int(read_int(field, "input_plies", 0, 100000)) : -1;
  const ModelConfig& c = h.config;
  const double area = double(h.identity.height) * h.identity.width;
  if (c.policy_head == "conv") read_policy_map(field, h.identity);
  // The largest layers (at least 2 bytes a weight, stored uncompressed) must fit
  // in the file: a corrupt config must not make the reader build a model of
  // gigabytes first.
  const double policy = c.policy_head == "conv" ? 9.0 * c.filters * h.identity.policy_planes
                                                : area * c.policy_channels * h.identity.num_actions;
  const double weights = 18.0 * c.blocks * c.filters * c.filters + policy + area * c.value_hidden;
  if (2.0 * weights > double(file_bytes))
    throw Error("its model config claims more weights than the file holds");
  return h;
}

std::pair<ModelIdentity, ModelConfig> read_checkpoint_header(const std::string& path) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  try {
    const CheckpointHeader h = read_checkpoint_fields(fields_of(in), nullptr, file_bytes(path), "");
    return {h.identity, h.config};
  } catch (const Error& e) {
    throw Error("checkpoint '" + path + "': " + e.what());
  }
}

int checkpoint_plies_fallback(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  for (const fs::path& config :
       {fs::path(p).replace_extension(".toml"), p.parent_path().parent_path() / "config.toml"}) {
    std::error_code ec;
    if (!fs::is_regular_file(config, ec)) continue;
    const toml::table t = parse_toml(read_text_file(config.string()), config.string());
    const auto plies = t["selfplay"]["max_plies"].value<int64_t>();
    if (!plies) return 0;
    if (*plies < 0 || *plies > 100000)
      throw Error(config.string() + ": selfplay.max_plies is out of range");
    return int(*plies);
  }
  return 0;
}

Checkpoint load_checkpoint(const std::string& path, const ModelIdentity* expected) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  Checkpoint c;
  try {
    const CheckpointHeader h = read_checkpoint_fields(fields_of(in), expected, file_bytes(path),
                                                      "checkpoint '" + path + "'");
    c.step = h.step;
    c.generation = h.generation;
    c.model = PolicyValueNet(h.config, h.identity);
    c.model->input_plies = h.input_plies >= 0 ? h.input_plies : checkpoint_plies_fallback(path);
    torch::serialize::InputArchive weights;
    if (!in.try_read("model", weights)) throw Error("no weights");
    try {
      c.model->load(weights);
    } catch (const std::exception&) {
      throw Error("weights do not fit the model");
    }
    if (weights_hash(c.model) != h.weights_hash) throw Error("weights fail their checksum");
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("checkpoint '", 0) == 0) throw;
    throw Error("checkpoint '" + path + "': " + what);
  } catch (const std::exception&) {
    throw Error("checkpoint '" + path + "' is truncated or corrupt");
  }
  return c;
}

void load_optimizer_state(const std::string& path, torch::optim::Optimizer& optimizer) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  torch::serialize::InputArchive opt;
  if (!in.try_read("optimizer", opt))
    throw Error("checkpoint '" + path + "' holds no optimizer state");
  try {
    optimizer.load(opt);
  } catch (const std::exception&) {
    throw Error("checkpoint '" + path + "': optimizer state is corrupt or does not fit");
  }
}

Checkpoint load_checkpoint_for(const Game& game, const std::string& path) {
  const int version = read_checkpoint_header(path).second.encoding;
  // A version the game lacks: expect the newest, so that the mismatch is reported as such.
  const ModelIdentity expected =
      ModelIdentity::of(game, version <= game.encoding_versions() ? version : 0);
  return load_checkpoint(path, &expected);
}

}  // namespace vzero
