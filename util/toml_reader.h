#pragma once
// Typed reading of TOML tables for variant files and run configs: every key
// read with its type and range, and an error for any key nobody read, so a
// typo in a config is caught.
#include <toml++/toml.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "util/error.h"

namespace vzero {

// The table of a TOML text; origin names it in errors (throws Error when malformed).
inline toml::table parse_toml(const std::string& text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + ": " + std::string(e.description()) + " (line " +
                std::to_string(e.source().begin.line) + ")");
  }
}

// Reads typed keys from one TOML table and rejects the keys nobody read.
class TomlReader {
 public:
  TomlReader(const toml::table& t, std::string where) : t_(t), where_(std::move(where)) {}

  // The value of key (bool, integer, double or string), or fallback when absent.
  template <class T>
  T get(const std::string& key, T fallback) {
    const T v = get_value(key, fallback);
    note(key, v);
    return v;
  }
  // An integer in [lo, hi].
  int get_range(const std::string& key, int fallback, int lo, int hi) {
    const int64_t v = get<int64_t>(key, fallback);
    if (v < lo || v > hi)
      fail(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return int(v);
  }
  // A real number in [lo, hi].
  double get_real(const std::string& key, double fallback, double lo, double hi) {
    const double v = get<double>(key, fallback);
    if (!(v >= lo && v <= hi)) fail(key, "must be in [" + format(lo) + ", " + format(hi) + "]");
    return v;
  }
  // The sub-table under key, or nullptr when absent.
  const toml::table* table(const std::string& key) {
    read_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return nullptr;
    if (!n->is_table()) fail(key, "must be a table");
    return n->as_table();
  }
  // The array under key, or nullptr when absent.
  const toml::array* array(const std::string& key) {
    read_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return nullptr;
    if (!n->is_array()) fail(key, "must be an array");
    return n->as_array();
  }
  // An array of strings, or fallback when absent.
  std::vector<std::string> get_strings(const std::string& key, std::vector<std::string> fallback) {
    if (const toml::array* a = array(key)) {
      fallback.clear();
      for (const toml::node& n : *a) {
        const auto v = n.value_exact<std::string>();
        if (!v) fail(key, "must be an array of strings");
        fallback.push_back(*v);
      }
    }
    toml::array values;
    for (const std::string& v : fallback) values.push_back(v);
    std::ostringstream s;
    s << values;
    set_line(key, s.str());
    return fallback;
  }
  // An array of numbers in [lo, hi] (integers when T is integral), or fallback when absent.
  template <class T>
  std::vector<T> get_numbers(const std::string& key, std::vector<T> fallback, T lo, T hi) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    if (const toml::array* a = array(key)) {
      fallback.clear();
      for (const toml::node& n : *a) {
        double v = 0.0;
        if constexpr (std::is_integral_v<T>) {
          const auto i = n.value_exact<int64_t>();
          if (!i) fail(key, "must be an array of integers");
          v = double(*i);
        } else {
          const auto d = n.value<double>();
          if (!d) fail(key, "must be an array of numbers");
          v = *d;
        }
        if (!(v >= double(lo) && v <= double(hi)))
          fail(key, "values must be in [" + format(double(lo)) + ", " + format(double(hi)) + "]");
        fallback.push_back(T(v));
      }
    }
    toml::array values;
    for (T v : fallback) {
      if constexpr (std::is_integral_v<T>)
        values.push_back(int64_t(v));
      else
        values.push_back(double(v));
    }
    std::ostringstream s;
    s << values;
    set_line(key, s.str());
    return fallback;
  }
  // Throws if the table holds a key that no get() asked for.
  void finish() const {
    for (const auto& [k, v] : t_)
      if (!read_.count(std::string(k.str())))
        throw Error(where_ + ": unknown key '" + std::string(k.str()) + "'");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw Error(where_ + ": key '" + key + "' " + why);
  }
  const std::string& where() const { return where_; }

  // The "key = value" lines of every key read, with the values in force (defaults included).
  const std::vector<std::string>& resolved() const { return resolved_; }

 private:
  template <class T>
  T get_value(const std::string& key, T fallback) {
    read_.insert(key);
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if constexpr (std::is_same_v<T, bool>) {
      if (auto v = n->value_exact<bool>()) return *v;
    } else if constexpr (std::is_integral_v<T>) {
      if (auto v = n->value_exact<int64_t>()) {
        if (*v < -1000000000 || *v > 1000000000) fail(key, "out of range");
        return T(*v);
      }
    } else if constexpr (std::is_floating_point_v<T>) {
      if (auto v = n->value<double>()) return T(*v);
    } else {
      if (auto v = n->value_exact<std::string>()) return *v;
    }
    fail(key, "has the wrong type");
  }
  template <class T>
  void note(const std::string& key, const T& v) {
    std::string text;
    if constexpr (std::is_same_v<T, bool>) {
      text = v ? "true" : "false";
    } else if constexpr (std::is_integral_v<T>) {
      text = std::to_string(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      std::ostringstream s;
      s.precision(17);
      s << v;
      text = s.str();
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    } else {
      toml::value<std::string> quoted(v);
      std::ostringstream s;
      s << quoted;
      text = s.str();
    }
    set_line(key, text);
  }
  // Records "key = text" among the resolved lines (replacing an earlier one).
  void set_line(const std::string& key, const std::string& text) {
    for (std::string& line : resolved_)
      if (line.compare(0, key.size() + 3, key + " = ") == 0) {
        line = key + " = " + text;
        return;
      }
    resolved_.push_back(key + " = " + text);
  }
  static std::string format(double x) {
    std::string s = std::to_string(x);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  const toml::table& t_;
  std::string where_;
  std::set<std::string> read_;
  std::vector<std::string> resolved_;
};

}  // namespace vzero
