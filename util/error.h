#pragma once
// The one error type of vzero: bad input, I/O and configuration errors.
#include <stdexcept>
#include <string>

namespace vzero {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Throws Error(message) when cond is false; stays on in release builds.
inline void check(bool cond, const std::string& message) {
  if (!cond) throw Error(message);
}

}  // namespace vzero
