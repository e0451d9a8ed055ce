// Fuzz target: the checked layer of checkpoint reading (read_checkpoint_fields,
// net/checkpoint.h): every header field present or absent, of the right type
// or another, with the right value or a fuzzed one; the model config's TOML
// text; the identity expected or none; the file's size. Bad fields must throw
// vzero::Error; accepted ones must fit the identity asked for, and a model of
// them must be buildable. LibTorch's archive reader, which comes before this
// layer, is fed whole files by fuzz_checkpoint_file (slow: see README.md).
#include <fuzzer/FuzzedDataProvider.h>

#include <map>

#include "fuzz/fuzz_util.h"
#include "net/checkpoint.h"

#undef CHECK  // glog's
using namespace vzero;

namespace {

// The header of a tiny made-up model (2x2 board, 3 actions): cheap to build.
struct Reference {
  ModelIdentity id;
  ModelConfig config;
  std::map<std::string, c10::IValue> fields;
  Reference() {
    id.variant = "fuzz";
    id.rules_hash = 0x0123456789abcdefull;
    id.encoding_hash = 0xfedcba9876543210ull;
    id.channels = 2;
    id.height = id.width = 2;
    id.num_actions = 3;
    id.players = 2;
    config.blocks = 1;
    config.filters = 2;
    config.value_hidden = 2;
    config.policy_channels = 1;
    fields = {{"variant", id.variant},
              {"rules_hash", hash_hex(id.rules_hash)},
              {"encoding_hash", hash_hex(id.encoding_hash)},
              {"channels", int64_t(id.channels)},
              {"height", int64_t(id.height)},
              {"width", int64_t(id.width)},
              {"num_actions", int64_t(id.num_actions)},
              {"players", int64_t(id.players)},
              {"config", config.to_text()},
              {"step", int64_t(7)},
              {"generation", int64_t(2)},
              {"weights_hash", std::string("0123456789abcdef")}};
  }
};

// A field's value as the input chooses it: the right one, none, or a fuzzed one of some type.
bool choose(FuzzedDataProvider& in, const c10::IValue& right, c10::IValue& out) {
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0:
      out = right;
      return true;
    case 1:
      return false;
    case 2:
      out = c10::IValue(in.ConsumeRandomLengthString(96));
      return true;
    case 3:
      out = c10::IValue(in.ConsumeIntegral<int64_t>());
      return true;
    case 4:
      out = c10::IValue(int64_t(in.ConsumeIntegralInRange(-2, 70)));
      return true;
    default:
      out = c10::IValue(in.ConsumeFloatingPoint<double>());
      return true;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Reference r;
  FuzzedDataProvider in(data, size);
  const bool expect = in.ConsumeBool();
  const int64_t file_bytes = in.ConsumeIntegralInRange<int64_t>(0, 1 << 16);
  std::map<std::string, c10::IValue> fields;
  for (const auto& [key, right] : r.fields) {
    c10::IValue v;
    if (choose(in, right, v)) fields[key] = v;
  }
  const FieldReader reader = [&](const std::string& key, c10::IValue& value) {
    auto it = fields.find(key);
    if (it == fields.end()) return false;
    value = it->second;
    return true;
  };
  CheckpointHeader h;
  try {
    h = read_checkpoint_fields(reader, expect ? &r.id : nullptr, file_bytes, "fuzz");
  } catch (const Error&) {
    return 0;
  }
  if (expect)
    fuzz::require(h.identity.variant == r.id.variant && h.identity.channels == r.id.channels &&
                      h.identity.num_actions == r.id.num_actions &&
                      h.identity.players == r.id.players,
                  "an accepted header has the identity asked for");
  fuzz::require(h.step >= 0 && h.generation >= 0, "step and generation are not negative");
  if (expect) PolicyValueNet(h.config, h.identity);  // small, by the size check
  return 0;
}
