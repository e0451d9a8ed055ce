#pragma once
// The [inference] options of the batching inference server (net/server.h),
// without LibTorch, so run configs can be read without it.
#include <string>
#include <vector>

namespace vzero {

class TomlReader;

// The [inference] table: batching, threads and device.
struct ServerConfig {
  int max_batch = 128;            // positions per network call
  int max_wait_us = 500;          // how long a worker waits for a batch to fill
  int workers = 1;                // worker threads (each runs whole batches)
  int threads_per_worker = 1;     // intra-op threads of each worker (at::set_num_threads)
  int cache_entries = 200000;     // 0 turns the cache off
  std::string device = "cpu";     // cpu or cuda:N
  std::string form = "winograd";  // the network's inference form (net/model.h inference_model):
                                  // one of inference_forms()
  bool random_symmetry = false;   // show each position through one of the variant's declared board
                                  // symmetries, drawn from the position's hash (so repeatable)
};
ServerConfig read_server_config(TomlReader& in, ServerConfig defaults = {});

// The inference forms (net/model.h inference_model), the default first.
const std::vector<std::string>& inference_forms();
// Whether form is one of them.
bool is_inference_form(const std::string& form);
// Them as "frozen, folded, ... or unfolded", for error messages.
std::string inference_forms_text();

// Whether an [inference] key only sets how fast positions are evaluated, not
// what a run's data is (batching, waits, threads, cache, device, form: every
// key but random_symmetry), so that a run folder resumes under another value.
// The forms give the same outputs within float rounding, except int8, which
// is left out all the same (net/README.md).
bool inference_speed_key(const std::string& key);

}  // namespace vzero
