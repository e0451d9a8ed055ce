// Fuzz target: whole checkpoint files through LibTorch's archive reader (zip,
// pickle, TorchScript) and then vzero's checks, as the server and trainer read
// them. The first byte picks the reader (load_checkpoint with the identity of
// the seed's tiny model, read_checkpoint_header, load_optimizer_state); the
// rest is the file. Bad files must throw vzero::Error. LibTorch is not
// instrumented, so mutations of its formats are blind, and each load costs
// milliseconds (TorchScript compiles the archive's code): see README.md.
#include <fstream>

#include "fuzz/fuzz_util.h"
#include "net/checkpoint.h"

#undef CHECK  // glog's
using namespace vzero;

namespace {

// The identity of the seeds' model (a made-up 2x2 board with 3 actions).
ModelIdentity seed_identity() {
  ModelIdentity id;
  id.variant = "fuzz";
  id.rules_hash = 0x0123456789abcdefull;
  id.encoding_hash = 0xfedcba9876543210ull;
  id.channels = 2;
  id.height = id.width = 2;
  id.num_actions = 3;
  id.players = 2;
  return id;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ModelIdentity id = seed_identity();
  static const std::string path = fuzz::temp_file("checkpoint.pt");
  static const bool cheap_errors = [] {
    c10::SetStackTraceFetcher([] { return std::string(); });  // LibTorch errors: no backtrace
    return true;
  }();
  (void)cheap_errors;
  if (size < 1) return 0;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
  try {
    switch (data[0] % 3) {
      case 0: {
        const Checkpoint c = load_checkpoint(path, &id);
        fuzz::require(c.model->identity.num_actions == id.num_actions,
                      "an accepted checkpoint fits");
        break;
      }
      case 1:
        read_checkpoint_header(path);
        break;
      default: {
        static ModelConfig config = [] {
          ModelConfig c;
          c.blocks = 1;
          c.filters = c.value_hidden = 2;
          c.policy_channels = 1;
          return c;
        }();
        static PolicyValueNet m = make_model(config, id, 1);
        static torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
        load_optimizer_state(path, opt);
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
