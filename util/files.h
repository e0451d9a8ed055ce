#pragma once
// Files that a kill must not corrupt: durable replacement (fsync of the file,
// rename, fsync of the folder, so that the new file survives a crash or power
// loss) and folder locks that keep a second process out. No LibTorch.
#include <functional>
#include <string>

namespace vzero {

// The whole text of a file; throws Error when it cannot be read (a directory included).
std::string read_text_file(const std::string& path);
// Replaces path with text durably (write_file_durably); throws Error on failure.
void write_text_file(const std::string& path, const std::string& text);

// What the durable writes do when their destination already exists.
enum class Existing {
  replace,  // replace it (one atomic rename)
  refuse,   // throw Error and leave it alone (link + unlink; a plain rename after a check where
            // the file system has no hard links)
};

// The one way vzero writes a file durably: write(tmp) writes the whole
// content to tmp = path + ".tmp" (same folder), then sync_and_rename(tmp,
// path, existing, what). On any failure, write's exceptions included, tmp is
// removed and the exception propagates; path is untouched (the old file, or
// none) unless only the final fsync of the folder failed. what names the
// file's role in errors ("sidecar"; empty: none).
void write_file_durably(const std::string& path,
                        const std::function<void(const std::string& tmp)>& write,
                        Existing existing = Existing::replace, const std::string& what = "");

// fsyncs a file (folder false) or a folder; throws Error naming path on failure
// (a folder's fsync refused with EINVAL, by a file system that cannot sync folders, is no failure).
void sync_path(const std::string& path, bool folder);
// Makes the finished file tmp (in path's folder) the file path durably: fsyncs
// tmp, renames it over path (or, with Existing::refuse, never over a file
// there), fsyncs the folder; throws Error naming path on failure (tmp is then
// the caller's to remove). Every durable write of vzero ends here.
void sync_and_rename(const std::string& tmp, const std::string& path,
                     Existing existing = Existing::replace, const std::string& what = "");

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
