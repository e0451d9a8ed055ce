// Text files, durable replacement of files, folder locks.
#include "util/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace vzero {

namespace {

// "'path'" or "what 'path'", for messages.
std::string named(const std::string& path, const std::string& what) {
  return what.empty() ? "'" + path + "'" : what + " '" + path + "'";
}

}  // namespace

void sync_path(const std::string& path, bool folder) {
  const int fd = ::open(path.c_str(), folder ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) throw Error("cannot open '" + path + "' to sync it: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && !(folder && err == EINVAL))
    throw Error("cannot sync '" + path + "': " + std::strerror(err));
}

void sync_and_rename(const std::string& tmp, const std::string& path, Existing existing,
                     const std::string& what) {
  sync_path(tmp, false);
  if (existing == Existing::replace) {
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw Error("cannot write " + named(path, what) + ": " + ec.message());
  } else if (::link(tmp.c_str(), path.c_str()) == 0) {
    ::unlink(tmp.c_str());
  } else {
    const int err = errno;
    std::error_code ec;
    if (err == EEXIST || std::filesystem::exists(path, ec))
      throw Error("cannot write " + named(path, what) + ": it already exists");
    // No hard links on this file system: a plain rename, after the check above.
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw Error("cannot write " + named(path, what) +
                  ": cannot rename the temporary file: " + std::strerror(errno));
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  sync_path(parent.empty() ? "." : parent.string(), true);
}

void write_file_durably(const std::string& path,
                        const std::function<void(const std::string& tmp)>& write, Existing existing,
                        const std::string& what) {
  const std::string tmp = path + ".tmp";
  try {
    write(tmp);
    sync_and_rename(tmp, path, existing, what);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

std::string read_text_file(const std::string& path) {
  std::error_code ec;  // a folder opens as a file on Linux, and reads as no text
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot read '" + path + "': it is a directory");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read '" + path + "'");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  write_file_durably(path, [&](const std::string& tmp) {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) throw Error("cannot write '" + path + "'");
  });
}

FolderLock::FolderLock(const std::string& dir, const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = (std::filesystem::path(dir) / "lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw Error(what + " '" + dir + "' is in use by another vzero process (" + path +
                " is locked)");
  }
}

FolderLock::~FolderLock() { ::close(fd_); }

}  // namespace vzero
