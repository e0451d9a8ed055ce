#pragma once
// A child process spoken to in lines over its stdin and stdout (a UCI
// engine): started with posix_spawnp in its own process group, stderr to
// /dev/null; reads wait with poll() until a deadline. Every failure (it
// cannot start, dies, stays silent) throws ProcessFailure with the reason;
// the destructor always kills and reaps the child, so none is left behind.
#include <sys/types.h>

#include <string>
#include <vector>

#include "util/error.h"

namespace vzero {

class ProcessFailure : public Error {
 public:
  using Error::Error;
};

class ChildProcess {
 public:
  // Starts command (a path, or a name looked up in PATH) with args.
  ChildProcess(const std::string& command, const std::vector<std::string>& args);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes one line (a newline is added).
  void send(const std::string& line);
  // The next line without its newline, waiting at most timeout_s seconds.
  std::string read_line(double timeout_s);
  // Asks it to end with `quit_line`, waits up to grace_s seconds, then kills it; reaps it.
  void stop(const std::string& quit_line, double grace_s);

 private:
  // Kills the process group and reaps the child (idempotent).
  void kill_now();
  // "exited with status N" / "killed by signal N" once it has ended (waits up to wait_s), without
  // reaping.
  std::string exit_text(double wait_s);

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

// Whether command names an executable file (a path, or a name found in PATH).
bool is_executable_command(const std::string& command);

}  // namespace vzero
