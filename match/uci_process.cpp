// Child processes over a socket pair (writes never raise SIGPIPE).
#include "match/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

extern char** environ;

namespace vzero {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool is_executable_command(const std::string& command) {
  if (command.empty()) return false;
  if (command.find('/') != std::string::npos) return access(command.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/" + command).c_str(), X_OK) == 0) return true;
  return false;
}

ChildProcess::ChildProcess(const std::string& command, const std::vector<std::string>& args) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw ProcessFailure(std::string("cannot make a socket pair: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
  posix_spawn_file_actions_adddup2(&actions, sv[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: killing it takes its children too
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(command.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int rc = posix_spawnp(&pid_, command.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    pid_ = -1;
    throw ProcessFailure("cannot start '" + command + "': " + std::strerror(rc));
  }
  fd_ = sv[0];
}

ChildProcess::~ChildProcess() { kill_now(); }

void ChildProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ProcessFailure("engine died (" + exit_text(0.5) + ")");
    done += size_t(n);
  }
}

std::string ChildProcess::read_line(double timeout_s) {
  const double deadline = now_s() + timeout_s;
  for (;;) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    const double left = deadline - now_s();
    if (left <= 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "engine silent for %.1f s", timeout_s);
      throw ProcessFailure(buf);
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = poll(&p, 1, int(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline check above decides
    char chunk[4096];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ProcessFailure("engine died (" + exit_text(0.5) + ")");
    buffer_.append(chunk, size_t(n));
    if (buffer_.size() > (1u << 24)) throw ProcessFailure("engine wrote a line over 16 MB");
  }
}

std::string ChildProcess::exit_text(double wait_s) {
  // Peeks without reaping (WNOWAIT): the zombie keeps its process group id
  // taken until kill_now has killed the group.
  const double deadline = now_s() + wait_s;
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return "gone";
    if (info.si_pid == pid_) {
      if (info.si_code == CLD_EXITED) return "exited with status " + std::to_string(info.si_status);
      return "killed by signal " + std::to_string(info.si_status);
    }
    if (now_s() >= deadline) return "still running";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ChildProcess::stop(const std::string& quit_line, double grace_s) {
  if (pid_ > 0) {
    try {
      send(quit_line);
      exit_text(grace_s);
    } catch (const ProcessFailure&) {
    }
  }
  kill_now();
}

void ChildProcess::kill_now() {
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);  // the whole group, children of a script included
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    // The group's other members (a script's children) die with it; wait a
    // little until the last is gone, so none outlives this object.
    for (int ms = 0; ms < 2000 && kill(-pid_, 0) == 0; ++ms)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pid_ = -1;
  }
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

}  // namespace vzero
