#pragma once
// Small helpers shared by the rule tests.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "game/game.h"

namespace vzero::testing {

// The legal actions of a state as text, in action order.
inline std::vector<std::string> texts(const GameState& s) {
  std::vector<std::string> out;
  for (int a : s.legal_actions()) out.push_back(s.action_to_text(a));
  return out;
}

// Applies actions given in the rules notation.
inline void play(GameState& s, std::initializer_list<const char*> moves) {
  for (const char* m : moves) s.apply(s.text_to_action(m));
}

// The legal actions whose text starts with prefix ("e4", "L@"), sorted.
inline std::vector<std::string> starting(const GameState& s, const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& m : texts(s))
    if (m.rfind(prefix, 0) == 0) out.push_back(m);
  std::sort(out.begin(), out.end());
  return out;
}

// Whether action (as text) is legal in s.
inline bool has(const GameState& s, const std::string& action) {
  const std::vector<std::string> all = texts(s);
  return std::find(all.begin(), all.end(), action) != all.end();
}

// A fresh, empty temporary directory for one test (named after it and the process).
inline std::filesystem::path temp_dir(const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  ("vzero-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace vzero::testing
