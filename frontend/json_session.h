#pragma once
// `vzero serve --stdio`: a game session driven by JSON lines, for every
// variant (2-4 seats, several actions in a row by one seat). One request
// object in, one reply object out; errors are {"error": ...} replies, never
// an exception. docs/protocol.md describes the commands. The session never
// touches stdin/stdout, so tests and fuzzers drive it directly.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/analysis.h"

namespace vzero {

class JsonSession {
 public:
  // Player "auto" looks for <variant>.pt in model_dirs.
  explicit JsonSession(std::vector<std::string> model_dirs = default_model_dirs());
  ~JsonSession();

  // The reply (one line of JSON, no newline) to one request line.
  std::string handle_line(const std::string& line);
  // True once `quit` was handled.
  bool finished() const { return finished_; }

  struct Table;  // the game in progress and its player (json_session.cpp)

 private:
  std::vector<std::string> model_dirs_;
  std::unique_ptr<Table> table_;
  bool finished_ = false;
};

}  // namespace vzero
