// Fuzz target: whole checkpoint files, read as the server and the trainer
// read them. The first byte picks the reader (load_checkpoint with the
// identity of the seeds' model, fuzz/tiny_model.h; read_checkpoint_header;
// load_optimizer_state); the rest is the file. Bad files must throw
// vzero::Error. The file's checksum is checked before LibTorch parses the
// archive, so a changed file stops there: LibTorch's zip, pickle and
// TorchScript readers (not instrumented; on some corrupt archives LibTorch
// 1.13 throws std::out_of_range or crashes, found here before the checksum)
// see only files whose checksum holds, as written by save_checkpoint.
#include <fstream>

#include "fuzz/fuzz_util.h"
#include "fuzz/tiny_model.h"
#include "net/checkpoint.h"

#undef CHECK  // glog's
using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ModelIdentity id = fuzz::tiny_identity();
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
        static PolicyValueNet m = make_model(fuzz::tiny_config(), id, 1);
        static torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
        load_optimizer_state(path, opt);
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
