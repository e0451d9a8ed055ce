// Fuzz target: the UCI protocol (frontend/uci.h). Each line of the input goes
// to UciEngine::handle_line, which must never throw, crash or hang, whatever
// the line. The searches stay tiny so that an execution is fast and every
// hang is a finding: the harness sends "setoption name Nodes value 4" first,
// lowers larger Nodes, Threads and `go nodes` values in the input to 4, 2
// and 4 and raises Nodes 0 (no limit) to 4, sets Evaluator `constant` where
// the input asks for `rollout` (random games to the end: slow, and no part of
// the protocol), sends `stop` after a `go infinite`, waits for each search's
// bestmove before the next line, and skips the `go` lines after the 8th of
// an input. Every other word goes through as written.
// No model directories and no LibTorch: `Model` values are refused (no net:
// player kind), and the engine falls back to its network-free search.
#include "frontend/uci.h"
#include "fuzz/fuzz_util.h"

using namespace vzero;

namespace {

constexpr int64_t kMaxNodes = 4, kMaxThreads = 2;
constexpr int kMaxSearches = 8;  // `go` lines of one input that are sent

// w, or cap when w reads (as the engine reads integers) as a number above cap,
// or as 0 where zero_too (Nodes 0 lifts the node limit: the clock of a `go`
// then rules, a long search).
std::string capped(const std::string& w, int64_t cap, bool zero_too = false) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(w, &used);
  } catch (const std::exception&) {
    return w;
  }
  return used == w.size() && (v > cap || (zero_too && v == 0)) ? std::to_string(cap) : w;
}

// The line with its search sizes capped (see the file comment); other lines as they are.
std::string bounded(const std::string& line) {
  std::vector<std::string> w = uci_words(line);
  if (w.empty()) return line;
  if (w[0] == "go") {
    for (size_t i = 1; i + 1 < w.size(); ++i)
      if (w[i] == "nodes") w[i + 1] = capped(w[i + 1], kMaxNodes);
  } else if (w[0] == "setoption") {
    const auto value = std::find(w.begin(), w.end(), "value");
    if (value == w.end() || value + 2 != w.end()) return line;
    std::string name;
    for (auto it = w.begin() + 1; it != value; ++it) name += ascii_lower(*it) + " ";
    if (name == "name nodes ") w.back() = capped(w.back(), kMaxNodes, true);
    if (name == "name threads ") w.back() = capped(w.back(), kMaxThreads);
    if (name == "name evaluator " && w.back() == "rollout") w.back() = "constant";
  } else {
    return line;
  }
  std::string out;
  for (const std::string& x : w) out += (out.empty() ? "" : " ") + x;
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  size_t sent = 0;
  UciEngine engine([&](const std::string&) { ++sent; }, {});
  engine.handle_line("setoption name Nodes value " + std::to_string(kMaxNodes));
  int searches = 0;
  for (const std::string& raw : fuzz::lines_of(data, size, 64)) {
    const std::string line = bounded(raw);
    const std::vector<std::string> w = uci_words(line);
    const bool go = !w.empty() && w[0] == "go";
    if (go && ++searches > kMaxSearches) continue;
    if (!engine.handle_line(line)) break;
    if (go) {
      if (std::find(w.begin(), w.end(), "infinite") != w.end()) engine.handle_line("stop");
      engine.wait();
    }
  }
  engine.finish();
  return 0;
}
