#pragma once
// The one error type of vzero: bad input, I/O and configuration errors.
#include <stdexcept>
#include <string>

namespace vzero {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Throws Error(message) when cond is false; stays on in release builds. The
// message is built on every call: on hot paths use VZERO_CHECK.
inline void check(bool cond, const std::string& message) {
  if (!cond) throw Error(message);
}

}  // namespace vzero

// check() for hot paths: throws vzero::Error(message) when cond is false, and
// evaluates message (any expression a std::string is made from) only then, so
// a passing check costs one branch. Stays on in release builds.
#define VZERO_CHECK(cond, message)                                   \
  do {                                                               \
    if (__builtin_expect(!(cond), 0)) throw ::vzero::Error(message); \
  } while (false)

namespace vzero {}  // namespace vzero
