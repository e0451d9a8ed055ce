#pragma once
// Helpers of the frontend tests: a thread-safe collector of protocol lines.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace vzero::testing {

// Lines an engine sends (from any thread), with the time each arrived.
class Lines {
 public:
  using Clock = std::chrono::steady_clock;

  // The sink to hand to an engine.
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(m_);
      lines_.push_back(line);
      at_.push_back(Clock::now());
      cv_.notify_all();
    };
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(m_);
    return lines_.size();
  }
  // The index of the first line from `from` on that starts with prefix, waiting
  // up to `seconds` for it; -1 when none came.
  int wait_for(const std::string& prefix, size_t from, double seconds) {
    std::unique_lock<std::mutex> lock(m_);
    int found = -1;
    cv_.wait_for(lock, std::chrono::duration<double>(seconds), [&] {
      for (size_t i = from; i < lines_.size(); ++i)
        if (lines_[i].rfind(prefix, 0) == 0) return (found = int(i)) >= 0;
      return false;
    });
    return found;
  }
  std::string at(int i) {
    std::lock_guard<std::mutex> lock(m_);
    return lines_.at(size_t(i));
  }
  Clock::time_point time_of(int i) {
    std::lock_guard<std::mutex> lock(m_);
    return at_.at(size_t(i));
  }
  // The lines from `from` on.
  std::vector<std::string> since(size_t from) {
    std::lock_guard<std::mutex> lock(m_);
    return std::vector<std::string>(lines_.begin() + long(std::min(from, lines_.size())),
                                    lines_.end());
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  std::vector<Clock::time_point> at_;
};

}  // namespace vzero::testing
