// Reading and writing checkpoints.
#include "net/checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "game/error.h"
#include "game/files.h"

namespace vzero {

namespace {

constexpr const char* kFormat = "vzero-checkpoint-1";

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

std::string read_string(torch::serialize::InputArchive& in, const char* key) {
  c10::IValue v;
  if (!in.try_read(key, v) || !v.isString()) throw Error(std::string("missing field '") + key + "'");
  return v.toStringRef();
}

int64_t read_int(torch::serialize::InputArchive& in, const char* key) {
  c10::IValue v;
  if (!in.try_read(key, v) || !v.isInt()) throw Error(std::string("missing field '") + key + "'");
  return v.toInt();
}

uint64_t parse_hash_hex(const std::string& s) {
  if (s.size() != 16) throw Error("bad hash '" + s + "'");
  return std::stoull(s, nullptr, 16);
}

ModelIdentity read_identity(torch::serialize::InputArchive& in) {
  ModelIdentity id;
  id.variant = read_string(in, "variant");
  id.rules_hash = parse_hash_hex(read_string(in, "rules_hash"));
  id.encoding_hash = parse_hash_hex(read_string(in, "encoding_hash"));
  id.channels = int(read_int(in, "channels"));
  id.height = int(read_int(in, "height"));
  id.width = int(read_int(in, "width"));
  id.num_actions = int(read_int(in, "num_actions"));
  id.players = int(read_int(in, "players"));
  return id;
}

// Opens the archive and checks its format; every failure names the file.
void open_archive(torch::serialize::InputArchive& in, const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw Error("checkpoint '" + path + "' does not exist");
  try {
    in.load_from(path, torch::Device(torch::kCPU));  // whichever device saved it
  } catch (const c10::Error& e) {
    throw Error("checkpoint '" + path + "' is truncated or corrupt (not a readable archive)");
  }
  try {
    if (read_string(in, "format") != kFormat) throw Error("unknown format");
  } catch (const std::exception& e) {
    throw Error("checkpoint '" + path + "' is not a vzero checkpoint (" + e.what() + ")");
  }
}

}  // namespace

void save_checkpoint(const std::string& path, PolicyValueNet& model, int64_t step, int generation,
                     torch::optim::Optimizer* optimizer) {
  torch::serialize::OutputArchive out;
  const ModelIdentity& id = model->identity;
  out.write("format", c10::IValue(std::string(kFormat)));
  out.write("variant", c10::IValue(id.variant));
  out.write("rules_hash", c10::IValue(hash_hex(id.rules_hash)));
  out.write("encoding_hash", c10::IValue(hash_hex(id.encoding_hash)));
  out.write("channels", c10::IValue(int64_t(id.channels)));
  out.write("height", c10::IValue(int64_t(id.height)));
  out.write("width", c10::IValue(int64_t(id.width)));
  out.write("num_actions", c10::IValue(int64_t(id.num_actions)));
  out.write("players", c10::IValue(int64_t(id.players)));
  out.write("config", c10::IValue(model->config.to_text()));
  out.write("step", c10::IValue(step));
  out.write("generation", c10::IValue(int64_t(generation)));
  out.write("weights_hash", c10::IValue(weights_hash(model)));
  torch::serialize::OutputArchive weights;
  model->save(weights);
  out.write("model", weights);
  if (optimizer) {
    torch::serialize::OutputArchive opt;
    optimizer->save(opt);
    out.write("optimizer", opt);
  }
  const std::string tmp = path + ".tmp";
  try {
    out.save_to(tmp);
  } catch (const c10::Error& e) {
    throw Error("cannot write checkpoint '" + path + "'");
  }
  sync_and_rename(tmp, path);
}

std::pair<ModelIdentity, ModelConfig> read_checkpoint_header(const std::string& path) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  try {
    return {read_identity(in), model_config_from_text(read_string(in, "config"))};
  } catch (const Error& e) {
    throw Error("checkpoint '" + path + "': " + e.what());
  }
}

Checkpoint load_checkpoint(const std::string& path, const ModelIdentity* expected) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  Checkpoint c;
  try {
    const ModelIdentity id = read_identity(in);
    if (expected) expected->expect_same(id, "checkpoint '" + path + "'");
    const ModelConfig config = model_config_from_text(read_string(in, "config"));
    c.step = read_int(in, "step");
    c.generation = int(read_int(in, "generation"));
    const std::string want = read_string(in, "weights_hash");
    c.model = PolicyValueNet(config, id);
    torch::serialize::InputArchive weights;
    if (!in.try_read("model", weights)) throw Error("no weights");
    try {
      c.model->load(weights);
    } catch (const c10::Error&) {
      throw Error("weights do not fit the model");
    }
    if (weights_hash(c.model) != want) throw Error("weights fail their checksum");
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("checkpoint '", 0) == 0) throw;
    throw Error("checkpoint '" + path + "': " + what);
  } catch (const c10::Error&) {
    throw Error("checkpoint '" + path + "' is truncated or corrupt");
  }
  return c;
}

void load_optimizer_state(const std::string& path, torch::optim::Optimizer& optimizer) {
  torch::serialize::InputArchive in;
  open_archive(in, path);
  torch::serialize::InputArchive opt;
  try {
    if (!in.try_read("optimizer", opt)) throw Error("checkpoint '" + path + "' holds no optimizer state");
    optimizer.load(opt);
  } catch (const c10::Error&) {
    throw Error("checkpoint '" + path + "': optimizer state is corrupt or does not fit");
  }
}

}  // namespace vzero
