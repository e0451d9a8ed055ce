// Fuzz target: the checked layer of checkpoint reading (read_checkpoint_fields,
// net/checkpoint.h): every header field present or absent, of the right type
// or another, with the right value or a fuzzed one; the model config's TOML
// text; the identity expected or none; the file's size. Bad fields must throw
// vzero::Error; accepted ones must fit the identity asked for, and a model of
// them must be buildable. Whole files (the checksum before LibTorch, then
// LibTorch's archive reader, then this layer) are fuzz_checkpoint_file's.
#include <fuzzer/FuzzedDataProvider.h>

#include <map>

#include "fuzz/fuzz_util.h"
#include "fuzz/tiny_model.h"
#include "net/checkpoint.h"

#undef CHECK  // glog's
using namespace vzero;

namespace {

// The header of the tiny model (fuzz/tiny_model.h), as save_checkpoint writes it.
struct Reference {
  ModelIdentity id = fuzz::tiny_identity();
  std::map<std::string, c10::IValue> fields;
  Reference() {
    CheckpointHeader h;
    h.identity = id;
    h.config = fuzz::tiny_config();
    h.step = 7;
    h.generation = 2;
    h.weights_hash = "0123456789abcdef";
    for (const auto& [key, value] : checkpoint_fields(h)) fields[key] = value;
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
