// Fuzz target: run-config TOML and "--set table.key=value" overrides. The
// input up to the first NUL byte is the config file; each NUL-separated part
// after it is one override. Bad text must throw vzero::Error; an accepted
// config's resolved text must read back to the same config (the same hash).

#include <fstream>

#include "fuzz/fuzz_util.h"
#include "training/run_config.h"

using namespace vzero;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  std::vector<std::string> parts(1);
  for (size_t i = 0; i < size && parts.size() <= 8; ++i) {
    if (data[i] == 0)
      parts.emplace_back();
    else
      parts.back().push_back(char(data[i]));
  }
  static const std::string path = fuzz::temp_file("run-config.toml");
  std::ofstream(path, std::ios::binary | std::ios::trunc) << parts[0];
  RunConfig c;
  try {
    c = read_run_config(path, std::vector<std::string>(parts.begin() + 1, parts.end()));
  } catch (const Error&) {
    return 0;
  }
  try {
    const RunConfig again = parse_run_config(c.resolved, "resolved");
    fuzz::require(again.hash == c.hash && again.resolved == c.resolved,
                  "the resolved config reads back to itself");
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz: resolved config rejected: %s\n%s\n", e.what(), c.resolved.c_str());
    fuzz::require(false, "the resolved config reads back");
  }
  return 0;
}
