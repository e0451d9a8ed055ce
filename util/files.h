#pragma once
// Files that a kill must not corrupt: durable replacement (fsync of the file,
// rename, fsync of the folder, so that the new file survives a crash or power
// loss) and folder locks that keep a second process out. No LibTorch.
#include <string>

namespace vzero {

// The whole text of a file; throws Error when it cannot be read (a directory included).
std::string read_text_file(const std::string& path);
// Replaces path with text durably: written to path.tmp, then sync_and_rename; throws Error on failure.
void write_text_file(const std::string& path, const std::string& text);

// fsyncs a file (folder false) or a folder; throws Error naming path on failure.
void sync_path(const std::string& path, bool folder);
// Replaces path with the finished file tmp durably: fsyncs tmp, renames it
// over path, fsyncs the folder; throws Error naming path on failure.
void sync_and_rename(const std::string& tmp, const std::string& path);

// An exclusive lock on a folder (the file <dir>/lock, the folder created if
// needed), held until destroyed; the system drops it when the process dies,
// however it dies.
class FolderLock {
 public:
  // Throws Error when another holder has the lock (what names the folder's role: "run folder").
  FolderLock(const std::string& dir, const std::string& what);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace vzero
